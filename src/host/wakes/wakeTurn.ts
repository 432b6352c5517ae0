// The transactional steps of a wake Turn (to a source session, or to an independent reviewer): claim, finalize,
// rotate and settle. Each runs inside the caller's transaction; the decisions are the pure rules of
// src/core/turns/wakeClaim.ts and src/core/turns/turnOutcome.ts, and the process side is the TurnLifecycle's.
//   claim    — lease (owner + expiry) the wake, bind its Turn `tutti-execution-wake:<wakeId>` (unique submit id),
//              rotate the session's token and describe the Turn to start; or recover a Turn already accepted;
//   finalize — the CAS by the still-live lease owner that re-checks the pause gate (and a pending source-session Stop)
//              → dispatched; a wake canceled meanwhile (an archive) has its just-started Turn interrupted;
//   rotate   — the gate lost: cancel the wake, settle its Turn canceled, prepare the next sequence;
//   settle   — the Turn's process ended: settle the Turn; a dispatched wake becomes turn_settled (the checkpoint is
//              NOT resolved); a reviewer Turn that ends without a verdict fails its review.
import { randomUUID } from 'node:crypto';
import type { TurnFacts } from '../../agents/adapter.js';
import { isTerminalExecution } from '../../core/execution/allowedActions.js';
import type { Wake } from '../../core/model.js';
import type { BudgetDecision } from '../../core/usage/budget.js';
import { decideWakeClaim, decideWakeFinalize } from '../../core/turns/wakeClaim.js';
import { wakeTurnOutcome } from '../../core/turns/turnOutcome.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { inboxRepository } from '../../store/repositories/inboxRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { activeReviewerStatuses, reviewerReviewRepository } from '../../store/repositories/reviewerReviewRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import { wakeIdBySubmitId } from '../../store/repositories/wakeDeliveryRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import type { AgentTargetConfig, RunExit } from '../../core/runs/runProcessPort.js';
import { resolveRunDirectory } from '../executionDirectory.js';
import { prepareMainWake } from '../checkpoints/checkpointSteps.js';
import { failReview, reviewerHolds } from '../checkpoints/independentReview.js';
import { planningPrompt } from './skill.js';
import { launchBudgetDecision, launchModelOf } from '../usage/issueSpend.js';
import { turnIdFor, turnProcessId } from '../turns/turnIds.js';
import type { TurnLifecycle, TurnStart } from '../turns/turnLifecycle.js';

export type DeliveryResult = 'delivered' | 'recovered' | 'busy' | 'skipped' | 'failed' | 'rotated' | 'cancel_failed' | 'launch_failed';

export type WakeClaim =
	| { kind: 'skip'; result: DeliveryResult }
	| { kind: 'launch'; start: TurnStart; processId: string; submitId: string }
	| { kind: 'recover'; processId: string; submitId: string };

export type WakeFinal = DeliveryResult | 'cancel' | 'rotate' | 'stale';

export interface WakeTurnContext {
	workspace: string;
	/** This Host's lease owner id and the lease length. */
	owner: string;
	leaseMs: number;
	turns: TurnLifecycle;
	log(line: string): void;
}

const noLease = { leaseOwner: '', leaseExpiresAtUnixMs: 0 } as const;

function budgetBlockerOf(decision: BudgetDecision): string | null {
	return decision.kind === 'ok' ? null : decision.message;
}

