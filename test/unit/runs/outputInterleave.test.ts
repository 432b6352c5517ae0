import { strict as assert } from 'node:assert';
import { interleaveOutput, type OutputMark, stderrLimit } from '../../../src/agents/outputInterleave.js';

const show = (lines: ReturnType<typeof interleaveOutput>): string[] => lines.map((l) => `${l.stream === 'stderr' ? '!' : ''}${l.line}`);

describe('agents/outputInterleave', () => {
	// stdout "a\nbb\nccc\n" ends its lines at 1, 4, 8; stderr "E1\nE2\n" at 2, 5.
	const stdout = { text: 'a\nbb\nccc\n', start: 0 };
	const stderr = { text: 'E1\nE2\n', start: 0 };

	it('a stderr line goes after the stdout written before the first sample that saw it, before the stdout after it', () => {
		const marks: OutputMark[] = [[2, 0], [2, 3], [5, 3], [5, 6], [9, 6]];
		assert.deepEqual(show(interleaveOutput(stdout, stderr, marks)), ['a', '!E1', 'bb', '!E2', 'ccc']);
	});

	it('lines written within one sample period keep stdout first', () => {
		assert.deepEqual(show(interleaveOutput(stdout, stderr, [[9, 6]])), ['a', 'bb', 'ccc', '!E1', '!E2']);
		assert.deepEqual(show(interleaveOutput(stdout, stderr, [[5, 3], [9, 6]])), ['a', 'bb', '!E1', 'ccc', '!E2']);
	});

	it('without samples, stderr follows the stdout read with it', () => {
		assert.deepEqual(show(interleaveOutput(stdout, stderr, [])), ['a', 'bb', 'ccc', '!E1', '!E2']);
		assert.deepEqual(show(interleaveOutput({ text: '', start: 0 }, stderr, [])), ['!E1', '!E2']);
	});

	it('positions are byte offsets in each stream, from where the read started', () => {
		// "é" is two bytes: stdout "é\nx\n" from byte 10 ends its lines at 12 and 14.
		const out = { text: 'é\nx\n', start: 10 };
		const err = { text: 'E\n', start: 7 };
		assert.deepEqual(show(interleaveOutput(out, err, [[12, 7], [12, 8], [15, 8]])), ['é', '!E', 'x']);
		assert.deepEqual(show(interleaveOutput(out, err, [[13, 8]])), ['é', '!E', 'x'], 'the sample saw é but not x');
	});

	it('stderr is read only as far as the last sample taken within the stdout read', () => {
		const marks: OutputMark[] = [[2, 0], [2, 3], [5, 3], [5, 6], [9, 6]];
		assert.deepEqual([0, 1, 2, 4, 5, 9, 20].map((end) => stderrLimit(marks, end)), [0, 0, 3, 3, 6, 6, 6]);
		assert.equal(stderrLimit([], 100), 0);
	});
});
