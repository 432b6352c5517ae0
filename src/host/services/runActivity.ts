// What a running agent is doing now: the newest readable line of its transcript (src/agents/transcript.ts), read
// from the end of its stdout. Shown on running nodes of the graph and wherever a Run is listed.
import { type TranscriptEntry, transcriptEntries } from '../../agents/transcript.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { readRunLog } from '../runs/messages/turnLog.js';

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
