import assert from 'node:assert/strict';
import fc from 'fast-check';
import { completeUtf8Length } from '../../../src/host/runs/readLogSlice.js';

describe('completeUtf8Length', () => {
	it('holds back a trailing partial character', () => {
		const violin = Buffer.from('a🎻', 'utf8'); // 1 + 4 bytes
		assert.equal(completeUtf8Length(violin), 5);
		for (let cut = 2; cut < 5; cut++) { assert.equal(completeUtf8Length(violin.subarray(0, cut)), 1); }
		assert.equal(completeUtf8Length(Buffer.from('é', 'utf8').subarray(0, 1)), 0);
		assert.equal(completeUtf8Length(Buffer.alloc(0)), 0);
	});

	it('never splits a character: slices decoded one by one rebuild any text', () => {
		fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.array(fc.integer({ min: 4, max: 16 }), { minLength: 1 }), (text, sizes) => {
			const bytes = Buffer.from(text, 'utf8');
			let offset = 0;
			let out = '';
			for (let i = 0; offset < bytes.length; i++) {
				const chunk = bytes.subarray(offset, offset + sizes[i % sizes.length]!);
				const keep = completeUtf8Length(chunk);
				assert.ok(keep > 0);
				out += chunk.subarray(0, keep).toString('utf8');
				offset += keep;
			}
			assert.equal(out, text);
		}));
	});
});
