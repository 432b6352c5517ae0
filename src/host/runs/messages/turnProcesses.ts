// The processes of a Run's Turns: the first Turn runs as the runner id `<runId>`, each delivered message starts
// the next Turn of the same session as `<runId>.t<n>` (n = 2, 3, …). The `delivered` entries of the queue file
// name them, so the Run's current process is recoverable after a Host restart. Pure.
import type { QueueEntry } from './queueState.js';

/** Every Turn process of the Run, in order (the first is the Run id itself). */
export function turnProcessIds(runId: string, entries: readonly QueueEntry[]): string[] {
	const ids = [runId];
	for (const e of entries) {
		if (e.type === 'delivered' && e.turnProcessId !== undefined && !ids.includes(e.turnProcessId)) { ids.push(e.turnProcessId); }
	}
	return ids;
}

/** The runner id of the Run's current (latest) Turn process. */
export function currentTurnProcessId(runId: string, entries: readonly QueueEntry[]): string {
	const ids = turnProcessIds(runId, entries);
	return ids[ids.length - 1] ?? runId;
}

/** The runner id the next Turn process gets. */
export function nextTurnProcessId(runId: string, entries: readonly QueueEntry[]): string {
	return `${runId}.t${turnProcessIds(runId, entries).length + 1}`;
}

/** The Run a Turn process belongs to (`<runId>.t<n>` → `<runId>`; anything else names itself). */
export function runIdOfProcess(processId: string): string {
	const m = /^(.+)\.t([0-9]+)$/.exec(processId);
	return m && Number(m[2]) >= 2 ? m[1]! : processId;
}
