// The persistence steps of checkpoint transitions. The rules themselves are core functions
// (backlog.ts); these load rows, call them and write the results inside the caller's transaction.
import {
	nextSequence, promoteOldestPending, shouldCreateTerminalCheckpoint, terminalCheckpointAction,
} from '../../core/execution/backlog.js';
import { mainWakeId, terminalCheckpointId, wakeSubmitId } from '../../core/ids.js';
import type { Checkpoint, Execution, ExecutionStatus, Issue, Wake } from '../../core/model.js';
import { wakePrompt } from '../../core/wakes/wakePrompt.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { openWakeStatuses, wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Tx } from '../../store/tx.js';
import { prepareIndependentReview } from './independentReview.js';
import { promptVerification } from '../checks/verificationViews.js';

/** The inactivity watchdog fires this long after the last relevant activity (a product deadline, not a backoff). */
export const watchdogIntervalMs = 5 * 60_000;

/** Relevant orchestrator activity: the watchdog deadline moves to exactly five minutes after it. */
export function withWatchdogReset(execution: Execution, nowUnixMs: number): Execution {
	return { ...execution, lastOrchestratorActivityAtUnixMs: nowUnixMs, watchdogDueAtUnixMs: nowUnixMs + watchdogIntervalMs, updatedAtUnixMs: nowUnixMs };
}

/** The execution status when `checkpoint` becomes the active one: Goal Review for the terminal singleton. */
export function statusWhileActive(checkpoint: Pick<Checkpoint, 'kind'>): ExecutionStatus {
	switch (checkpoint.kind) {
		case 'all_tasks_terminal': return 'pending_goal_review';
		case 'initial_schedule': return 'awaiting_schedule';
		default: return 'awaiting_main';
	}
}

/**
 * Prepares the next deterministic main wake of an active checkpoint (`<checkpointId>:wake:main:<n>`), in the same
 * transaction that activated it. Nothing is created while a wake of this checkpoint is still open (replay and
 * repair never duplicate it). The row is prepared even while the issue is paused: delivery is what pause gates.
 * Every activation passes here, so an all_tasks_terminal checkpoint of an independent execution also gets its
 * reviewer's Goal Review (once per activation); the main wake is then held until the reviewer is done.
 */
export function prepareMainWake(tx: Tx, execution: Execution, issue: Issue, checkpoint: Checkpoint, nowUnixMs: number): Wake | null {
	prepareIndependentReview(tx, execution, issue, checkpoint, nowUnixMs);
	const latest = wakeRepository.latest(tx, checkpoint.checkpointId, 'main');
	if (latest && openWakeStatuses.includes(latest.status)) { return null; }
	return insertMainWake(tx, execution, issue, checkpoint, (latest?.wakeSequence ?? 0) + 1, nowUnixMs);
}

/** The wake prompt of a checkpoint at its revision; a settlement's prompt says whether its result waits for the developer. */
function promptOf(tx: Tx, issue: Issue, checkpoint: Checkpoint): string {
	const subject = checkpoint.kind === 'task_settled' && checkpoint.subjectTaskId !== '' ? taskRepository.get(tx, issue.issueId, checkpoint.subjectTaskId) : undefined;
	const failedRun = checkpoint.kind === 'task_failed' && checkpoint.subjectRunId !== '' ? runRepository.get(tx, checkpoint.subjectRunId) : undefined;
	const verified = (checkpoint.kind === 'task_settled' || checkpoint.kind === 'checks_failed') && checkpoint.subjectRunId !== ''
		? promptVerification(tx, checkpoint.subjectRunId) : undefined;
	const stall = checkpoint.kind === 'run_stalled' && checkpoint.subjectRunId !== '' ? runStallRepository.listOfRun(tx, checkpoint.subjectRunId).at(-1) : undefined;
	return wakePrompt({
		issueId: issue.issueId, issueTitle: issue.title, checkpoint, graphRevision: checkpoint.graphRevision,
		subjectAwaitsReview: subject?.status === 'pending_acceptance',
		...(failedRun && failedRun.errorMessage !== '' ? { subjectError: failedRun.errorMessage } : {}),
		...(verified !== undefined ? { subjectVerification: verified } : {}),
		...(stall ? { subjectStall: { lastActivityAtUnixMs: stall.lastActivityAtUnixMs, markedAtUnixMs: stall.markedAtUnixMs } } : {}),
	});
}

/** Inserts main wake `wakeSequence` of the checkpoint: deterministic id and submit id, the prompt of its revision. */
export function insertMainWake(tx: Tx, execution: Execution, issue: Issue, checkpoint: Checkpoint, wakeSequence: number, nowUnixMs: number): Wake {
	const wakeId = mainWakeId(checkpoint.checkpointId, wakeSequence);
	const wake: Wake = {
		wakeId,
		executionId: execution.executionId,
		checkpointId: checkpoint.checkpointId,
		targetKind: 'main',
		wakeSequence,
		clientSubmitId: wakeSubmitId(wakeId),
		targetSessionId: execution.sourceSessionId,
		status: 'prepared',
		prompt: promptOf(tx, issue, checkpoint),
		dueAtUnixMs: nowUnixMs,
		attemptCount: 0,
		leaseOwner: '',
		leaseExpiresAtUnixMs: 0,
		dispatchedAtUnixMs: 0,
		turnSettledAtUnixMs: 0,
		acknowledgedAtUnixMs: 0,
		lastError: '',
		createdAtUnixMs: nowUnixMs,
		updatedAtUnixMs: nowUnixMs,
	};
	wakeRepository.insert(tx, wake);
	return wake;
}

/**
 * After a graph mutation rebinds the active checkpoint: a wake that has not been claimed yet gets the prompt of
 * the new revision, so it never tells the agent to use a revision its own fence would reject.
 */
