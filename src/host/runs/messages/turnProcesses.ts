// The processes of a Run's Turns: the first Turn runs as the runner id `<runId>`, each delivered message starts
// the next Turn of the same session as `<runId>.t<n>` (n = 2, 3, …). The `delivered` entries of the queue file
// name them, so the Run's current process is recoverable after a Host restart. Pure.
import { runSubmitId } from '../../../core/ids.js';
import type { RunExit } from '../../../core/runs/runProcessPort.js';
import { runIdOfProcess } from '../../turns/turnIds.js';
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

/** The runner id of the Turn process after `processId` (`<runId>` → `<runId>.t2`, `<runId>.t<n>` → `<runId>.t<n+1>`). */
export function turnProcessAfter(processId: string): string {
	const runId = runIdOfProcess(processId);
	return `${runId}.t${runId === processId ? 2 : Number(processId.slice(runId.length + 2)) + 1}`;
}

/**
 * The exit of one of the Run's Turn processes, as the Run's own exit: the process `<runId>.t<n>` is bound to
 * `issue-run:<runId>.t<n>` by its supervisor, and as the Run's current Turn that binding is the Run's own. Any other
 * binding passes unchanged (and settlement refuses it).
 */
export function asRunExit(runId: string, exit: RunExit): RunExit {
	if (exit.runId === runId || runIdOfProcess(exit.runId) !== runId || exit.clientSubmitId !== runSubmitId(exit.runId)) { return exit; }
	return { ...exit, runId, clientSubmitId: runSubmitId(runId) };
}
