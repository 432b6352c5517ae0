// The checkpoint a developer's decision hands to the source agent (kinds changes_requested, goal_changes_requested
// and task_accepted), carrying the note. It joins the ordered backlog like a settlement: active (with its main
// wake) when no checkpoint is active, else pending. A terminal (Goal Review) boundary still open is superseded
// first — it summarized results the developer just sent back — and is rearmed by the next settlement once every
// task is terminal again.
import { terminalCheckpointId } from '../../../core/ids.js';
import type { Checkpoint, Execution, Issue } from '../../../core/model.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { openWakeStatuses, wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Tx } from '../../../store/tx.js';
import { appendCheckpoint, promoteNext, statusWhileActive, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';

type ChangesFields = Pick<Checkpoint, 'checkpointId' | 'kind' | 'subjectTaskId' | 'subjectRunId' | 'creationReason' | 'note'>;

function supersedeOpenTerminal(tx: Tx, execution: Execution, nowUnixMs: number): boolean {
	const terminal = checkpointRepository.get(tx, terminalCheckpointId(execution.executionId));
	if (!terminal || (terminal.status !== 'pending' && terminal.status !== 'active')) { return false; }
	checkpointRepository.update(tx, { ...terminal, status: 'superseded', updatedAtUnixMs: nowUnixMs });
	for (const wake of wakeRepository.listByCheckpoint(tx, terminal.checkpointId, 'main')) {
		if (openWakeStatuses.includes(wake.status)) {
			wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: 'the developer requested changes', updatedAtUnixMs: nowUnixMs });
		}
	}
	return terminal.status === 'active';
}

/**
 * Appends the changes checkpoint in the caller's transaction and persists the execution. Returns both. `stored`: the
 * execution row as persisted, when the caller already changed `execution` in this transaction without saving it.
 */
export function appendChangesCheckpoint(
	tx: Tx, execution: Execution, issue: Issue, fields: ChangesFields, nowUnixMs: number, stored: Execution = execution,
): { execution: Execution; checkpoint: Checkpoint } {
	let current = execution;
	if (fields.kind !== 'task_accepted' && supersedeOpenTerminal(tx, execution, nowUnixMs)) {
		current = { ...current, activeCheckpointId: '', status: executionRepository.hasRunningRun(tx, issue.issueId) ? 'running' : 'awaiting_main' };
	}
	if (!checkpointRepository.active(tx, execution.executionId)) {
		// Older queued checkpoints keep their order: the oldest pending one becomes active before the new one.
		const promoted = promoteNext(tx, current, issue, nowUnixMs);
		if (promoted) { current = { ...current, activeCheckpointId: promoted.checkpointId, status: statusWhileActive(promoted) }; }
	}
	const appended = appendCheckpoint(tx, current, issue, { ...fields, requiresGoalReview: false }, nowUnixMs);
	const activated = appended.checkpoint.status === 'active';
	const next: Execution = activated || current !== execution ? withWatchdogReset(appended.execution, nowUnixMs) : appended.execution;
	if (next !== stored) { executionRepository.update(tx, next); }
	return { execution: next, checkpoint: appended.checkpoint };
}
