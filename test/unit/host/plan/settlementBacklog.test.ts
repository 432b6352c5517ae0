import { strict as assert } from 'node:assert';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { PlanKit, rejects, taskSpec } from './planKit.js';

describe('plan service: settlement checkpoints, the ordered backlog and the terminal singleton', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	it('TerminalSettlementCreatesCheckpointWithoutSuccessor; the dependent waits for the developer\'s accept of the settled subject', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] })]);
		const scheduled = await issue.schedule(['a']);
		assert.deepEqual(kit.admission.launched, [scheduled.runIds], 'launched after commit');
		assert.equal(issue.execution().status, 'running');
		kit.clock.advance(1_000);
		await kit.settle(scheduled.runIds[0]!, 'success');
		const s = await issue.get();
		assert.equal(s.execution.status, 'awaiting_main');
		assert.equal(s.execution.watchdogDueAtUnixMs, kit.clock.now() + 5 * 60_000, 'settlement resets the watchdog');
		assert.equal(s.activeCheckpoint?.checkpointId, issue.runCheckpointId(scheduled.runIds[0]!));
		assert.equal(s.activeCheckpoint?.kind, 'task_settled');
		assert.equal(s.activeCheckpoint?.sequence, 2);
		assert.equal(issue.task(s, 'a').status, 'pending_acceptance');
		assert.equal(issue.task(s, 'b').status, 'not_started', 'no successor is dispatched');
		assert.deepEqual(s.readyTaskIds, [], 'the settled subject is not projected as accepted (only the developer accepts)');
		assert.equal(issue.task(s, 'b').blockerReason, 'dependency_unsatisfied');
		await rejects(issue.schedule(['b']), 'dependency_unsatisfied');
		assert.equal(s.activeWake?.wakeId, `${s.activeCheckpoint?.checkpointId}:wake:main:1`);
		assert.deepEqual(s.allowedActions, ['mutate', 'stop'], 'no acknowledge without running work or backlog');
		await rejects(issue.acknowledge(), 'inactive_checkpoint');

		const settledCheckpoint = s.activeCheckpoint!.checkpointId;
		await issue.accept('a');
		const accepted = await issue.get();
		assert.equal(accepted.activeCheckpoint?.kind, 'task_accepted', "the developer's accept is the source agent's next checkpoint");
		assert.deepEqual(accepted.readyTaskIds, ['b'], 'and makes the dependent ready');
		await issue.schedule(['b']);
		const after = await issue.get();
		assert.equal(issue.task(after, 'a').status, 'completed');
		assert.equal(issue.task(after, 'a').acceptanceState, 'user_accepted');
		assert.equal(issue.task(after, 'b').status, 'running');
		const wakesOf = (checkpointId: string): string[] => issue.wakes().filter((w) => w.checkpointId === checkpointId).map((w) => w.status);
		assert.deepEqual(wakesOf(settledCheckpoint), ['canceled'], 'the settlement the decision answered');
		assert.deepEqual(wakesOf(accepted.activeCheckpoint!.checkpointId), ['acknowledged'], 'a valid command acknowledges the wakes of its checkpoint');
		// Settling the same Run's checkpoint again (replayed observer) creates nothing.
		const count = issue.checkpoints().length;
		await kit.store.transaction((tx) => {
			const run = runRepository.get(tx, scheduled.runIds[0]!)!;
			kit.plan.onRunSettled(tx, { issue: issueRepository.get(tx, issue.issueId)!, task: taskRepository.get(tx, issue.issueId, 'a')!, run });
		});
		assert.equal(issue.checkpoints().length, count);
	});

	it('ParallelSettlementsQueueOrderedCheckpointBacklog and acknowledge drains it into Goal Review', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const { runIds } = await issue.schedule(['a', 'b', 'c']);
		const [ra, rb, rc] = runIds as [string, string, string];
		await kit.settle(rb, 'success');
		await kit.settle(ra, 'failure');
		await kit.settle(rc, 'cancellation');
		const s = await issue.get();
		assert.deepEqual(s.checkpoints.map((c) => [c.kind, c.status, c.sequence, c.subjectTaskId]), [
			['task_settled', 'active', 2, 'b'],
			['task_failed', 'pending', 3, 'a'],
			['task_canceled', 'pending', 4, 'c'],
			['all_tasks_terminal', 'pending', 5, ''],
		]);
		assert.equal(issue.wakes().length, 2, 'only active checkpoints have wakes (initial + the first settlement)');
		assert.ok(s.allowedActions.includes('acknowledge'));

		const first = await issue.acknowledge();
		assert.deepEqual([first.nextCheckpointId, first.nextCheckpointKind, first.nextCheckpointState], [issue.runCheckpointId(ra), 'task_failed', 'active']);
		assert.equal(issue.task(await issue.get(), 'b').status, 'pending_acceptance', 'acknowledging a settlement never accepts its subject');
		const second = await issue.acknowledge();
		assert.equal(second.nextCheckpointId, issue.runCheckpointId(rc));
		const third = await issue.acknowledge();
		assert.deepEqual([third.nextCheckpointId, third.nextCheckpointKind, third.nextCheckpointState], [issue.terminalId, 'all_tasks_terminal', 'active']);
		const review = await issue.get();
		assert.equal(review.execution.status, 'pending_goal_review', 'MixedTerminalOutcomesReachGoalReview');
		assert.deepEqual(review.tasks.map((t) => [t.taskId, t.status]), [['a', 'failed'], ['b', 'pending_acceptance'], ['c', 'canceled']]);
		assert.deepEqual(review.allowedActions, ['complete', 'mutate', 'stop']);
		assert.equal(review.activeWake?.wakeId, `${issue.terminalId}:wake:main:1`);
		await rejects(issue.acknowledge(), 'inactive_checkpoint', /not current/);
	});

	it('AcknowledgeEligibilityUsesActiveWorkOrBacklog: a running Run makes acknowledge legal and leaves the execution running', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		await rejects(issue.acknowledge(), 'inactive_checkpoint', /not current/);
		const { runIds } = await issue.schedule(['a', 'b']);
		await kit.settle(runIds[0]!, 'success');
		assert.ok((await issue.get()).allowedActions.includes('acknowledge'));
		const ack = await issue.acknowledge();
		assert.deepEqual([ack.nextCheckpointId, ack.nextCheckpointState], ['', '']);
		const s = await issue.get();
		assert.equal(s.execution.status, 'running');
		assert.equal(s.activeCheckpoint, null);
		assert.deepEqual(s.allowedActions, []);
		await kit.settle(runIds[1]!, 'success');
		const t = await issue.get();
		assert.deepEqual(t.checkpoints.map((c) => [c.kind, c.status]), [['task_settled', 'active'], ['all_tasks_terminal', 'pending']]);
	});

	it('ScheduleReviewPromotesExistingSettlementBacklog rebound to the revision of a mutation made meanwhile', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const { runIds } = await issue.schedule(['a', 'b']);
		await kit.settle(runIds[0]!, 'success');
		await kit.settle(runIds[1]!, 'success');
		const queued = issue.checkpoint(issue.runCheckpointId(runIds[1]!));
		assert.deepEqual([queued.status, queued.graphRevision], ['pending', 2]);
		const m = await issue.mutate([{ kind: 'add', task: taskSpec('d') }]);
		assert.equal(m.graphRevision, 3);
		assert.equal(issue.checkpoint(m.checkpointId).graphRevision, 3, 'mutation rebinds the active checkpoint');
		assert.equal(issue.checkpoint(queued.checkpointId).graphRevision, 2, 'the queued one keeps its revision until promoted');
		assert.match((await issue.get()).activeWake!.prompt, /"graphRevision":3/, 'the unclaimed wake speaks of the new revision');

		await issue.schedule(['c', 'd'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		const s = await issue.get();
		assert.equal(s.activeCheckpoint?.checkpointId, queued.checkpointId);
		assert.equal(s.activeCheckpoint?.graphRevision, 3, 'promotion by schedule rebinds to the current revision');
		assert.equal(s.execution.status, 'awaiting_main');
		assert.equal(s.activeWake?.wakeId, `${queued.checkpointId}:wake:main:1`);
		assert.match(s.activeWake!.prompt, /"graphRevision":3/);
		const ack = await issue.acknowledge({ checkpointId: queued.checkpointId, expectedGraphRevision: 3 });
		assert.equal(ack.graphRevision, 3);
	});

	it('GraphMutationRebindsPromotedSettlementBacklog on the acknowledge path', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const { runIds } = await issue.schedule(['a', 'b', 'c']);
		await kit.settle(runIds[0]!, 'success');
		await kit.settle(runIds[1]!, 'success');
		await issue.accept('a'); // d depends on a: only the developer's accept satisfies the edge
		const m = await issue.mutate([{ kind: 'add', task: taskSpec('d', { dependencyTaskIds: ['a'] }) }]);
		const ack = await issue.acknowledge({ checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		assert.equal(ack.nextCheckpointId, issue.runCheckpointId(runIds[1]!));
		assert.equal(issue.checkpoint(ack.nextCheckpointId).graphRevision, m.graphRevision, 'promotion by acknowledge rebinds to the current revision');
		// The source can act on the promoted checkpoint with the revision it already holds.
		const scheduled = await issue.schedule(['d'], { checkpointId: ack.nextCheckpointId, expectedGraphRevision: m.graphRevision });
		assert.equal(scheduled.runIds.length, 1);
	});

	it('ReworkRearmsSupersededTerminalCheckpoint: the full chain reaches Goal Review and completes', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { model: 'm1', reasoningEffort: 'high', executionDirectory: 'sub' })]);
		const { runIds } = await issue.schedule(['a', 'b']);
		await kit.settle(runIds[0]!, 'success');
		await kit.settle(runIds[1]!, 'failure');
		await issue.accept('a');
		assert.equal(issue.checkpoint(issue.terminalId).status, 'pending', 'the final Run queued the terminal checkpoint');
		await issue.acknowledge();
		const failed = await issue.get();
		assert.equal(failed.activeCheckpoint?.kind, 'task_failed');

		// Rework while the terminal checkpoint is pending: the mutation supersedes the stale boundary.
		const m = await issue.mutate([{ kind: 'rework', taskId: 'b', task: { taskId: 'b2' } }]);
		assert.deepEqual(m.addedTaskIds, ['b2']);
		assert.deepEqual(m.supersededTaskIds, ['b']);
		assert.equal(issue.checkpoint(issue.terminalId).status, 'superseded');
		const reworked = await issue.get();
		assert.deepEqual(reworked.readyTaskIds, ['b2']);
		assert.equal(issue.task(reworked, 'b').blockerReason, 'task_superseded');
		assert.equal(issue.task(reworked, 'b2').model, 'm1', 'sparse rework inherits launch settings');

		const replacement = await issue.schedule(['b2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		assert.equal(issue.execution().status, 'running', 'a superseded terminal checkpoint is never promoted');
		await kit.settle(replacement.runIds[0]!, 'success');
		await issue.accept('b2');
		const settled = issue.checkpoint(issue.runCheckpointId(replacement.runIds[0]!));
		const terminal = issue.checkpoint(issue.terminalId);
		assert.equal(terminal.status, 'pending', 'the terminal singleton is rearmed');
		assert.equal(terminal.graphRevision, m.graphRevision);
		assert.ok(terminal.sequence > settled.sequence, 'sequenced after the replacement settlement');

		const ack = await issue.acknowledge();
		assert.deepEqual([ack.nextCheckpointId, ack.nextCheckpointKind, ack.nextCheckpointState], [issue.terminalId, 'all_tasks_terminal', 'active']);
		const review = await issue.get();
		assert.equal(review.execution.status, 'pending_goal_review');
		assert.equal(issue.task(review, 'b2').status, 'completed');
		assert.equal(review.activeCheckpoint?.graphRevision, m.graphRevision);

		const done = await issue.complete({ requestId: 'done' });
		assert.equal(done.decision, 'goal_satisfied');
		const final = await issue.get();
		assert.equal(final.execution.status, 'completed');
		assert.equal(final.activeCheckpoint, null);
		assert.deepEqual(final.allowedActions, []);
		assert.equal(issue.checkpoint(issue.terminalId).status, 'resolved');
		assert.ok(issue.wakes().every((w) => w.status === 'acknowledged' || w.status === 'canceled'));
	});

	it('a mutation at Goal Review leaves the terminal checkpoint active; schedule from it later rearms a resolved singleton', async () => {
		const issue = await kit.managedIssue([taskSpec('a')]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		await issue.accept('a');
		// Only the terminal checkpoint is queued: acknowledge opens Goal Review.
		await issue.acknowledge();
		assert.equal(issue.execution().status, 'pending_goal_review');
		const m = await issue.mutate([{ kind: 'add', task: taskSpec('follow-up', { dependencyTaskIds: ['a'] }) }]);
		assert.equal(issue.execution().status, 'awaiting_main');
		assert.deepEqual((await issue.get()).allowedActions, ['complete', 'mutate', 'schedule', 'stop']);
		const f = await issue.schedule(['follow-up'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		assert.equal(issue.checkpoint(issue.terminalId).status, 'resolved');
		await kit.settle(f.runIds[0]!, 'success');
		assert.equal(issue.checkpoint(issue.terminalId).status, 'pending', 'the follow-up needs a fresh Goal Review');
	});

	it('settlement is suppressed for completed and archived executions', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		const { runIds } = await issue.schedule(['a', 'b']);
		await kit.settle(runIds[0]!, 'success');
		await issue.stop('abandoned');
		const count = issue.checkpoints().length;
		await kit.settle(runIds[1]!, 'success');
		assert.equal(issue.checkpoints().length, count);
		assert.equal(issue.execution().status, 'archived');
	});
});