export function claimWakeInTx(ctx: WakeTurnContext, tx: Tx, wakeId: string, now: number): WakeClaim {
	const wake = wakeRepository.get(tx, wakeId);
	const execution = wake ? executionRepository.get(tx, wake.executionId) : undefined;
	const issue = execution ? issueRepository.get(tx, execution.issueId) : undefined;
	const review = wake?.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, wake.clientSubmitId) : undefined;
	const session = wake ? sessionRepository.get(tx, wake.targetSessionId) : undefined;
	const target = session ? ctx.turns.target(session.agentTargetId) : undefined;
	const existing = wake ? turnRepository.bySubmitId(tx, wake.clientSubmitId) : undefined;
	const decision = decideWakeClaim({
		nowUnixMs: now,
		wake,
		execution,
		issue,
		stopPending: !!execution && inboxRepository.hasUndrainedStop(tx, execution.sourceSessionId),
		review: review ? { active: activeReviewerStatuses.includes(review.status), reviewSessionId: review.reviewSessionId, checkpointId: review.checkpointId } : undefined,
		reviewerHolds: wake?.targetKind === 'main' && reviewerHolds(tx, wake.checkpointId),
		checkpoint: wake ? checkpointRepository.get(tx, wake.checkpointId) : undefined,
		session: session ? { agentTargetId: session.agentTargetId, targetConfigured: target !== undefined } : undefined,
		busy: !!wake && turnRepository.openOfSession(tx, wake.targetSessionId).some((t) => t.clientSubmitId !== wake.clientSubmitId),
		existingTurn: existing,
		// The one budget rule before a launch: the issue's spend, and whether this Turn's model can be counted (its target's).
		budgetBlocker: budgetBlockerOf(issue && target ? launchBudgetDecision(tx, issue.issueId, launchModelOf(target), ctx.turns.pricing) : { kind: 'ok' }),
	});
	if (!wake || decision.kind === 'skip') { return { kind: 'skip', result: decision.kind === 'skip' ? decision.result : 'skipped' }; }
	switch (decision.kind) {
		case 'fail':
			wakeRepository.update(tx, { ...wake, status: 'failed', lastError: decision.lastError, ...(decision.clearLease ? noLease : {}), updatedAtUnixMs: now });
			if (decision.clearLease) { ctx.log(`wake ${wakeId} failed closed: ${decision.lastError}`); }
			return { kind: 'skip', result: 'failed' };
		case 'cancel':
			wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: decision.lastError, ...noLease, updatedAtUnixMs: now });
			return { kind: 'skip', result: 'skipped' };
		case 'note':
			if (wake.lastError !== decision.lastError) { wakeRepository.update(tx, { ...wake, lastError: decision.lastError, updatedAtUnixMs: now }); }
			return { kind: 'skip', result: 'skipped' };
		case 'settled':
			// The Turn ran and settled, but the wake never recorded it (lost projection).
			wakeRepository.update(tx, { ...wake, status: 'turn_settled', turnSettledAtUnixMs: decision.turnSettledAtUnixMs, ...noLease, updatedAtUnixMs: now });
			return { kind: 'skip', result: 'recovered' };
		case 'lease':
			break;
	}
	if (!session || !target || !issue) { return { kind: 'skip', result: 'skipped' }; }
	const leased: Wake = { ...wake, status: 'leased', leaseOwner: ctx.owner, leaseExpiresAtUnixMs: now + ctx.leaseMs, attemptCount: wake.attemptCount + 1, updatedAtUnixMs: now };
	wakeRepository.update(tx, leased);
	if (review && review.status === 'prepared') { reviewerReviewRepository.update(tx, { ...review, status: 'dispatched', updatedAtUnixMs: now }); }
	if (existing && existing.processId && ctx.turns.accepted(existing.processId)) {
		// Lost response: the Turn with this submit id was accepted; never start it twice.
		return { kind: 'recover', processId: existing.processId, submitId: wake.clientSubmitId };
	}
	const turnId = turnIdFor(wake.clientSubmitId);
	const processId = turnProcessId(turnId, leased.attemptCount);
	const first = turnRepository.countOfSession(tx, session.sessionId) === 0;
	if (existing) {
		turnRepository.setProcessId(tx, wake.clientSubmitId, processId);
	} else {
		turnRepository.insert(tx, {
			turnId, sessionId: session.sessionId, clientSubmitId: wake.clientSubmitId, state: 'prepared', outcome: null,
			createdAtUnixMs: now, settledAtUnixMs: 0, processId,
		});
	}
	const token = ctx.turns.issueToken(tx, session.sessionId);
	const where = resolveRunDirectory(ctx.workspace, target.cwd ?? '');
	const prompt = first && !review ? planningPrompt({ wakePrompt: wake.prompt, issueTitle: issue.title, issueContent: issue.content }) : wake.prompt;
	// The reviewer gets no Stop hook: its one verdict ends its work.
	const hook = review ? undefined : ctx.turns.stopHookArgs(target.adapter);
	const start: TurnStart = {
		processId,
		identity: { sessionId: session.sessionId, issueId: issue.issueId },
		target,
		cwd: 'error' in where ? ctx.workspace : where.cwd,
		stdinText: prompt,
		turn: {
			prompt,
			// Later Turns continue the provider session recorded from the Turn facts; claude's first gets a known id.
			...(session.providerSessionId ? { resumeProviderSessionId: session.providerSessionId }
				: target.adapter === 'claude' ? { newProviderSessionId: randomUUID() } : {}),
			...(hook ? { extraArgs: hook } : {}),
		},
		token,
	};
	return { kind: 'launch', start, processId, submitId: wake.clientSubmitId };
}

