// The independent reviewer at Goal Review, in process: real store and wake
// loop, fake clock, command-target agents (source `src`, worker `w`, reviewer `rev`).
import { strict as assert } from 'node:assert';
import { mainWakeId } from '../../../../src/core/ids.js';
import { DomainError } from '../../../../src/core/errors.js';
import type { Caller, Result } from '../../../../src/protocol/controlPlane.js';
import { reviewerReviewRepository } from '../../../../src/store/repositories/reviewerReviewRepository.js';
import { commandTarget } from '../services/serviceHarness.js';
import { sourceCaller, WakeKit } from './wakeKit.js';

interface AtTerminal {
	created: Result<'plan/create'>;
	source: Caller;
	checkpointId: string;
	revision: number;
	reviewId: string;
	reviewer: Caller;
}

async function rejects(p: Promise<unknown>, reasonCode: string, message?: RegExp): Promise<void> {
	await assert.rejects(p, (e: unknown) => {
		assert.ok(e instanceof DomainError, String(e));
		assert.equal(e.reasonCode, reasonCode, e.message);
		if (message) { assert.match(e.message, message); }
		return true;
	});
}

/** A managed issue with one auto-accepted task that ran and settled, acknowledged into its all_tasks_terminal checkpoint. */
async function toTerminal(kit: WakeKit): Promise<AtTerminal> {
	const created = await kit.call('plan/create', { title: 'Goal', content: 'Reach the goal.', requestId: 'c1', sourceTargetId: 'src', reviewTargetId: 'rev', autoAccept: true });
	await kit.idle();
	assert.equal(kit.execution(created.executionId).reviewMode, 'independent');
	const source = sourceCaller(created.sourceSessionId);
	const mutated = await kit.call('plan/mutate', {
		issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
		operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w', autoAccept: true } }],
	}, source);
	const scheduled = await kit.call('plan/schedule', {
		issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ['a'],
	}, source);
	kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
	kit.runs.exit(scheduled.runIds[0]!, { exitCode: 0 });
	await kit.idle();
	await kit.tick();
	const settled = kit.execution(created.executionId).activeCheckpointId;
	assert.match(settled, /:checkpoint:run:/);
	const settledTurn = kit.lastTurnProcess();
	await kit.call('plan/acknowledge', { issueId: created.issueId, checkpointId: settled, expectedGraphRevision: mutated.graphRevision, requestId: 'ack1' }, source);
	kit.runs.exit(settledTurn, { exitCode: 0 });
	await kit.idle();
	await kit.tick();
	const checkpointId = kit.execution(created.executionId).activeCheckpointId;
	assert.equal(kit.checkpoint(checkpointId).kind, 'all_tasks_terminal');
	const reviewId = `${checkpointId}:goal-review:1`;
	const review = kit.store.read((r) => reviewerReviewRepository.get(r, reviewId));
	assert.ok(review, 'the terminal activation prepared the reviewer review');
	return {
		created, source, checkpointId, revision: mutated.graphRevision, reviewId,
		reviewer: { kind: 'session', sessionId: review.reviewSessionId, role: 'reviewer' },
	};
}

function verdictParams(t: AtTerminal, verdict: 'goal_satisfied' | 'more_work_required' | 'inconclusive', requestId = 'v1'): {
	issueId: string; reviewId: string; checkpointId: string; expectedGraphRevision: number; verdict: typeof verdict; summary: string; requestId: string;
} {
	return { issueId: t.created.issueId, reviewId: t.reviewId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, verdict, summary: `Looks ${verdict}`, requestId };
}

