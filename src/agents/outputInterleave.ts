// A Run's stdout and stderr lines in the order they were written, as far as the supervisor's size samples tell
// (src/supervisor/outputOrder.ts): a stderr line goes after the stdout that was written before the first sample that
// saw the whole line, and before the stdout written after it. Lines within one sample period keep stdout first.
// Without samples (a Run from before them) every stderr line goes after the stdout read with it. Pure.
import { Buffer } from 'node:buffer';

/** Both sizes at one sample, in bytes: [stdout, stderr]; non-decreasing in both. */
export type OutputMark = readonly [number, number];

/** Whole lines of one stream and the byte offset of the first one in that stream. */
export interface StreamText {
	readonly text: string;
	readonly start: number;
}

export interface OutputLine {
	readonly stream: 'stdout' | 'stderr';
	readonly line: string;
}

interface Placed {
	readonly line: string;
	/** Byte offset in its stream just after the line's last character (its newline excluded). */
	readonly end: number;
}

function placedLines(s: StreamText): Placed[] {
	if (s.text === '') { return []; }
	const lines = s.text.endsWith('\n') ? s.text.slice(0, -1).split('\n') : s.text.split('\n');
	const out: Placed[] = [];
	let at = s.start;
	for (const line of lines) {
		const end = at + Buffer.byteLength(line, 'utf8');
		out.push({ line, end });
		at = end + 1;
	}
	return out;
}

/**
 * The lines of `stdout` and `stderr` interleaved by `marks`. Each stderr line is anchored at the stdout size of the
 * first mark whose stderr size covers it (Infinity when none does: after all of `stdout`); a stdout line comes before
 * it when it ended at or before that anchor.
 */
export function interleaveOutput(stdout: StreamText, stderr: StreamText, marks: readonly OutputMark[]): OutputLine[] {
	const out = placedLines(stdout);
	const err = placedLines(stderr);
	const result: OutputLine[] = [];
	let o = 0;
	let m = 0;
	for (const e of err) {
		while (m < marks.length && marks[m]![1] < e.end) { m++; }
		const anchor = m < marks.length ? marks[m]![0] : Number.POSITIVE_INFINITY;
		while (o < out.length && out[o]!.end <= anchor) { result.push({ stream: 'stdout', line: out[o]!.line }); o++; }
		result.push({ stream: 'stderr', line: e.line });
	}
	for (; o < out.length; o++) { result.push({ stream: 'stdout', line: out[o]!.line }); }
	return result;
}

/**
 * How far stderr may be read alongside stdout read up to `stdoutEnd`: the stderr size of the last mark taken at or
 * before that stdout size (stderr written later belongs after stdout not read yet). 0 without such a mark.
 */
export function stderrLimit(marks: readonly OutputMark[], stdoutEnd: number): number {
	let limit = 0;
	for (const [out, err] of marks) {
		if (out > stdoutEnd) { break; }
		limit = err;
	}
	return limit;
}
