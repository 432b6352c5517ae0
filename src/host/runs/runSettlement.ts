// Run settlement: one transaction that records how a Run ended and what that means for its task, Turn, launch
// intent and issue — and, for managed issues, hands the facts to the plan service in the same transaction.
// A Run settles only from the exact Turn bound to `issue-run:<runId>`; anything ambiguous is ignored (fail closed).
import type { TurnFacts } from '../../agents/adapter.js';
import { runSubmitId } from '../../core/ids.js';
import type { Issue, Run, RunOutcome, Task } from '../../core/model.js';
import { runTurnOutcome } from '../../core/turns/turnOutcome.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import type { RunExit } from '../../core/runs/runProcessPort.js';
import type { Disposable } from '../../core/lifecycle.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import type { CheckSpec } from '../../core/checks/checks.js';
import type { Reader } from '../../store/tx.js';
import { verificationRepository } from '../../store/repositories/verificationRepository.js';
import { bindAcceptance } from '../delivery/acceptanceBinding.js';
import { restoredAcceptanceInTx } from './taskReworks.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { startVerificationInTx } from '../checks/verificationStart.js';

/** How a Run ended: its process exited (exit record), or it never got a process. */
export type RunEnding =
	/** `facts`: the Turn's facts from a claude/codex stream (null: a command target, or nothing readable). */
	| {
		kind: 'exit'; exit: RunExit; facts?: TurnFacts | null;
		/** A worktree Run that ended with its parents' merge unresolved in these paths: it failed. */
		unresolvedMergePaths?: readonly string[];
		/** The worktree Run's result could not be committed (RunResultRecorder): a success is not one. */
		resultRecordError?: string;
	}
	/**
	 * No agent process: refused before launch (failure, cancellation), or nothing was left for an agent to do
	 * (success: an update from base that merged cleanly; `message` is then its summary, and its result is recorded).
	 */
	| { kind: 'not_launched'; outcome: RunOutcome; message: string };

export interface SettledRun {
	issue: Issue;
	task: Task;
	run: Run;
}

/** Called inside the settlement transaction, for `tutti` issues only (the plan records the settlement checkpoint). */
export interface SettlementObserver {
	onRunSettled(tx: Tx, settled: SettledRun): void;
}

/** The observer, given after the Run owner is built (the plan admits through it); a managed Run never settles unobserved. */
export class SettlementHook implements SettlementObserver {
	#observer: SettlementObserver | undefined;

