// Claim and finalize of a wake delivery, pure. The Host reads the facts inside the claim
// (or finalize) transaction, asks here, and applies the decision in the same transaction.
import { isTerminalExecution } from '../execution/allowedActions.js';
import { verifyWakeIdentity } from '../ids.js';
import type { Checkpoint, Execution, Issue, TurnState, Wake } from '../model.js';

export interface WakeClaimFacts {
	nowUnixMs: number;
	wake: Wake | undefined;
	execution: Pick<Execution, 'executionId' | 'status' | 'sourceSessionId' | 'activeCheckpointId'> | undefined;
	issue: Pick<Issue, 'dispatchPaused'> | undefined;
	/** The execution's source session has a Stop marker not drained yet (its archive follows): no new Turn. */
	stopPending: boolean;
	/** A reviewer wake's review (undefined: none, or a main wake). */
	review: { active: boolean; reviewSessionId: string; checkpointId: string } | undefined;
	/** A main wake: an independent reviewer holds its checkpoint. */
	reviewerHolds: boolean;
	checkpoint: Pick<Checkpoint, 'checkpointId' | 'status'> | undefined;
	/** The target session and whether its agent target is configured. */
	session: { agentTargetId: string; targetConfigured: boolean } | undefined;
	/** The session has an open Turn other than this wake's. */
	busy: boolean;
	/** Why the issue's budget lets nothing more start (src/core/usage/budget.ts), null when it does. */
	budgetBlocker: string | null;
	/** The Turn already bound to the wake's submit id. */
	existingTurn: { sessionId: string; state: TurnState; settledAtUnixMs: number } | undefined;
}

export type WakeClaimDecision =
	/** Leave the wake as it is. */
	| { kind: 'skip'; result: 'skipped' | 'busy' }
	/** Fail the wake closed with this error (`clearLease`: also drop its lease). */
	| { kind: 'fail'; lastError: string; clearLease: boolean }
	/** Cancel the wake: its checkpoint is not active any more. */
	| { kind: 'cancel'; lastError: string }
	/** It cannot be delivered yet: record why (once). */
	| { kind: 'note'; lastError: string }
	/** Its Turn already ran and settled: record the wake turn_settled at this time (lost projection). */
	| { kind: 'settled'; turnSettledAtUnixMs: number }
	/** Lease it and start (or recover) its Turn. */
	| { kind: 'lease' };

export function decideWakeClaim(f: WakeClaimFacts): WakeClaimDecision {
	const { wake, execution, issue, review } = f;
	const skip = { kind: 'skip', result: 'skipped' } as const;
	if (!wake) { return skip; }
	const claimable = wake.status === 'prepared' || (wake.status === 'leased' && wake.leaseExpiresAtUnixMs <= f.nowUnixMs);
	if (!claimable || !execution || !issue || isTerminalExecution(execution.status) || issue.dispatchPaused || f.stopPending) { return skip; }
	// The independent reviewer: its wake goes to its own reviewer session while its review is open; meanwhile the
	// checkpoint's main wake is held (stays prepared).
	if (wake.targetKind === 'reviewer' && !review?.active) { return skip; }
	if (wake.targetKind === 'main' && f.reviewerHolds) { return skip; }
	const problem = wake.targetKind === 'reviewer'
		? (review?.reviewSessionId === wake.targetSessionId && review.checkpointId === wake.checkpointId ? null : 'the reviewer wake does not match its review')
		: verifyWakeIdentity(wake, { executionId: execution.executionId, targetSessionId: execution.sourceSessionId });
	if (problem !== null) { return { kind: 'fail', lastError: `identity mismatch: ${problem}`, clearLease: true }; }
	const checkpoint = f.checkpoint;
	if (!checkpoint || checkpoint.status !== 'active' || execution.activeCheckpointId !== checkpoint.checkpointId) {
		return { kind: 'cancel', lastError: 'its checkpoint is not active any more' };
	}
	if (!f.session || !f.session.targetConfigured) {
		return { kind: 'note', lastError: f.session ? `the source session's agent target '${f.session.agentTargetId}' is not configured` : 'the source session does not exist' };
	}
	if (f.busy) { return { kind: 'skip', result: 'busy' }; }
	const existing = f.existingTurn;
	// At or over budget the wake is not spent: it stays prepared (why recorded) until the budget is raised. A Turn
	// that already ran under this submit id is still recovered below (nothing is launched twice).
	if (f.budgetBlocker !== null && (existing === undefined || existing.state === 'prepared')) { return { kind: 'note', lastError: f.budgetBlocker }; }
	if (existing && existing.sessionId !== wake.targetSessionId) {
		return { kind: 'fail', lastError: `its submit id is bound to a Turn of session ${existing.sessionId}`, clearLease: false };
	}
	if (existing?.state === 'settled') { return { kind: 'settled', turnSettledAtUnixMs: existing.settledAtUnixMs || f.nowUnixMs }; }
	return { kind: 'lease' };
}

export interface WakeFinalizeFacts {
	nowUnixMs: number;
	/** This Host's lease owner id and the process it started (or recovered). */
	owner: string;
	processId: string;
	wake: Pick<Wake, 'status' | 'leaseOwner' | 'leaseExpiresAtUnixMs'> | undefined;
	turn: { processId?: string | undefined; state: TurnState } | undefined;
	execution: Pick<Execution, 'status'> | undefined;
	issue: Pick<Issue, 'dispatchPaused'> | undefined;
	checkpoint: Pick<Checkpoint, 'status'> | undefined;
	/** The execution's source session has a Stop marker not drained yet: the gate is closed. */
	stopPending: boolean;
}

export type WakeFinalizeDecision =
	/**
	 * Our process must not run: our lease expired and another owner started the Turn again, or the wake was canceled
	 * while its Turn was being started (an archive). Interrupt ours.
	 */
	| { kind: 'stale' }
	/** Nothing to finalize (resolved meanwhile, or recovered by another owner). */
	| { kind: 'done'; result: 'delivered' | 'skipped' }
	/** The pause gate lost: the Turn already settled → rotate the wake; still running → cancel the Turn first. */
	| { kind: 'rotate' }
	| { kind: 'cancel' }
	/** The final CAS: the wake is dispatched (turn_settled when its Turn already ended). */
	| { kind: 'dispatch'; turnSettled: boolean };

/** The final dispatch CAS: only the still-live lease owner, and only while the pause gate (and no source Stop) is open. */
export function decideWakeFinalize(f: WakeFinalizeFacts): WakeFinalizeDecision {
	if (!f.turn || f.turn.processId !== f.processId) { return { kind: 'stale' }; }
	const turnSettled = f.turn.state === 'settled';
	const wake = f.wake;
	if (wake?.status === 'canceled' && !turnSettled) { return { kind: 'stale' }; }
	if (!wake || wake.status !== 'leased' || wake.leaseOwner !== f.owner) {
		return { kind: 'done', result: wake?.status === 'acknowledged' || wake?.status === 'turn_settled' ? 'delivered' : 'skipped' };
	}
	const gateOpen = wake.leaseExpiresAtUnixMs > f.nowUnixMs && !!f.execution && !!f.issue && !f.issue.dispatchPaused
		&& !isTerminalExecution(f.execution.status) && f.checkpoint?.status === 'active' && !f.stopPending;
	if (!gateOpen) { return turnSettled ? { kind: 'rotate' } : { kind: 'cancel' }; }
	return { kind: 'dispatch', turnSettled };
}
