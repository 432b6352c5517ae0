// `run/transcript`'s reading: a Run's stdout as readable entries, with its stderr lines interleaved (marked `stderr`)
// by the supervisor's size samples (src/supervisor/outputOrder.ts), across every Turn process of the Run. Two cursors,
// one per stream; whole lines only while the Run runs. Stderr is read only as far as the stdout read with it allows,
// so a stderr line never comes before stdout that was written earlier.
import { Buffer } from 'node:buffer';
import { interleaveOutput, type OutputMark, stderrLimit } from '../../agents/outputInterleave.js';
import { stderrEntry, type TranscriptEntry, transcriptEntriesOfLine } from '../../agents/transcript.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { readOutputOrder } from '../../supervisor/outputOrder.js';
import { readQueue } from '../runs/messages/queueFile.js';
import { readRunLog, type RunLogSlice } from '../runs/messages/turnLog.js';
import { turnProcessIds } from '../runs/messages/turnProcesses.js';

type Runs = Pick<RunProcessPort, 'readLog' | 'runDir'>;

export interface TranscriptRead {
	readonly entries: TranscriptEntry[];
	readonly nextOffset: number;
	readonly stderrNextOffset: number;
	/** The Run has ended and both streams were read to their end. */
	readonly done: boolean;
}

function sizeOf(runs: Runs, id: string, stream: 'stdout' | 'stderr'): number {
	try { return runs.readLog(id, stream, 0, 0).size; } catch { return 0; }
}

/**
 * The samples of every Turn process of the Run as positions in the concatenated streams (`run log` across Turns):
 * each process's own, shifted by the sizes of the processes before it, and one at the end of each finished process
 * (all of a process's output comes before the next one's).
 */
export function runOutputMarks(runs: Runs, runId: string): OutputMark[] {
	let ids: string[];
	try { ids = turnProcessIds(runId, readQueue(runs.runDir(runId))); } catch { return []; }
	const marks: OutputMark[] = [];
	let out = 0;
	let err = 0;
	ids.forEach((id, i) => {
		let own: OutputMark[] = [];
		try { own = readOutputOrder(runs.runDir(id)); } catch { own = []; }
		for (const [o, e] of own) { marks.push([out + o, err + e]); }
		out += sizeOf(runs, id, 'stdout');
		err += sizeOf(runs, id, 'stderr');
		if (i < ids.length - 1) { marks.push([out, err]); }
	});
	return marks;
}

function slice(runs: Runs, runId: string, stream: 'stdout' | 'stderr', offset: number, maxBytes: number): RunLogSlice {
	try {
		return readRunLog(runs, runId, stream, offset, maxBytes);
	} catch {
		// Not launched yet (no output files): nothing to read.
		return { data: '', nextOffset: offset, size: 0 };
	}
}

/**
 * The whole lines of a slice read from `offset`: a partial last line waits for the rest, unless the Run ended and it
 * is the end of the stream, or one line fills the whole slice (it is taken as it is rather than never).
 */
function wholeLines(s: RunLogSlice, offset: number, ended: boolean, maxBytes: number): { text: string; next: number } {
	const atEnd = s.nextOffset >= s.size;
	const lastNewline = s.data.lastIndexOf('\n');
	if ((ended && atEnd) || lastNewline === s.data.length - 1) { return { text: s.data, next: s.nextOffset }; }
	if (lastNewline >= 0) {
		const text = s.data.slice(0, lastNewline + 1);
		return { text, next: offset + Buffer.byteLength(text, 'utf8') };
	}
	return Buffer.byteLength(s.data, 'utf8') < maxBytes ? { text: '', next: offset } : { text: s.data, next: s.nextOffset };
}

/** Both streams from their cursors: stdout up to `maxBytes`, stderr as far as that stdout allows (also `maxBytes`). */
export function readRunTranscript(runs: Runs, runId: string, cursor: { offset: number; stderrOffset: number; maxBytes: number }, ended: boolean): TranscriptRead {
	const out = slice(runs, runId, 'stdout', cursor.offset, cursor.maxBytes);
	const stdout = wholeLines(out, cursor.offset, ended, cursor.maxBytes);
	const stdoutDone = ended && stdout.next >= out.size;
	const marks = runOutputMarks(runs, runId);
	const errSize = slice(runs, runId, 'stderr', 0, 0).size;
	const limit = stdoutDone ? errSize : Math.min(errSize, stderrLimit(marks, stdout.next));
	let stderr = { text: '', next: cursor.stderrOffset };
	if (limit > cursor.stderrOffset) {
		const want = Math.min(cursor.maxBytes, limit - cursor.stderrOffset);
		const err = slice(runs, runId, 'stderr', cursor.stderrOffset, want);
		// Up to the limit, a sample may have caught a line half written: whole lines, unless the Run is over.
		stderr = wholeLines({ ...err, size: stdoutDone ? err.size : Math.min(err.size, limit) }, cursor.stderrOffset, stdoutDone, want);
	}
	const entries: TranscriptEntry[] = [];
	for (const l of interleaveOutput({ text: stdout.text, start: cursor.offset }, { text: stderr.text, start: cursor.stderrOffset }, marks)) {
		if (l.stream === 'stdout') {
			entries.push(...transcriptEntriesOfLine(l.line));
		} else {
			const e = stderrEntry(l.line);
			if (e !== undefined) { entries.push(e); }
		}
	}
	return { entries, nextOffset: stdout.next, stderrNextOffset: stderr.next, done: stdoutDone && stderr.next >= errSize };
}