	observe(observer: SettlementObserver): Disposable {
		this.#observer = observer;
		return { dispose: () => { if (this.#observer === observer) { this.#observer = undefined; } } };
	}

	onRunSettled(tx: Tx, settled: SettledRun): void {
		// Loud, and rolled back with the settlement (which is tried again).
		if (!this.#observer) { throw new Error(`run ${settled.run.runId} of a managed issue settled before its plan observed settlements`); }
		this.#observer.onRunSettled(tx, settled);
	}
}

export interface SettlementContext {
	now(): number;
	observer: SettlementObserver;
	log(line: string): void;
	/** The checks a task's reported success is verified with (none: it settles at once, as reported). */
	checksOf(r: Reader, run: Run, task: Task): CheckSpec[];
}

const runStatusFor: Record<RunOutcome, Run['status']> = { success: 'completed', failure: 'failed', cancellation: 'canceled' };

/**
 * `changedOutside`: the Run changed something outside its worktree (outsideWatch.ts): never accepted automatically.
 * `verified`: what the task's checks said of the Run's result ('none': it has none); only passed or none auto-accepts.
 */
function taskAfter(task: Task, outcome: RunOutcome, now: number, changedOutside: boolean, verified: 'passed' | 'failed' | 'none'): Task {
	switch (outcome) {
		case 'success':
			return task.autoAccept && !changedOutside && verified !== 'failed'
				? { ...task, status: 'completed', acceptanceState: 'auto_checked', updatedAtUnixMs: now }
				: { ...task, status: 'pending_acceptance', acceptanceState: 'agent_claimed', updatedAtUnixMs: now };
		case 'failure':
			return { ...task, status: 'failed', updatedAtUnixMs: now };
		case 'cancellation':
			return { ...task, status: 'canceled', updatedAtUnixMs: now };
	}
}

/** How much of the final result text a Run keeps as its summary. */
export const maxSummaryChars = 4000;

/** The Run's summary from its Turn facts: the final result text, else the tail of the assistant text (bounded). */
export function summaryFromFacts(facts: TurnFacts): string {
	const text = (facts.result?.text ?? '').trim() || facts.assistantText.trim();
	return text.length > maxSummaryChars ? `${text.slice(0, maxSummaryChars - 1)}…` : text;
}

/**
 * Settles `runId` inside `tx`. Returns null (and changes nothing) when the Run is not running any more, when an
 * exit record is not bound to this Run's exact Turn, or when the Turn binding is ambiguous.
 */
export function settleRunInTx(ctx: SettlementContext, tx: Tx, runId: string, ending: RunEnding): SettledRun | null {
	const submitId = runSubmitId(runId);
	if (ending.kind === 'exit' && (ending.exit.runId !== runId || ending.exit.clientSubmitId !== submitId)) {
		ctx.log(`ignored an exit record for run ${runId} bound to '${ending.exit.clientSubmitId}' (run ${ending.exit.runId}); only '${submitId}' settles it`);
		return null;
	}
	const run = runRepository.get(tx, runId);
	if (!run || run.status !== 'running') { return null; }
	const turn = turnRepository.bySubmitId(tx, submitId);
	if (!turn || turn.sessionId !== run.agentSessionId || turn.state === 'settled') {
		ctx.log(`run ${runId} stays running: its Turn '${submitId}' is ${turn ? `bound to session ${turn.sessionId} (${turn.state})` : 'missing'}, not the Run's session ${run.agentSessionId}`);
		return null;
	}
	const issue = issueRepository.get(tx, run.issueId);
	const task = taskRepository.get(tx, run.issueId, run.taskId);
	if (!issue || !task) {
		ctx.log(`run ${runId} stays running: its issue or task is missing`);
		return null;
	}
	const now = ctx.now();

	let outcome: RunOutcome;
	let errorMessage: string;
	let exitCode: number | null = null;
	let startedAt = run.startedAtUnixMs;
	let completedAt = now;
	if (ending.kind === 'exit') {
		const exit = ending.exit;
		const stopEvents = runRepository.stopEvents(tx, runId);
		const verdict = runTurnOutcome(runId, exit, stopEvents, ending.facts ?? null);
		if (verdict.awaitingStopAnswer) {
			// A person's Stop from before a restart whose answer was never recorded: nothing proves it took.
			for (const e of stopEvents) {
				if (e.reason === 'person' && e.answer === null) { runRepository.answerStopEvent(tx, e.eventId, 'interrupt-unconfirmed', now); }
			}
		}
		outcome = verdict.outcome;
		errorMessage = verdict.errorMessage;
		const unresolved = ending.unresolvedMergePaths ?? [];
		if (outcome === 'success' && unresolved.length > 0) {
			outcome = 'failure';
			const update = reworkRepository.ofRun(tx, runId);
			const merged = update?.kind === 'update_from_base' ? `of ${update.mergeInto} into its tree` : 'of its parents';
			errorMessage = `ended with the merge ${merged} unresolved in ${unresolved.join(', ')}`;
		}
		if (outcome === 'success' && ending.resultRecordError !== undefined) {
			outcome = 'failure';
			errorMessage = `its result could not be committed: ${ending.resultRecordError}`;
		}
		exitCode = exit.exitCode;
		if (exit.startedAtUnixMs > 0 && !exit.spawnError) { startedAt = exit.startedAtUnixMs; }
		if (exit.endedAtUnixMs > 0) { completedAt = Math.max(exit.endedAtUnixMs, startedAt); }
		// The process existed and reported: the launch was delivered (unless it could not start at all).
		launchIntentRepository.transition(tx, runId, ['prepared', 'leased'], exit.spawnError ? 'failed' : 'dispatched', now,
			exit.spawnError ? { lastError: exit.spawnError } : {});
	} else {
		outcome = ending.outcome;
		errorMessage = outcome === 'success' ? '' : ending.message;
		launchIntentRepository.transition(tx, runId, ['prepared', 'leased'], outcome === 'failure' ? 'failed' : 'canceled', now,
			{ lastError: outcome === 'success' ? `no agent was needed: ${ending.message}` : ending.message });
	}

	const facts = ending.kind === 'exit' ? ending.facts ?? null : null;
	if (facts) {
		if (facts.providerSessionId !== '') {
			sessionRepository.updateProviderSessionId(tx, run.agentSessionId, facts.providerSessionId);
		}
	}
	const settledRun: Run = {
		...run,
		...(facts ? { usage: { ...facts.usage }, summary: summaryFromFacts(facts) } : {}),
		...(ending.kind === 'not_launched' && outcome === 'success' ? { summary: ending.message } : {}),
		status: runStatusFor[outcome],
		outcome,
		exitCode,
		errorMessage,
		startedAtUnixMs: startedAt,
		completedAtUnixMs: completedAt,
		updatedAtUnixMs: now,
	};
	runRepository.update(tx, settledRun);
	// A stall mark lives only as long as its Run runs (history keeps it); the outcome never says "stalled".
	runStallRepository.clear(tx, runId, 'settled', now);
	// Requests the agent no longer waits for: expired (a Stop already canceled its own).
	approvalRepository.closeOpenOfRun(tx, runId, 'expired', 'The request expired: its Run ended before an answer.', now);
	turnRepository.settle(tx, submitId, outcome, now);

	// A reported success of a task with checks is not settled for the task yet: its checks run first (verifications.ts),
	// and only their answer moves the task on (and, on a managed issue, gives the source agent its checkpoint).
	if (task.latestRunId === runId && task.status === 'running' && outcome === 'success') {
		const checks = ctx.checksOf(tx, settledRun, task);
		if (checks.length > 0) {
			startVerificationInTx(tx, settledRun, checks, now);
			return { issue, task, run: settledRun };
		}
	}
	return settleTaskInTx(ctx, tx, { issue, task, run: settledRun }, 'none', now);
}

/**
 * The task's side of a settled Run, in the settlement's transaction or in the one that records its checks' answer:
 * the task's status and acceptance (auto-accept binds to the Run's result commit, and records what the checks said),
 * the issue's status, and — managed issues — the plan's settlement checkpoint. A task that moved on meanwhile (not
 * this Run's, not running) keeps its state; the plan still hears of the Run.
 */
export function settleTaskInTx(ctx: Pick<SettlementContext, 'observer'>, tx: Tx, settled: SettledRun, verified: 'passed' | 'failed' | 'none', now: number): SettledRun {
	const { issue, task, run } = settled;
	const runId = run.runId;
	let settledTask = task;
	if (task.latestRunId === runId && task.status === 'running' && run.outcome !== null) {
		// Recorded with the Run's result, before this transaction (RunResultRecorder).
		const changedOutside = (deliveryRepository.runCommits(tx, runId)?.outsideChanges.length ?? 0) > 0;
		// An update from base that brought no result leaves the task accepted as it was (it is not a failure of the task).
		const restored = run.outcome !== 'success' ? restoredAcceptanceInTx(tx, task, runId, now) : undefined;
		settledTask = restored ?? taskAfter(task, run.outcome, now, changedOutside, verified);
		taskRepository.update(tx, settledTask);
		// Auto-accept binds the acceptance to the Run's result commit, as the developer's Accept does.
		if (restored === undefined && settledTask.acceptanceState === 'auto_checked') {
			bindAcceptance(tx, issue.issueId, task.taskId, runId, now);
			verificationRepository.recordAcceptance(tx, issue.issueId, task.taskId, runId, verified, now);
		}
	}
	let settledIssue = issueRepository.get(tx, issue.issueId) ?? issue;
	const status = nextIssueStatus(settledIssue, issueRepository.counts(tx, issue.issueId), false);
	if (status !== settledIssue.status) {
		settledIssue = { ...settledIssue, status, updatedAtUnixMs: now };
		issueRepository.update(tx, settledIssue);
	}
	const result: SettledRun = { issue: settledIssue, task: settledTask, run };
	if (issue.planningSource === 'tutti') { ctx.observer.onRunSettled(tx, result); }
	return result;
}