export function refreshPreparedWakes(tx: Tx, issue: Issue, checkpoint: Checkpoint, nowUnixMs: number): void {
	for (const wake of wakeRepository.listByCheckpoint(tx, checkpoint.checkpointId, 'main')) {
		if (wake.status !== 'prepared') { continue; }
		const prompt = promptOf(tx, issue, checkpoint);
		if (prompt !== wake.prompt) { wakeRepository.update(tx, { ...wake, prompt, updatedAtUnixMs: nowUnixMs }); }
	}
}

/** A valid command resolves its checkpoint and acknowledges every still-open wake of it. */
export function resolveCheckpoint(tx: Tx, checkpoint: Checkpoint, nowUnixMs: number): void {
	checkpointRepository.update(tx, { ...checkpoint, status: 'resolved', resolvedAtUnixMs: nowUnixMs, updatedAtUnixMs: nowUnixMs });
	wakeRepository.acknowledgeOpenOfCheckpoint(tx, checkpoint.checkpointId, nowUnixMs);
}

/**
 * Promotion after the active checkpoint was resolved (schedule and acknowledge): the oldest pending checkpoint
 * becomes active REBOUND to the execution's current revision (core `promoteOldestPending`) and gets its wake.
 * Returns the promoted checkpoint, or null when the backlog is empty. The caller sets the execution's status.
 */
export function promoteNext(tx: Tx, execution: Execution, issue: Issue, nowUnixMs: number): Checkpoint | null {
	const promoted = promoteOldestPending(checkpointRepository.listOpen(tx, execution.executionId), execution.graphRevision, nowUnixMs);
	if (!promoted) { return null; }
	checkpointRepository.update(tx, promoted);
	prepareMainWake(tx, execution, issue, promoted, nowUnixMs);
	return promoted;
}

/**
 * Appends a checkpoint to the backlog: active (with its wake) when none is active, else pending. Its sequence is
 * the execution's next one and it is bound to the current revision. Returns the execution with the new active
 * checkpoint and status when it was activated (unchanged otherwise; the caller persists it).
 */
export function appendCheckpoint(
	tx: Tx,
	execution: Execution,
	issue: Issue,
	fields: Pick<Checkpoint, 'checkpointId' | 'kind' | 'subjectTaskId' | 'subjectRunId' | 'creationReason' | 'requiresGoalReview' | 'note'>,
	nowUnixMs: number,
): { execution: Execution; checkpoint: Checkpoint } {
	const all = checkpointRepository.listByExecution(tx, execution.executionId);
	const active = all.some((c) => c.status === 'active');
	const checkpoint: Checkpoint = {
		...fields,
		executionId: execution.executionId,
		status: active ? 'pending' : 'active',
		sequence: nextSequence(all),
		graphRevision: execution.graphRevision,
		createdAtUnixMs: nowUnixMs,
		resolvedAtUnixMs: 0,
		updatedAtUnixMs: nowUnixMs,
	};
	checkpointRepository.insert(tx, checkpoint);
	if (active) { return { execution, checkpoint }; }
	prepareMainWake(tx, execution, issue, checkpoint, nowUnixMs);
	return {
		execution: { ...execution, activeCheckpointId: checkpoint.checkpointId, status: statusWhileActive(checkpoint), updatedAtUnixMs: nowUnixMs },
		checkpoint,
	};
}

/**
 * The `all_tasks_terminal` singleton: once no active
 * task is not_started/running and every settled Run has its settlement checkpoint, create it — or REARM a
 * superseded (or resolved) one with the next sequence and the current revision, never treating the old row as
 * current. Queued behind the settlement checkpoints as pending (active only when nothing else is).
 * Returns the execution (changed only when the singleton was activated) and what was done.
 */
export function ensureTerminalCheckpoint(tx: Tx, execution: Execution, issue: Issue, nowUnixMs: number): { execution: Execution; action: 'create' | 'rearm' | 'none' } {
	const checkpoints = checkpointRepository.listByExecution(tx, execution.executionId);
	const holds = shouldCreateTerminalCheckpoint({
		tasks: taskRepository.listByIssue(tx, issue.issueId),
		runs: runRepository.listByIssue(tx, issue.issueId),
		checkpoints,
	});
	if (!holds) { return { execution, action: 'none' }; }
	const id = terminalCheckpointId(execution.executionId);
	const existing = checkpoints.find((c) => c.checkpointId === id) ?? null;
	const action = terminalCheckpointAction(existing, execution.status);
	if (action === 'create') {
		const appended = appendCheckpoint(tx, execution, issue, {
			checkpointId: id, kind: 'all_tasks_terminal', subjectTaskId: '', subjectRunId: '', creationReason: 'all_tasks_terminal', requiresGoalReview: true,
		}, nowUnixMs);
		return { execution: appended.execution, action };
	}
	if (action === 'rearm' && existing) {
		const active = checkpoints.some((c) => c.status === 'active');
		const rearmed: Checkpoint = {
			...existing,
			status: active ? 'pending' : 'active',
			sequence: nextSequence(checkpoints),
			graphRevision: execution.graphRevision,
			creationReason: 'all_tasks_terminal_rearmed',
			requiresGoalReview: true,
			resolvedAtUnixMs: 0,
			updatedAtUnixMs: nowUnixMs,
		};
		checkpointRepository.update(tx, rearmed);
		if (active) { return { execution, action }; }
		prepareMainWake(tx, execution, issue, rearmed, nowUnixMs);
		return { execution: { ...execution, activeCheckpointId: rearmed.checkpointId, status: statusWhileActive(rearmed), updatedAtUnixMs: nowUnixMs }, action };
	}
	return { execution, action: 'none' };
}
