// `run log` across Turns: the captured output of every Turn process of a Run, read as one stream (the first
// Turn's bytes, then the second's, …). Offsets are positions in that concatenation.
import type { RunProcessPort } from '../../../core/runs/runProcessPort.js';
import { readQueue } from './queueFile.js';
import { turnProcessIds } from './turnProcesses.js';

export interface RunLogSlice {
	data: string;
	nextOffset: number;
	size: number;
}

/** A slice of the concatenated output of the Run's Turn processes (a Turn with no output files counts as empty). */
export function readRunLog(runs: Pick<RunProcessPort, 'readLog' | 'runDir'>, runId: string, stream: 'stdout' | 'stderr', offset: number, maxBytes: number): RunLogSlice {
	const ids = turnProcessIds(runId, readQueue(runs.runDir(runId)));
	if (ids.length === 1) { return runs.readLog(runId, stream, offset, maxBytes); }
	let base = 0;
	let data = '';
	let nextOffset = offset;
	for (const id of ids) {
		let size = 0;
		try { size = runs.readLog(id, stream, 0, 0).size; } catch { size = 0; }
		if (data === '' && nextOffset < base + size && maxBytes > 0) {
			const slice = runs.readLog(id, stream, nextOffset - base, maxBytes);
			data = slice.data;
			nextOffset = base + slice.nextOffset;
		}
		base += size;
	}
	return { data, nextOffset, size: base };
}
