// The inactivity watchdog: `watchdogDueAt = lastOrchestratorActivityAt + 5 min` exactly
// (reset by valid plan commands and Run settlements; a wake Turn of the source session never resets it). When due
// and the execution is runnable and not paused: the active checkpoint gets its next deterministic wake sequence
// (after rebinding a revision that trails the execution's), or a `watchdog` checkpoint is created when none is
// active. The next deadline is the fixed product cadence after the previous one (never an infrastructure backoff).
// While the developer's review is the only step owed (src/core/execution/reviewOwed.ts) it spends no Turn.
import { nextSequence } from '../../core/execution/backlog.js';
import { watchdogCheckpointId } from '../../core/ids.js';
import type { Checkpoint, Execution, Issue, Wake } from '../../core/model.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Tx } from '../../store/tx.js';
import { appendCheckpoint, insertMainWake, refreshPreparedWakes, watchdogIntervalMs } from './checkpointSteps.js';
import { reviewOnlyTaskIds } from './reviewOnly.js';

import { runnableExecutionStatuses } from '../../store/repositories/wakeDeliveryRepository.js';

export type WatchdogAction = 'none' | 'next_wake' | 'watchdog_checkpoint' | 'delivery_pending' | 'awaiting_developer';

/** A wake whose delivery is still owed (a new sequence would overlap it). */
const undelivered: readonly Wake['status'][] = ['prepared', 'leased', 'dispatched'];

function runnable(execution: Execution): boolean {
	return runnableExecutionStatuses.includes(`'${execution.status}'`);
}

/** The first fixed deadline after `now`: the previous deadline plus whole watchdog intervals. */
export function nextWatchdogDeadline(dueAtUnixMs: number, nowUnixMs: number): number {
	const periods = Math.floor((nowUnixMs - dueAtUnixMs) / watchdogIntervalMs) + 1;
	return dueAtUnixMs + Math.max(1, periods) * watchdogIntervalMs;
}

/**
 * The next main wake of an active checkpoint after its previous wake Turn settled (or failed / was canceled): the
 * sequence after the newest, a fresh submit id, the prompt of the checkpoint's current revision.
 */
export function prepareNextSequenceWake(tx: Tx, execution: Execution, issue: Issue, checkpoint: Checkpoint, nowUnixMs: number): Wake {
	return insertMainWake(tx, execution, issue, checkpoint, wakeRepository.maxSequence(tx, checkpoint.checkpointId, 'main') + 1, nowUnixMs);
}

/** Inside a transaction: fires the watchdog of one execution if it is due, runnable and not paused. */
export function fireWatchdog(tx: Tx, executionId: string, nowUnixMs: number): WatchdogAction {
	const execution = executionRepository.get(tx, executionId);
	if (!execution || !runnable(execution) || execution.watchdogDueAtUnixMs <= 0 || execution.watchdogDueAtUnixMs > nowUnixMs) { return 'none'; }
	const issue = issueRepository.get(tx, execution.issueId);
	if (!issue || issue.dispatchPaused) { return 'none'; }
	const due = nextWatchdogDeadline(execution.watchdogDueAtUnixMs, nowUnixMs);
	if (reviewOnlyTaskIds(tx, execution).length > 0) {
		// Only the developer can move (a review): no Turn is spent; their decision wakes the source agent. The deadline
		// keeps its cadence so the watchdog looks again should anything else change.
		executionRepository.update(tx, { ...execution, watchdogDueAtUnixMs: due });
		return 'awaiting_developer';
	}
	const active = checkpointRepository.active(tx, executionId);
	if (!active) {
		const sequence = nextSequence(checkpointRepository.listByExecution(tx, executionId));
		const appended = appendCheckpoint(tx, execution, issue, {
			checkpointId: watchdogCheckpointId(executionId, sequence), kind: 'watchdog', subjectTaskId: '', subjectRunId: '',
			creationReason: 'watchdog', requiresGoalReview: false,
		}, nowUnixMs);
		executionRepository.update(tx, { ...appended.execution, watchdogDueAtUnixMs: due, updatedAtUnixMs: nowUnixMs });
		return 'watchdog_checkpoint';
	}
	let checkpoint = active;
	if (active.graphRevision !== execution.graphRevision) {
		// Repair: an active checkpoint whose revision trails the execution's can pass no fence; rebind it.
		checkpoint = { ...active, graphRevision: execution.graphRevision, updatedAtUnixMs: nowUnixMs };
		checkpointRepository.update(tx, checkpoint);
		refreshPreparedWakes(tx, issue, checkpoint, nowUnixMs);
	}
	const latest = wakeRepository.latest(tx, checkpoint.checkpointId, 'main');
	const pending = latest !== undefined && undelivered.includes(latest.status);
	if (!pending) { prepareNextSequenceWake(tx, execution, issue, checkpoint, nowUnixMs); }
	executionRepository.update(tx, { ...execution, activeCheckpointId: checkpoint.checkpointId, watchdogDueAtUnixMs: due, updatedAtUnixMs: nowUnixMs });
	return pending ? 'delivery_pending' : 'next_wake';
}