/** The final dispatch CAS: only the still-live lease owner, and only while the pause gate is open. */
export function finalizeWakeInTx(ctx: WakeTurnContext, tx: Tx, wakeId: string, submitId: string, processId: string, now: number): WakeFinal {
	const wake = wakeRepository.get(tx, wakeId);
	const turn = turnRepository.bySubmitId(tx, submitId);
	const execution = wake ? executionRepository.get(tx, wake.executionId) : undefined;
	const decision = decideWakeFinalize({
		nowUnixMs: now, owner: ctx.owner, processId, wake, turn,
		execution, issue: execution ? issueRepository.get(tx, execution.issueId) : undefined,
		checkpoint: wake ? checkpointRepository.get(tx, wake.checkpointId) : undefined,
		stopPending: !!execution && inboxRepository.hasUndrainedStop(tx, execution.sourceSessionId),
	});
	if (decision.kind === 'stale') { return 'stale'; }
	if (turn?.state === 'prepared') { turnRepository.markRunning(tx, submitId); }
	switch (decision.kind) {
		case 'done': return decision.result;
		case 'rotate':
		case 'cancel': return decision.kind;
		case 'dispatch':
			if (!wake) { return 'skipped'; }
			wakeRepository.update(tx, {
				...wake,
				status: decision.turnSettled ? 'turn_settled' : 'dispatched',
				dispatchedAtUnixMs: now,
				turnSettledAtUnixMs: decision.turnSettled ? turn?.settledAtUnixMs || now : 0,
				...noLease, lastError: '', updatedAtUnixMs: now,
			});
			return 'delivered';
	}
}

/** Our still-leased wake: apply `patch` (a launch failure puts it back to prepared; a failed cancel keeps the lease). */
export function updateOwnLeaseInTx(ctx: WakeTurnContext, tx: Tx, wakeId: string, patch: Partial<Wake>, now: number): void {
	const wake = wakeRepository.get(tx, wakeId);
	if (!wake || wake.status !== 'leased' || wake.leaseOwner !== ctx.owner) { return; }
	wakeRepository.update(tx, { ...wake, ...patch, updatedAtUnixMs: now });
}

/**
 * Atomically: the leased wake is canceled, its Turn settled canceled, and — while its checkpoint is still active
 * in a non-terminal execution — the next sequence is prepared with a fresh submit id (hidden while paused).
 */
export function rotateWakeInTx(ctx: WakeTurnContext, tx: Tx, wakeId: string, submitId: string, reason: string, now: number): void {
	const wake = wakeRepository.get(tx, wakeId);
	if (!wake || wake.status !== 'leased' || wake.leaseOwner !== ctx.owner) { return; }
	wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: reason, ...noLease, updatedAtUnixMs: now });
	turnRepository.settle(tx, submitId, 'cancellation', now);
	const execution = executionRepository.get(tx, wake.executionId);
	const issue = execution ? issueRepository.get(tx, execution.issueId) : undefined;
	const review = wake.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, submitId) : undefined;
	if (review) {
		// The reviewer's Turn was canceled before dispatch: the review fails and control returns to main.
		failReview(tx, review, 'reviewer_not_dispatched', now);
		return;
	}
	const checkpoint = checkpointRepository.get(tx, wake.checkpointId);
	if (!execution || !issue || isTerminalExecution(execution.status) || checkpoint?.status !== 'active') { return; }
	prepareMainWake(tx, execution, issue, checkpoint, now);
}

/** The agent target of a wake Turn's process (through its Turn's session), if it is still configured. */
export function wakeTurnTarget(r: Reader, turns: TurnLifecycle, processId: string): AgentTargetConfig | undefined {
	const turn = turnRepository.byProcessId(r, processId);
	const session = turn ? sessionRepository.get(r, turn.sessionId) : undefined;
	return session ? turns.target(session.agentTargetId) : undefined;
}

/** A wake Turn's process ended: settle the Turn; a dispatched wake becomes turn_settled (checkpoint untouched). */
export function settleWakeTurnInTx(tx: Tx, exit: RunExit, facts: TurnFacts | null, now: number): void {
	const turn = turnRepository.byProcessId(tx, exit.runId);
	if (!turn || turn.state === 'settled') { return; }
	const outcome = wakeTurnOutcome(exit);
	turnRepository.settle(tx, turn.clientSubmitId, outcome, now);
	if (facts?.providerSessionId) { sessionRepository.updateProviderSessionId(tx, turn.sessionId, facts.providerSessionId); }
	const wake = wakeRepository.get(tx, wakeIdBySubmitId(tx, turn.clientSubmitId) ?? '');
	if (wake && wake.status === 'dispatched') {
		wakeRepository.update(tx, { ...wake, status: 'turn_settled', turnSettledAtUnixMs: now, updatedAtUnixMs: now });
	}
	// A reviewer Turn that ended without its verdict fails the review (fail closed); control returns to main.
	const review = wake?.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, turn.clientSubmitId) : undefined;
	if (review) { failReview(tx, review, `reviewer_turn_ended_without_verdict (${outcome})`, now); }
}
