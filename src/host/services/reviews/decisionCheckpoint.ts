// The checkpoint that hands the developer's decision on a task's result to the source agent: `changes_requested`
// (with the note) or `task_accepted` (with the note, if any). When the developer's review was the only step owed
// (src/core/execution/reviewOwed.ts), the checkpoint the agent could do nothing at is superseded first, so the
// decision becomes the active checkpoint at once and its main wake starts the agent's next Turn. Otherwise it
// queues in the backlog like a settlement. An acceptance adds nothing while Goal Review is open or queued: the
// Goal Review checkpoint is the next step then.
import { terminalCheckpointId } from '../../../core/ids.js';
import type { Checkpoint, Execution, ExecutionStatus, Issue } from '../../../core/model.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { openWakeStatuses, wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Tx } from '../../../store/tx.js';
import { appendChangesCheckpoint } from './changesCheckpoint.js';

type DecisionFields = Pick<Checkpoint, 'checkpointId' | 'kind' | 'subjectTaskId' | 'subjectRunId' | 'creationReason' | 'note'>;

/** Statuses in which an acceptance is news for the source agent (scheduled work, between checkpoints). */
const acceptanceStatuses: readonly ExecutionStatus[] = ['running', 'awaiting_main'];

function goalReviewOpen(tx: Tx, execution: Execution): boolean {
	const terminal = checkpointRepository.get(tx, terminalCheckpointId(execution.executionId));
	return terminal !== undefined && (terminal.status === 'pending' || terminal.status === 'active');
}

/** Supersedes the active checkpoint (its question is answered by the developer) and cancels its open wakes. */
function supersedeActive(tx: Tx, execution: Execution, nowUnixMs: number): Execution {
	const active = checkpointRepository.active(tx, execution.executionId);
	if (!active) { return execution; }
	checkpointRepository.update(tx, { ...active, status: 'superseded', updatedAtUnixMs: nowUnixMs });
	for (const wake of wakeRepository.listByCheckpoint(tx, active.checkpointId, 'main')) {
		if (openWakeStatuses.includes(wake.status)) {
			wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: 'the developer decided on the task in review', updatedAtUnixMs: nowUnixMs });
		}
	}
	// Only the developer could move: no Run is running.
	return { ...execution, activeCheckpointId: '', status: 'awaiting_main', updatedAtUnixMs: nowUnixMs };
}

/**
 * Appends the decision's checkpoint in the caller's transaction and persists the execution. `developerOnly`: the
 * developer's review was the only step owed before this decision (read before the task row changed).
 * Returns the checkpoint, or null when an acceptance needs none.
 */
export function appendDecisionCheckpoint(
	tx: Tx, execution: Execution, issue: Issue, fields: DecisionFields, developerOnly: boolean, nowUnixMs: number,
): Checkpoint | null {
	if (fields.kind === 'task_accepted' && !developerOnly && (!acceptanceStatuses.includes(execution.status) || goalReviewOpen(tx, execution))) {
		return null;
	}
	const current = developerOnly ? supersedeActive(tx, execution, nowUnixMs) : execution;
	return appendChangesCheckpoint(tx, current, issue, fields, nowUnixMs, execution).checkpoint;
}
