// What a running agent is doing now: the newest readable line of its transcript (src/agents/transcript.ts), read
// from the end of its stdout. Shown on running nodes of the graph and wherever a Run is listed.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { type TranscriptEntry, transcriptEntries } from '../../agents/transcript.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { readRunLog } from '../runs/messages/turnLog.js';
import type { SetupProgress } from '../worktrees/worktreeManager.js';

/** How far back from the end of stdout the newest whole line is looked for. */
const tailBytes = 16 * 1024;

/** The newest transcript entry of the Run's stdout, or null when it wrote nothing readable (or nothing yet). */
export function latestActivity(runs: Pick<RunProcessPort, 'readLog' | 'runDir'>, runId: string): TranscriptEntry | null {
	try {
		const size = readRunLog(runs, runId, 'stdout', 0, 0).size;
		const offset = Math.max(0, size - tailBytes);
		const { data } = readRunLog(runs, runId, 'stdout', offset, tailBytes);
		// Whole lines only: the first may be cut by the offset, the last may be mid-write.
		const start = offset > 0 ? data.indexOf('\n') + 1 : 0;
		const end = data.lastIndexOf('\n');
		return end < start ? null : transcriptEntries(data.slice(start, end)).at(-1) ?? null;
	} catch {
		return null;
	}
}

/** The entry in one short line for a status: "Editing src/a.ts", "$ npm test", the assistant's first words. */
export function activityLine(entry: TranscriptEntry | null): string {
	if (entry === null) { return ''; }
	const text = entry.text.replace(/\s+/g, ' ').trim();
	const line = entry.kind === 'edit' ? `Editing ${text}` : text;
	return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A launch whose tree is being made or set up, in one line for the board ("Setting up its worktree (12 s)"); null otherwise. */
export function setupActivityLine(progress: SetupProgress | undefined, nowUnixMs: number): string | null {
	if (progress === undefined) { return null; }
	const seconds = Math.max(0, Math.round((nowUnixMs - progress.startedAtUnixMs) / 1000));
	return progress.state === 'setting_up' ? `Setting up its worktree (${seconds} s)` : `Waiting to set up its worktree (${seconds} s)`;
}

/** The last lines of a setup's log while it runs ('' when there is none yet). */
export function setupLogTail(logFile: string | null): string {
	if (logFile === null) { return ''; }
	try {
		const size = statSync(logFile).size;
		const length = Math.min(size, 4096);
		const buffer = Buffer.alloc(length);
		const fd = openSync(logFile, 'r');
		try { readSync(fd, buffer, 0, length, size - length); } finally { closeSync(fd); }
		return buffer.toString('utf8').split('\n').slice(-20).join('\n');
	} catch {
		return '';
	}
}
