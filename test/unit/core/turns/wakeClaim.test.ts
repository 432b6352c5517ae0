import { strict as assert } from 'node:assert';
import {
	decideWakeClaim, decideWakeFinalize, type WakeClaimDecision, type WakeClaimFacts, type WakeFinalizeDecision, type WakeFinalizeFacts,
} from '../../../../src/core/turns/wakeClaim.js';
import { checkpoint, execution, wake } from '../builders.js';

const now = 10_000;
const mainWake = wake();
const claimable: WakeClaimFacts = {
	nowUnixMs: now,
	wake: mainWake,
	execution: execution(),
	issue: { dispatchPaused: false },
	stopPending: false,
	review: undefined,
	reviewerHolds: false,
	checkpoint: checkpoint(),
	session: { agentTargetId: 'src', targetConfigured: true },
	busy: false,
	existingTurn: undefined,
	budgetBlocker: null,
};
const reviewerWake = wake({ targetKind: 'reviewer', targetSessionId: 'cp:goal-review:1:session' });
const reviewerFacts: Partial<WakeClaimFacts> = {
	wake: reviewerWake,
	review: { active: true, reviewSessionId: 'cp:goal-review:1:session', checkpointId: reviewerWake.checkpointId },
};
const skipped: WakeClaimDecision = { kind: 'skip', result: 'skipped' };

