// Goal Review: the source agent's `plan issue complete --decision goal_satisfied` either completes the
// execution (developer confirmation off) or opens a Goal Review request awaiting the developer (on, the default);
// the developer's confirmation then completes it. Completion is never inferred from task states.
import { rejection } from '../../../core/hints.js';
import { goalReviewId } from '../../../core/ids.js';
import type { Checkpoint, Execution, Issue, Task } from '../../../core/model.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { type GoalReview, reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Reader, Tx } from '../../../store/tx.js';
import type { HostConfig } from '../../config.js';

/** Whether Goal Review waits for the developer on this execution: the per-issue override, else the Host setting (default on). */
export function developerConfirmationFor(r: Reader, config: Pick<HostConfig, 'developerConfirmation'>, executionId: string): boolean {
	return reviewRepository.developerConfirmationOverride(r, executionId) ?? config.developerConfirmation ?? true;
}

/** Active tasks still awaiting the developer's acceptance, in the given order. */
export function tasksAwaitingAcceptance(tasks: readonly Task[]): Task[] {
	return tasks.filter((t) => t.supersededAtUnixMs === 0 && t.status === 'pending_acceptance');
}

/**
 * The goal cannot be declared satisfied while a result still awaits the developer: an agent command never
 * stands in for their acceptance. Throws `acceptance_pending` naming the tasks.
 */
export function assertNothingAwaitsAcceptance(tasks: readonly Task[], issueId: string, command: string): void {
	const waiting = tasksAwaitingAcceptance(tasks);
	if (waiting.length === 0) { return; }
	const ids = waiting.map((t) => t.taskId);
	throw rejection('acceptance_pending',
		`${command}: task${ids.length > 1 ? 's' : ''} ${ids.join(', ')} still await${ids.length > 1 ? '' : 's'} the developer's acceptance; nothing was changed.`,
		{ issueId, taskId: ids[0] }, { taskIds: ids });
}

/** Completes the execution and its issue, canceling whatever is still open (inside the caller's transaction). */
export function completeExecution(tx: Tx, issue: Issue, execution: Execution, nowUnixMs: number): Execution {
	checkpointRepository.cancelOpen(tx, execution.executionId, nowUnixMs);
	wakeRepository.cancelOpenOfExecution(tx, execution.executionId, nowUnixMs, 'execution completed');
	const completed: Execution = { ...execution, status: 'completed', activeCheckpointId: '', completedAtUnixMs: nowUnixMs, updatedAtUnixMs: nowUnixMs };
	executionRepository.update(tx, completed);
	issueRepository.update(tx, { ...issue, status: 'completed', updatedAtUnixMs: nowUnixMs });
	return completed;
}

/**
 * Opens the Goal Review request for the (already resolved) terminal checkpoint: the execution waits in
 * `pending_goal_review` with no active checkpoint and no watchdog deadline, so no fenced source command passes and
 * nothing wakes the source agent until the developer decides.
 */
export function openGoalReview(
	tx: Tx, execution: Execution, checkpoint: Checkpoint, input: { disagreementReason: string; nowUnixMs: number },
): { execution: Execution; goalReview: GoalReview } {
	const now = input.nowUnixMs;
	const goalReview: GoalReview = {
		goalReviewId: goalReviewId(checkpoint.checkpointId, checkpoint.sequence),
		executionId: execution.executionId,
		issueId: execution.issueId,
		checkpointId: checkpoint.checkpointId,
		graphRevision: checkpoint.graphRevision,
		status: 'awaiting_developer',
		decision: 'goal_satisfied',
		disagreementReason: input.disagreementReason,
		note: '',
		replyCheckpointId: '',
		requestedAtUnixMs: now,
		decidedAtUnixMs: 0,
		updatedAtUnixMs: now,
	};
	reviewRepository.insertGoalReview(tx, goalReview);
	// The developer owes the next step, not the source agent: no watchdog wakes it while the request waits.
	const waiting: Execution = { ...execution, status: 'pending_goal_review', activeCheckpointId: '', watchdogDueAtUnixMs: 0, updatedAtUnixMs: now };
	executionRepository.update(tx, waiting);
	return { execution: waiting, goalReview };
}
