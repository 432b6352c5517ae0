// `.tutti/runs/<runId>/queue.jsonl`: one JSON entry per line, appended and fsynced before the send is answered.
// A torn last line (a crash mid-append) is ignored when reading; earlier lines are never rewritten.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendJsonLine } from '../appendJsonLine.js';
import type { QueueEntry } from './queueState.js';

export const queueFileName = 'queue.jsonl';

export function queueFilePath(runDir: string): string {
	return join(runDir, queueFileName);
}

function isEntry(v: unknown): v is QueueEntry {
	if (typeof v !== 'object' || v === null) { return false; }
	const e = v as Record<string, unknown>;
	if (typeof e.atUnixMs !== 'number') { return false; }
	switch (e.type) {
		case 'message': return typeof e.messageId === 'string' && typeof e.text === 'string';
		case 'resume': return typeof e.eventId === 'string' && Array.isArray(e.resumesStopEventIds) && e.resumesStopEventIds.every((x) => typeof x === 'string');
		case 'delivered': return typeof e.messageId === 'string' && (e.turnProcessId === undefined || typeof e.turnProcessId === 'string');
		default: return false;
	}
}

/** Every well-formed entry in file order (missing file: none). */
export function readQueue(runDir: string): QueueEntry[] {
	let text: string;
	try {
		text = readFileSync(queueFilePath(runDir), 'utf8');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') { return []; }
		throw e;
	}
	const entries: QueueEntry[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') { continue; }
		try {
			const value: unknown = JSON.parse(line);
			if (isEntry(value)) { entries.push(value); }
		} catch {
			// A torn line from an interrupted append: skipped.
		}
	}
	return entries;
}

/** Appends one entry durably (write + fsync). A torn previous line is terminated first so it cannot swallow this one. */
export function appendQueueEntry(runDir: string, entry: QueueEntry): void {
	mkdirSync(runDir, { recursive: true, mode: 0o700 });
	appendJsonLine(queueFilePath(runDir), entry);
}