describe('independent reviewer at Goal Review', () => {
	let kit: WakeKit;
	beforeEach(async () => {
		kit = await WakeKit.open({ config: { agentTargets: [commandTarget('src'), commandTarget('w'), commandTarget('rev')] } });
	});
	afterEach(async () => { await kit.close(); });

	function review(reviewId: string): NonNullable<ReturnType<typeof reviewerReviewRepository.get>> {
		const v = kit.store.read((r) => reviewerReviewRepository.get(r, reviewId));
		assert.ok(v, `review ${reviewId}`);
		return v;
	}

	it('IndependentReviewerIsPreparedAtTerminalActivationAndHoldsTheMainWake', async () => {
		const t = await toTerminal(kit);
		const v = review(t.reviewId);
		assert.equal(v.status, 'dispatched');
		assert.equal(v.clientSubmitId, `tutti-goal-review:${t.reviewId}`);
		assert.equal(v.reviewSessionId, `${t.reviewId}:session`);
		const launch = kit.runs.launches.find((l) => l.env.TUTTI_SESSION_ID === v.reviewSessionId);
		assert.ok(launch, 'the reviewer wake started a Turn of the reviewer session');
		assert.equal(launch.target.id, 'rev');
		assert.deepEqual(kit.services.api.authenticate(launch.env.TUTTI_SESSION_TOKEN!), t.reviewer);
		assert.match(launch.stdinText, /Review only/);
		assert.ok(launch.stdinText.includes('Reach the goal.'));
		assert.ok(launch.stdinText.includes(`tutti goal-review verdict --issue-id ${t.created.issueId} --review-id ${t.reviewId} --checkpoint-id ${t.checkpointId} --expected-graph-revision ${t.revision}`));
		assert.equal(kit.wake(mainWakeId(t.checkpointId, 1)).status, 'prepared', 'the main wake is held while the reviewer is active');
		const snapshot = await kit.call('plan/get', { issueId: t.created.issueId }, t.source);
		assert.deepEqual(snapshot.independentReview, {
			reviewId: t.reviewId, checkpointId: t.checkpointId, status: 'dispatched', verdict: '', summary: '', failureReason: '', disagreementReason: '',
		});
		await rejects(kit.call('plan/complete', { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, requestId: 'done', decision: 'goal_satisfied' }, t.source),
			'inactive_checkpoint', /has not given its verdict yet/);
	});

	it('VerdictIsFencedAndGivenExactlyOnce', async () => {
		const t = await toTerminal(kit);
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied'), t.source), 'wrong_source_session');
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied')), 'forbidden');
		await rejects(kit.call('goalReview/verdict', { ...verdictParams(t, 'goal_satisfied'), checkpointId: t.created.checkpointId }, t.reviewer), 'inactive_checkpoint');
		await rejects(kit.call('goalReview/verdict', { ...verdictParams(t, 'goal_satisfied'), expectedGraphRevision: t.revision + 1 }, t.reviewer), 'stale_graph_revision');
		await rejects(kit.call('goalReview/verdict', { ...verdictParams(t, 'goal_satisfied'), reviewId: `${t.checkpointId}:goal-review:9` }, t.reviewer), 'inactive_checkpoint');
		assert.equal(review(t.reviewId).status, 'dispatched', 'no refused verdict changed the review');

		const first = await kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied'), t.reviewer);
		assert.deepEqual(first, { reviewId: t.reviewId, verdict: 'goal_satisfied', replayed: false });
		assert.deepEqual(await kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied'), t.reviewer), { ...first, replayed: true });
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'more_work_required', 'v2'), t.reviewer), 'request_id_conflict', /exactly one verdict/);
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'inconclusive'), t.reviewer), 'request_id_conflict');
		assert.deepEqual([review(t.reviewId).status, review(t.reviewId).verdict], ['submitted', 'goal_satisfied']);

		await kit.idle();
		const main = kit.wake(mainWakeId(t.checkpointId, 1));
		assert.equal(main.status, 'dispatched', 'the verdict released the main wake');
		assert.match(main.prompt, /Independent reviewer verdict \(advisory\): goal_satisfied — Looks goal_satisfied/);
		const done = await kit.call('plan/complete', { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, requestId: 'done', decision: 'goal_satisfied' }, t.source);
		assert.equal(done.replayed, false, 'a goal_satisfied verdict needs no disagreement reason');
	});

	it('IndependentVerdictIsAdvisoryButDisagreementNeedsAReason', async () => {
		const t = await toTerminal(kit);
		await kit.call('goalReview/verdict', verdictParams(t, 'more_work_required'), t.reviewer);
		await kit.idle();
		assert.match(kit.wake(mainWakeId(t.checkpointId, 1)).prompt, /more_work_required .*--disagreement-reason/s);
		const complete = { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, decision: 'goal_satisfied' as const };
		await rejects(kit.call('plan/complete', { ...complete, requestId: 'd1' }, t.source), 'invalid_input', /more_work_required.*--disagreement-reason/);
		await rejects(kit.call('plan/complete', { ...complete, requestId: 'd2', disagreementReason: '   ' }, t.source), 'invalid_input', /--disagreement-reason/);
		const done = await kit.call('plan/complete', { ...complete, requestId: 'd3', disagreementReason: 'The reviewer missed the e2e run' }, t.source);
		assert.equal(done.replayed, false);
		assert.equal(review(t.reviewId).disagreementReason, 'The reviewer missed the e2e run', 'the reason is recorded for audit');
	});

	it('ReviewerFailureReturnsControlToMain', async () => {
		const t = await toTerminal(kit);
		const v = review(t.reviewId);
		const reviewerTurn = kit.runs.launches.find((l) => l.env.TUTTI_SESSION_ID === v.reviewSessionId)!.runId;
		kit.runs.exit(reviewerTurn, { exitCode: 0 });
		await kit.idle();
		await kit.tick();
		const failed = review(t.reviewId);
		assert.equal(failed.status, 'failed');
		assert.match(failed.failureReason, /reviewer_turn_ended_without_verdict/);
		const main = kit.wake(mainWakeId(t.checkpointId, 1));
		assert.equal(main.status, 'dispatched', 'control returned to the source session');
		assert.match(main.prompt, /The independent reviewer failed/);
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied'), t.reviewer), 'inactive_checkpoint', /failed/);
		const complete = { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, decision: 'goal_satisfied' as const };
		await rejects(kit.call('plan/complete', { ...complete, requestId: 'd1' }, t.source), 'invalid_input', /failed.*--disagreement-reason/);
		await kit.call('plan/complete', { ...complete, requestId: 'd2', disagreementReason: 'reviewer crashed; goal verified by hand' }, t.source);
		const snapshot = await kit.call('plan/get', { issueId: t.created.issueId }, t.source);
		assert.equal(snapshot.independentReview, undefined, 'the terminal checkpoint is resolved');
	});

	it('IndependentReviewFallbackRequiresExplicitAuditedAction', async () => {
		const t = await toTerminal(kit);
		const params = { issueId: t.created.issueId, reason: 'the reviewer agent is down today' };
		await rejects(kit.call('goalReview/switchToSelf', params, t.source), 'forbidden');
		await rejects(kit.call('goalReview/switchToSelf', params, t.reviewer), 'forbidden');
		const switched = await kit.call('goalReview/switchToSelf', params);
		assert.deepEqual([switched.reviewMode, switched.changed], ['self', true]);
		assert.equal(kit.execution(t.created.executionId).reviewMode, 'self');
		const canceled = review(t.reviewId);
		assert.deepEqual([canceled.status, canceled.failureReason], ['canceled', `switched_to_self: ${params.reason}`]);
		const audit = kit.store.read((r) => r.all('SELECT from_mode, to_mode, reason, requested_by FROM review_mode_switches'));
		assert.deepEqual(audit, [{ from_mode: 'independent', to_mode: 'self', reason: params.reason, requested_by: 'user' }]);
		await kit.idle();
		await kit.tick();
		assert.equal(kit.wake(mainWakeId(t.checkpointId, 1)).status, 'dispatched', 'the held main wake is delivered');
		const complete = { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, decision: 'goal_satisfied' as const };
		await kit.call('plan/complete', { ...complete, requestId: 'd1' }, t.source);
		assert.equal((await kit.call('goalReview/switchToSelf', params)).changed, false, 'switching again changes nothing');
	});

	it('StopCancelsTheOpenReviewerReview', async () => {
		const t = await toTerminal(kit);
		assert.equal(review(t.reviewId).status, 'dispatched');
		await kit.call('plan/stop', { issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, requestId: 'stop1', reason: 'enough' }, t.source);
		await kit.idle();
		assert.deepEqual([review(t.reviewId).status, review(t.reviewId).failureReason], ['canceled', 'execution archived']);
		await rejects(kit.call('goalReview/verdict', verdictParams(t, 'goal_satisfied'), t.reviewer), 'inactive_checkpoint', /is canceled \(execution archived\)/);
	});

	it('MutationSupersedesStaleGoalReview', async () => {
		const t = await toTerminal(kit);
		const mutated = await kit.call('plan/mutate', {
			issueId: t.created.issueId, checkpointId: t.checkpointId, expectedGraphRevision: t.revision, requestId: 'm2',
			operations: [{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'w' } }],
		}, t.source);
		const canceled = review(t.reviewId);
		assert.deepEqual([canceled.status, canceled.failureReason], ['canceled', 'graph_superseded']);
		const reviewerWake = kit.wakesOf(t.created.executionId).find((w) => w.targetKind === 'reviewer')!;
		assert.equal(reviewerWake.status, 'canceled');
		await rejects(kit.call('goalReview/verdict', { ...verdictParams(t, 'goal_satisfied'), expectedGraphRevision: mutated.graphRevision }, t.reviewer), 'inactive_checkpoint', /canceled/);
		await kit.idle();
		assert.equal(kit.wake(mainWakeId(t.checkpointId, 1)).status, 'dispatched', 'the main wake is no longer held');
	});
});