describe('core/turns/wakeClaim', () => {
	const claims: [string, Partial<WakeClaimFacts>, WakeClaimDecision][] = [
		['a prepared main wake of a runnable execution is leased', {}, { kind: 'lease' }],
		['a wake whose lease expired is leased again (recovery)', { wake: { ...mainWake, status: 'leased', leaseExpiresAtUnixMs: now } }, { kind: 'lease' }],
		['a wake whose lease still runs is left alone', { wake: { ...mainWake, status: 'leased', leaseExpiresAtUnixMs: now + 1 } }, skipped],
		['a missing wake', { wake: undefined }, skipped],
		['a dispatched wake', { wake: { ...mainWake, status: 'dispatched' } }, skipped],
		['a missing execution', { execution: undefined }, skipped],
		['a missing issue', { issue: undefined }, skipped],
		['a terminal execution', { execution: execution({ status: 'orphaned_source' }) }, skipped],
		['a paused issue', { issue: { dispatchPaused: true } }, skipped],
		['a source session whose Stop marker is not drained yet', { stopPending: true }, skipped],
		['a reviewer wake while the source session\'s Stop is not drained yet', { ...reviewerFacts, stopPending: true }, skipped],
		['a main wake held by the independent reviewer', { reviewerHolds: true }, skipped],
		['a reviewer wake of an open review is leased', reviewerFacts, { kind: 'lease' }],
		['a reviewer wake without its review', { ...reviewerFacts, review: undefined }, skipped],
		['a reviewer wake of a closed review', { ...reviewerFacts, review: { active: false, reviewSessionId: 'cp:goal-review:1:session', checkpointId: reviewerWake.checkpointId } }, skipped],
		['a reviewer wake for another session than its review fails closed', { ...reviewerFacts, review: { active: true, reviewSessionId: 'other', checkpointId: reviewerWake.checkpointId } },
			{ kind: 'fail', lastError: 'identity mismatch: the reviewer wake does not match its review', clearLease: true }],
		['a main wake for another session than the source session fails closed', { execution: execution({ sourceSessionId: 'S2' }) },
			{ kind: 'fail', lastError: `identity mismatch: wake "${mainWake.wakeId}": targetSessionId is "S1" but must be "S2"`, clearLease: true }],
		['a checkpoint that is not active any more cancels the wake', { checkpoint: checkpoint({ status: 'resolved' }) },
			{ kind: 'cancel', lastError: 'its checkpoint is not active any more' }],
		['a checkpoint that is not the execution\'s active one cancels the wake', { execution: execution({ activeCheckpointId: 'other' }) },
			{ kind: 'cancel', lastError: 'its checkpoint is not active any more' }],
		['a missing checkpoint cancels the wake', { checkpoint: undefined }, { kind: 'cancel', lastError: 'its checkpoint is not active any more' }],
		['a missing session is noted', { session: undefined }, { kind: 'note', lastError: 'the source session does not exist' }],
		['an unconfigured target is noted', { session: { agentTargetId: 'gone', targetConfigured: false } },
			{ kind: 'note', lastError: 'the source session\'s agent target \'gone\' is not configured' }],
		['a busy session', { busy: true }, { kind: 'skip', result: 'busy' }],
		['an issue over its budget: the wake is not spent, why is noted', { budgetBlocker: 'budget reached: $1.20 of $1.00' },
			{ kind: 'note', lastError: 'budget reached: $1.20 of $1.00' }],
		['a reviewer wake of an issue over its budget is noted too', { ...reviewerFacts, budgetBlocker: 'budget reached: $1.20 of $1.00' },
			{ kind: 'note', lastError: 'budget reached: $1.20 of $1.00' }],
		['over budget, a Turn that already settled under the submit id is still recovered (nothing launched twice)',
			{ budgetBlocker: 'budget reached: $1.20 of $1.00', existingTurn: { sessionId: 'S1', state: 'settled', settledAtUnixMs: 5 } },
			{ kind: 'settled', turnSettledAtUnixMs: 5 }],
		['a submit id bound to another session\'s Turn fails (lease kept)', { existingTurn: { sessionId: 'S9', state: 'running', settledAtUnixMs: 0 } },
			{ kind: 'fail', lastError: 'its submit id is bound to a Turn of session S9', clearLease: false }],
		['its Turn already settled: recorded turn_settled at the Turn\'s time', { existingTurn: { sessionId: 'S1', state: 'settled', settledAtUnixMs: 7_000 } },
			{ kind: 'settled', turnSettledAtUnixMs: 7_000 }],
		['its Turn settled without a time: now', { existingTurn: { sessionId: 'S1', state: 'settled', settledAtUnixMs: 0 } }, { kind: 'settled', turnSettledAtUnixMs: now }],
		['its Turn was prepared or is running (lost response): leased again', { existingTurn: { sessionId: 'S1', state: 'running', settledAtUnixMs: 0 } }, { kind: 'lease' }],
	];
	for (const [name, over, expected] of claims) {
		it(`decideWakeClaim: ${name}`, () => { assert.deepEqual(decideWakeClaim({ ...claimable, ...over }), expected); });
	}

	const leased = { status: 'leased', leaseOwner: 'me', leaseExpiresAtUnixMs: now + 1 } as const;
	const finalizable: WakeFinalizeFacts = {
		nowUnixMs: now, owner: 'me', processId: 'turn-a1', wake: leased, turn: { processId: 'turn-a1', state: 'running' },
		execution: { status: 'awaiting_main' }, issue: { dispatchPaused: false }, checkpoint: { status: 'active' }, stopPending: false,
	};
	const finals: [string, Partial<WakeFinalizeFacts>, WakeFinalizeDecision][] = [
		['our lease, gate open: dispatched', {}, { kind: 'dispatch', turnSettled: false }],
		['our lease, gate open, the Turn already ended: turn_settled', { turn: { processId: 'turn-a1', state: 'settled' } }, { kind: 'dispatch', turnSettled: true }],
		['the Turn was started again by another owner: stale', { turn: { processId: 'turn-a2', state: 'running' } }, { kind: 'stale' }],
		['no Turn: stale', { turn: undefined }, { kind: 'stale' }],
		['acknowledged meanwhile', { wake: { ...leased, status: 'acknowledged' } }, { kind: 'done', result: 'delivered' }],
		['settled meanwhile', { wake: { ...leased, status: 'turn_settled' } }, { kind: 'done', result: 'delivered' }],
		['recovered by another owner', { wake: { ...leased, leaseOwner: 'other' } }, { kind: 'done', result: 'skipped' }],
		['the wake is gone', { wake: undefined }, { kind: 'done', result: 'skipped' }],
		['paused meanwhile, the Turn runs: cancel it', { issue: { dispatchPaused: true } }, { kind: 'cancel' }],
		['paused meanwhile, the Turn ended: rotate', { issue: { dispatchPaused: true }, turn: { processId: 'turn-a1', state: 'settled' } }, { kind: 'rotate' }],
		['our lease expired', { wake: { ...leased, leaseExpiresAtUnixMs: now } }, { kind: 'cancel' }],
		['archived meanwhile', { execution: { status: 'archived' } }, { kind: 'cancel' }],
		['the execution is gone', { execution: undefined }, { kind: 'cancel' }],
		['the checkpoint was resolved meanwhile', { checkpoint: { status: 'resolved' } }, { kind: 'cancel' }],
		['a source-session Stop landed meanwhile, the Turn runs: cancel it', { stopPending: true }, { kind: 'cancel' }],
		['a source-session Stop landed meanwhile, the Turn ended: rotate', { stopPending: true, turn: { processId: 'turn-a1', state: 'settled' } }, { kind: 'rotate' }],
		['the wake was canceled while its Turn started (an archive): interrupt it', { wake: { ...leased, status: 'canceled', leaseOwner: '' } }, { kind: 'stale' }],
		['the wake was canceled and its Turn already ended: nothing to interrupt', { wake: { ...leased, status: 'canceled', leaseOwner: '' }, turn: { processId: 'turn-a1', state: 'settled' } },
			{ kind: 'done', result: 'skipped' }],
	];
	for (const [name, over, expected] of finals) {
		it(`decideWakeFinalize: ${name}`, () => { assert.deepEqual(decideWakeFinalize({ ...finalizable, ...over }), expected); });
	}
});
