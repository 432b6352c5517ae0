// The recoverable archive flow of an execution: requested → canceling_runs → archiving → completed. The first transaction pauses dispatch and
// cancels checkpoints, open wakes and open reviewer reviews (stored as canceled, never deleted); Runs and then the
// exact Turns of the canceled wakes (main and reviewer) are stopped only after it commits, holding nothing; the last
// transaction marks the execution and the issue archived.
import type { Execution, Issue } from '../../../core/model.js';
import { archiveStopReason, developerArchiveRequester } from '../../../core/runs/stopRules.js';
import { withPause } from '../../../core/issues/pauser.js';
import { turnsToInterrupt } from '../../../core/wakes/canceledTurns.js';
import { type ArchiveOperation, archiveRepository } from '../../../store/repositories/archiveRepository.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import type { PlanMutationKey } from '../../../store/repositories/planMutationRepository.js';
import { planMutationRepository } from '../../../store/repositories/planMutationRepository.js';
import { reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { reviewerReviewRepository } from '../../../store/repositories/reviewerReviewRepository.js';
import { turnRepository } from '../../../store/repositories/turnRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Tx } from '../../../store/tx.js';
import type { PlanContext } from './planContext.js';

/**
 * Inside the stop transaction: record the operation and do the durable part of the archive. Prepared launch
 * intents are NOT canceled here: the Run service recognizes an unlaunched Run by its `prepared` intent and settles
 * it canceled (sealing the intent `canceled`) from `stopRunsOfIssue` or its launch gate, which now sees the pause.
 * Canceling the intent row directly would leave its Run `running` with nothing left to settle it.
 */
export function requestArchive(
	tx: Tx,
	input: { issue: Issue; execution: Execution; operationId: string; requestId: string; requestedBy: string; reason: string; nowUnixMs: number },
): ArchiveOperation {
	const { issue, execution, nowUnixMs: now } = input;
	const op: ArchiveOperation = {
		operationId: input.operationId,
		executionId: execution.executionId,
		requestId: input.requestId,
		status: 'requested',
		requestedBy: input.requestedBy,
		reason: input.reason,
		attemptCount: 0,
		lastError: '',
		createdAtUnixMs: now,
		updatedAtUnixMs: now,
	};
	archiveRepository.insert(tx, op);
	// The archive's pause is its requester's: the developer's (a source-session Stop) or the source's (`plan issue stop`).
	const paused = withPause(issue, true, input.requestedBy === developerArchiveRequester ? 'developer' : 'source', now);
	if (paused) { issueRepository.update(tx, paused); }
	checkpointRepository.cancelOpen(tx, execution.executionId, now);
	wakeRepository.cancelOpenOfExecution(tx, execution.executionId, now, 'execution archived');
	reviewRepository.cancelAwaitingGoalReview(tx, execution.executionId, now);
	reviewerReviewRepository.cancelOpenOfExecution(tx, execution.executionId, now, 'execution archived');
	executionRepository.update(tx, { ...execution, status: 'archiving', activeCheckpointId: '', archiveReason: input.reason, updatedAtUnixMs: now });
	const canceling: ArchiveOperation = { ...op, status: 'canceling_runs', updatedAtUnixMs: now };
	archiveRepository.update(tx, canceling);
	return canceling;
}

/** The stored `plan/stop` result follows its operation's status (a replay reports how far the archive got). */
function updateStoredStatus(tx: Tx, op: ArchiveOperation, issueId: string, status: string): void {
	const key: PlanMutationKey = { sourceSessionId: op.requestedBy, kind: 'stop', issueId, requestId: op.requestId };
	const stored = planMutationRepository.get(tx, key);
	if (!stored) { return; }
	const result = JSON.parse(stored.resultJson) as Record<string, unknown>;
	planMutationRepository.updateResult(tx, key, JSON.stringify({ ...result, status }));
}

/**
 * The Turns of the execution's canceled wakes that have not settled — a dispatched main wake's, a running reviewer's —
 * are interrupted: a canceled wake does not stop its agent by itself. That includes the Turn of an agent that stopped
 * its own issue (the Turn was for the checkpoint the stop canceled).
 */
async function interruptCanceledTurns(ctx: PlanContext, executionId: string): Promise<void> {
	const processIds = ctx.store.read((r) => {
		const wakes = wakeRepository.listByExecution(r, executionId);
		const turns = wakes.flatMap((w) => turnRepository.bySubmitId(r, w.clientSubmitId) ?? []);
		return turnsToInterrupt(wakes, turns);
	});
	const results = await Promise.all(processIds.map((id) => ctx.processes.interrupt(id)));
	results.forEach((result, i) => {
		if (result === 'still_running') { ctx.log(`archive of ${executionId}: the canceled Turn ${processIds[i]} survived its interrupt`); }
	});
}

/**
 * After commit: stop the issue's running Runs (a person's Stop events when the developer asked for the archive, the
 * Host's otherwise) and the Turns of its canceled wakes, then finish the archive. A failure is
 * recorded (`failed`, attempt count, last error) and retried by restart recovery. Returns the final status.
 */
export async function continueArchive(ctx: PlanContext, operationId: string): Promise<ArchiveOperation['status']> {
	const started = ctx.store.read((r) => {
		const op = archiveRepository.get(r, operationId);
		const execution = op ? executionRepository.get(r, op.executionId) : undefined;
		return op && execution ? { op, issueId: execution.issueId } : null;
	});
	if (!started) { return 'failed'; }
	if (started.op.status === 'completed') { return 'completed'; }
	const { issueId } = started;
	try {
		await ctx.admission.stopRunsOfIssue(issueId, archiveStopReason(started.op.requestedBy));
		await interruptCanceledTurns(ctx, started.op.executionId);
	} catch (e) {
		const message = (e as Error).message;
		ctx.log(`archive ${operationId}: stopping the runs and Turns of issue ${issueId} failed: ${message}`);
		return ctx.store.transaction((tx) => {
			const op = archiveRepository.get(tx, operationId);
			if (!op || op.status === 'completed') { return op?.status ?? 'failed'; }
			archiveRepository.update(tx, { ...op, status: 'failed', attemptCount: op.attemptCount + 1, lastError: message, updatedAtUnixMs: ctx.clock.now() });
			updateStoredStatus(tx, op, issueId, 'failed');
			return 'failed';
		});
	}
	return ctx.store.transaction((tx) => {
		const op = archiveRepository.get(tx, operationId);
		if (!op) { return 'failed'; }
		if (op.status === 'completed') { return op.status; }
		const now = ctx.clock.now();
		archiveRepository.update(tx, { ...op, status: 'archiving', attemptCount: op.attemptCount + 1, lastError: '', updatedAtUnixMs: now });
		const execution = executionRepository.get(tx, op.executionId);
		if (execution) {
			// Anything opened meanwhile (none should be: settlement is suppressed while archiving) is canceled too.
			checkpointRepository.cancelOpen(tx, execution.executionId, now);
			wakeRepository.cancelOpenOfExecution(tx, execution.executionId, now, 'execution archived');
			reviewerReviewRepository.cancelOpenOfExecution(tx, execution.executionId, now, 'execution archived');
			executionRepository.update(tx, { ...execution, status: 'archived', activeCheckpointId: '', archivedAtUnixMs: now, updatedAtUnixMs: now });
			const issue = issueRepository.get(tx, execution.issueId);
			if (issue) { issueRepository.update(tx, { ...issue, status: 'archived', dispatchPaused: true, updatedAtUnixMs: now }); }
		}
		archiveRepository.update(tx, { ...op, status: 'completed', attemptCount: op.attemptCount + 1, lastError: '', updatedAtUnixMs: now });
		updateStoredStatus(tx, op, issueId, 'completed');
		return 'completed';
	});
}
