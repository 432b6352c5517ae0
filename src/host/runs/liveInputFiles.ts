// The Host's side of a Turn process's input files (src/core/runs/liveInput.ts): append an entry durably, read what
// the supervisor recorded. The supervisor is the only writer of input-state.jsonl and the only reader that acts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendJsonLine } from './appendJsonLine.js';
import {
	type LiveInputEntry, type LiveInputState, liveInputFileNames, liveInputState, parseLiveInputEntries, parseLiveInputRecords,
} from '../../core/runs/liveInput.js';

function readText(path: string): string {
	try {
		return readFileSync(path, 'utf8');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') { return ''; }
		throw e;
	}
}

/** Appends one entry (write + fsync); a torn previous line is terminated first so it cannot swallow this one. */
export function appendLiveInputEntry(processDir: string, entry: LiveInputEntry): void {
	appendJsonLine(join(processDir, liveInputFileNames.entries), entry);
}

export function readLiveInputEntries(processDir: string): LiveInputEntry[] {
	return parseLiveInputEntries(readText(join(processDir, liveInputFileNames.entries)));
}

export function readLiveInputState(processDir: string): LiveInputState {
	return liveInputState(parseLiveInputRecords(readText(join(processDir, liveInputFileNames.records))));
}
