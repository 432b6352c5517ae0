// The Host's side of a Turn process's input files (src/core/runs/liveInput.ts): append an entry durably, read what
// the supervisor recorded. The supervisor is the only writer of input-state.jsonl and the only reader that acts.
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
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
	const file = join(processDir, liveInputFileNames.entries);
	const text = readText(file);
	const prefix = text.length > 0 && !text.endsWith('\n') ? '\n' : '';
	const fd = openSync(file, 'a', 0o600);
	try {
		writeSync(fd, `${prefix}${JSON.stringify(entry)}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}

export function readLiveInputEntries(processDir: string): LiveInputEntry[] {
	return parseLiveInputEntries(readText(join(processDir, liveInputFileNames.entries)));
}

export function readLiveInputState(processDir: string): LiveInputState {
	return liveInputState(parseLiveInputRecords(readText(join(processDir, liveInputFileNames.records))));
}
