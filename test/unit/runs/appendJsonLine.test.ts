// The one durable JSON-lines append (a Run's message queue, a Turn's live input): a torn last line is terminated first.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendJsonLine } from '../../../src/host/runs/appendJsonLine.js';

describe('appendJsonLine', () => {
	let dir: string;
	beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'tutti-append-')); });
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('creates the file 0600 and appends one line per value', () => {
		const file = join(dir, 'q.jsonl');
		appendJsonLine(file, { n: 1 });
		appendJsonLine(file, { n: 2 });
		assert.equal(readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n');
		assert.equal(statSync(file).mode & 0o777, 0o600);
	});

	it('terminates a torn last line so it cannot swallow the new one', () => {
		const file = join(dir, 'q.jsonl');
		writeFileSync(file, '{"n":1}\n{"n":2');
		appendJsonLine(file, { n: 3 });
		assert.deepEqual(readFileSync(file, 'utf8').split('\n'), ['{"n":1}', '{"n":2', '{"n":3}', '']);
	});
});
