// Run settlement of a managed issue, inside the settlement transaction (for a reported success with checks: inside
// the transaction that records their answer): the Run's
// checkpoint (active with its wake when none is active, else queued as pending), awaiting_main, a reset watchdog,
// then the all_tasks_terminal singleton rule with its rearm. Settling never dispatches a successor. Suppressed for
// orphaned_source / completed / archiving / archived executions. Idempotent per Run.
import { settlementKindFor, settlementSuppressed } from '../../../core/execution/backlog.js';
import { runCheckpointId } from '../../../core/ids.js';
import type { Execution, Issue, Run } from '../../../core/model.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { launchIntentRepository } from '../../../store/repositories/launchIntentRepository.js';
import { verificationRepository } from '../../../store/repositories/verificationRepository.js';
import type { Tx } from '../../../store/tx.js';
import { appendCheckpoint, ensureTerminalCheckpoint, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';
import { withdrawStallCheckpoints } from '../../checkpoints/stallCheckpoint.js';

/**
 * Records the settlement checkpoint of `run` (if it has none yet). A reported success whose checks still run has none
 * yet (the source agent never plans on unverified work); one whose checks failed is `checks_failed`. Returns the
 * execution as persisted.
 */
export function recordRunSettlement(tx: Tx, execution: Execution, issue: Issue, run: Run, nowUnixMs: number): Execution {
	const checkpointId = runCheckpointId(execution.executionId, run.runId);
	if (checkpointRepository.get(tx, checkpointId)) { return execution; }
	const verified = run.outcome === 'success' ? verificationRepository.latestOfRun(tx, run.runId)?.status : undefined;
	if (verified === 'running') { return execution; }
	const kind = verified === 'failed' ? 'checks_failed' : settlementKindFor(run.outcome ?? run.status);
	if (kind === null) { return execution; }
	const appended = appendCheckpoint(tx, execution, issue, {
		checkpointId, kind, subjectTaskId: run.taskId, subjectRunId: run.runId, creationReason: 'run_settled', requiresGoalReview: false,
	}, nowUnixMs);
	const next = withWatchdogReset(appended.execution, nowUnixMs);
	executionRepository.update(tx, next);
	return next;
}

/** The terminal singleton rule after a settlement (create or rearm); persists the execution when it changed. */
export function settleTerminalBoundary(tx: Tx, execution: Execution, issue: Issue, nowUnixMs: number): Execution {
	const { execution: next, action } = ensureTerminalCheckpoint(tx, execution, issue, nowUnixMs);
	if (action !== 'none' && next !== execution) { executionRepository.update(tx, next); }
	return next;
}

export function onManagedRunSettled(tx: Tx, settled: { issue: Issue; run: Run }, nowUnixMs: number): void {
	const { run } = settled;
	// The Run ended: a launch intent that never went out can never go out now (idempotent CAS; settlement seals it first).
	launchIntentRepository.transition(tx, run.runId, ['prepared', 'leased'], run.outcome === 'cancellation' ? 'canceled' : 'failed', nowUnixMs,
		{ lastError: 'the run settled before its launch' });
	// Its settlement checkpoint carries the news now: a stall checkpoint the source agent was not handed yet gives way.
	withdrawStallCheckpoints(tx, settled.issue, run.runId, 'its Run settled', nowUnixMs);
	const execution = executionRepository.getByIssue(tx, run.issueId);
	if (!execution || settlementSuppressed(execution.status)) { return; }
	const afterRun = recordRunSettlement(tx, execution, settled.issue, run, nowUnixMs);
	settleTerminalBoundary(tx, afterRun, settled.issue, nowUnixMs);
}
