// Conformance: settlement — checkpoints without successors, the ordered backlog, promotion by
// schedule and by acknowledge with revision rebinding, and the rearmed all_tasks_terminal singleton.
import { strict as assert } from 'node:assert';
import {
	addOps, executionIdOf, expectOk, fenceOf, managedIssue, methods, shareHost, taskIn, taskSpec,
	type HostHandle,
} from '../harness.js';

describe('conformance: settlement and backlog', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('TerminalSettlementCreatesCheckpointWithoutSuccessor', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'), taskSpec('b', 'ok', ['a']), taskSpec('f', 'fail'));
		const { runIds: [runId] } = await issue.scheduleOk(['a']);
		const s = await issue.waitActive('task_settled', 'a');
		const cp = s.activeCheckpoint!;
		assert.equal(cp.checkpointId, `${executionIdOf(issue.issueId)}:checkpoint:run:${runId}`);
		assert.equal(cp.subjectRunId, runId);
		assert.equal(cp.status, 'active');
		assert.equal(cp.graphRevision, s.execution.graphRevision);
		assert.equal(s.execution.status, 'awaiting_main');
		assert.equal(taskIn(s, 'a').status, 'pending_acceptance', 'managed tasks wait for acceptance (autoAccept=false)');
		assert.equal(s.activeWake?.checkpointId, cp.checkpointId);
		assert.equal(s.activeWake?.wakeId, `${cp.checkpointId}:wake:main:1`);
		assert.ok(s.allowedActions.includes('schedule') && s.allowedActions.includes('mutate') && s.allowedActions.includes('stop'));
		assert.ok(!s.allowedActions.includes('acknowledge'), 'nothing runs and nothing is queued: acknowledge is not eligible');
		assert.ok(!s.allowedActions.includes('complete'));
		const b = taskIn(s, 'b');
		assert.equal(b.ready, false, 'the settled subject is not projected as accepted: only the developer accepts');
		assert.equal(b.blockerReason, 'dependency_unsatisfied');

		// A failed Run settles into task_failed, again without a successor; scheduling never accepts `a`. The schedule
		// is accepted at the fence of the settled snapshot only if nothing moved the checkpoint or the graph since.
		const { runIds: [failRun] } = await issue.scheduleOk(['f'], fenceOf(s));
		const failed = await issue.waitActive('task_failed', 'f');
		assert.equal(taskIn(failed, 'a').status, 'pending_acceptance');
		assert.equal(taskIn(failed, 'b').status, 'not_started', 'settling never dispatches a successor');
		assert.equal(taskIn(failed, 'b').latestRunId, '');
		const runs = methods['run/list'].result.parse(expectOk(await issue.cli(['run', 'list', '--issue-id', issue.issueId, '--json'])));
		assert.deepEqual(runs.runs.map((r) => r.runId).sort(), [runId!, failRun!].sort(), 'the Host created no Run of its own');
		const run = await issue.run(failRun!);
		assert.equal(run.outcome, 'failure');
		assert.equal(run.exitCode, 3);
		assert.match(run.outcomeLabel ?? '', /^Failed after /);
	});

	it('ParallelSettlementsQueueOrderedCheckpointBacklog', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'), taskSpec('c', 'gate'));
		await issue.scheduleOk(['a', 'b', 'c']);
		issue.openGate('b', 0);
		await issue.waitSettlement('b');
		issue.openGate('a', 3);
		await issue.waitSettlement('a');
		issue.openGate('c', 0);
		const s = await issue.waitSnapshot((x) => x.checkpoints.some((c) => c.kind === 'all_tasks_terminal'), 'the terminal checkpoint');
		assert.deepEqual(
			s.checkpoints.map((c) => [c.subjectTaskId, c.kind, c.status]),
			[['b', 'task_settled', 'active'], ['a', 'task_failed', 'pending'], ['c', 'task_settled', 'pending'], ['', 'all_tasks_terminal', 'pending']],
		);
		const sequences = s.checkpoints.map((c) => c.sequence);
		assert.deepEqual(sequences, [...sequences].sort((x, y) => x - y), 'the backlog is ordered by sequence');
		assert.equal(new Set(sequences).size, sequences.length);
		const terminal = s.checkpoints[3]!;
		assert.equal(terminal.checkpointId, `${executionIdOf(issue.issueId)}:checkpoint:all-tasks-terminal`);
		assert.equal(terminal.requiresGoalReview, true);
		assert.ok(s.allowedActions.includes('acknowledge'), 'a queued checkpoint makes acknowledge eligible');

		const ack = await issue.acknowledgeOk(fenceOf(s));
		assert.equal(ack.nextCheckpointId, s.checkpoints[1]!.checkpointId, 'the oldest pending checkpoint is promoted');
		assert.equal(ack.nextCheckpointKind, 'task_failed');
		assert.equal(ack.nextCheckpointState, 'active');
		const s2 = await issue.get();
		assert.equal(s2.activeCheckpoint?.subjectTaskId, 'a');
		assert.equal(s2.activeCheckpoint?.graphRevision, s2.execution.graphRevision);
		assert.equal(taskIn(s2, 'b').status, 'pending_acceptance', 'acknowledging a task_settled checkpoint never accepts its task');
		assert.equal(s2.activeWake?.checkpointId, s2.activeCheckpoint?.checkpointId, 'promotion prepares the main wake');
	});

	it('ScheduleReviewPromotesExistingSettlementBacklog', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'), taskSpec('d', 'gate', ['a']));
		await issue.scheduleOk(['a', 'b']);
		issue.openGate('a', 0);
		await issue.waitActive('task_settled', 'a');
		issue.openGate('b', 0);
		const s = await issue.waitSettlement('b');
		const pendingB = s.checkpoints.find((c) => c.subjectTaskId === 'b')!;
		assert.equal(pendingB.status, 'pending');
		await issue.acceptOk('a'); // d depends on a: the developer's accept makes it ready

		const r = await issue.scheduleOk(['d'], fenceOf(s));
		assert.equal(r.checkpointId, s.activeCheckpoint!.checkpointId);
		const s2 = await issue.get();
		assert.equal(s2.activeCheckpoint?.checkpointId, pendingB.checkpointId, 'schedule promotes the oldest queued settlement');
		assert.equal(s2.activeCheckpoint?.status, 'active');
		assert.equal(s2.activeCheckpoint?.graphRevision, s2.execution.graphRevision);
		assert.equal(s2.execution.status, 'awaiting_main');
		assert.equal(taskIn(s2, 'a').status, 'completed');
		assert.equal(taskIn(s2, 'd').status, 'running');
		assert.equal(s2.activeWake?.checkpointId, pendingB.checkpointId);
	});

	it('GraphMutationRebindsPromotedSettlementBacklog (schedule-driven promotion)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'));
		await issue.scheduleOk(['a', 'b']);
		issue.openGate('a', 0);
		await issue.waitActive('task_settled', 'a');
		issue.openGate('b', 0);
		const s = await issue.waitSettlement('b');
		const revision = s.execution.graphRevision;
		const bCheckpoint = s.checkpoints.find((c) => c.subjectTaskId === 'b')!;
		const m = await issue.mutateOk(addOps(taskSpec('y', 'gate')), fenceOf(s));
		assert.equal(m.graphRevision, revision + 1);
		const s1 = await issue.get();
		assert.equal(s1.activeCheckpoint?.graphRevision, revision + 1, 'the active checkpoint follows the mutation');

		await issue.scheduleOk(['y'], { checkpointId: s.activeCheckpoint!.checkpointId, revision: m.graphRevision });
		const s2 = await issue.get();
		assert.equal(s2.activeCheckpoint?.checkpointId, bCheckpoint.checkpointId);
		assert.equal(s2.execution.graphRevision, revision + 1);
		assert.equal(s2.activeCheckpoint?.graphRevision, revision + 1, 'promotion rebinds the queued checkpoint to the current revision');
		// The promoted checkpoint passes the fence with the current revision (y is running, so acknowledge is eligible).
		await issue.acknowledgeOk({ checkpointId: bCheckpoint.checkpointId, revision: revision + 1 });
	});

	it('GraphMutationRebindsPromotedSettlementBacklog (acknowledge-driven promotion)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'), taskSpec('c', 'gate'));
		await issue.scheduleOk(['a', 'b', 'c']);
		issue.openGate('a', 0);
		await issue.waitActive('task_settled', 'a');
		issue.openGate('b', 0);
		const s = await issue.waitSettlement('b');
		const revision = s.execution.graphRevision;
		const bCheckpoint = s.checkpoints.find((c) => c.subjectTaskId === 'b')!;
		const m = await issue.mutateOk(addOps(taskSpec('z')), fenceOf(s));

		const ack = await issue.acknowledgeOk({ checkpointId: s.activeCheckpoint!.checkpointId, revision: m.graphRevision });
		assert.equal(ack.nextCheckpointId, bCheckpoint.checkpointId);
		assert.equal(ack.nextCheckpointState, 'active');
		const s2 = await issue.get();
		assert.equal(s2.activeCheckpoint?.checkpointId, bCheckpoint.checkpointId);
		assert.equal(s2.activeCheckpoint?.graphRevision, revision + 1, 'promotion rebinds the queued checkpoint to the current revision');
		assert.equal(s2.execution.graphRevision, revision + 1);
		// c still runs: acknowledging the promoted checkpoint at the current revision succeeds.
		await issue.acknowledgeOk({ checkpointId: bCheckpoint.checkpointId, revision: revision + 1 });
	});

	it('ReworkRearmsSupersededTerminalCheckpoint (settle final run → rework while terminal pending → replacement → goal review)', async function () {
		const issue = await managedIssue(host);
		const terminalId = `${executionIdOf(issue.issueId)}:checkpoint:all-tasks-terminal`;
		await issue.addTasks(taskSpec('a'), taskSpec('f', 'gate'));
		await issue.scheduleOk(['a', 'f']);
		const settledA = await issue.waitActive('task_settled', 'a');
		await issue.acknowledgeOk(fenceOf(settledA));

		// The final Run settles: its checkpoint becomes active and the terminal singleton queues behind it.
		issue.openGate('f', 3);
		const failed = await issue.waitActive('task_failed', 'f');
		const queued = failed.checkpoints.find((c) => c.kind === 'all_tasks_terminal');
		assert.equal(queued?.checkpointId, terminalId);
		assert.equal(queued?.status, 'pending');
		assert.ok(queued!.sequence > failed.activeCheckpoint!.sequence);

		// Rework while the terminal checkpoint is pending supersedes it.
		const m = await issue.mutateOk([{ kind: 'rework', taskId: 'f', task: { taskId: 'f2', title: 'F again' } }], fenceOf(failed));
		const reworked = await issue.get();
		assert.ok(!reworked.checkpoints.some((c) => c.kind === 'all_tasks_terminal'), 'the stale terminal checkpoint is superseded');
		assert.equal(reworked.activeCheckpoint?.graphRevision, m.graphRevision);

		await issue.scheduleOk(['f2'], { checkpointId: m.checkpointId, revision: m.graphRevision });
		issue.openGate('f2', 0);
		const settled = await issue.waitActive('task_settled', 'f2');
		await issue.acceptOk('a');
		await issue.acceptOk('f2');
		const rearmed = settled.checkpoints.find((c) => c.kind === 'all_tasks_terminal');
		assert.equal(rearmed?.checkpointId, terminalId, 'the singleton is rearmed, not duplicated');
		assert.equal(rearmed?.status, 'pending');
		assert.ok(rearmed!.sequence > settled.activeCheckpoint!.sequence, 'rearmed after the replacement settlement');
		assert.equal(rearmed?.graphRevision, settled.execution.graphRevision, 'rearmed at the current revision');
		assert.ok(settled.allowedActions.includes('acknowledge'));

		const ack = await issue.acknowledgeOk(fenceOf(settled));
		assert.equal(ack.nextCheckpointId, terminalId);
		assert.equal(ack.nextCheckpointKind, 'all_tasks_terminal');
		assert.equal(ack.nextCheckpointState, 'active');
		const review = await issue.get();
		assert.equal(review.execution.status, 'pending_goal_review');
		assert.equal(review.activeCheckpoint?.checkpointId, terminalId);
		assert.equal(review.activeCheckpoint?.graphRevision, review.execution.graphRevision);
		assert.equal(taskIn(review, 'f2').status, 'completed');
		assert.ok(review.allowedActions.includes('complete'));
		assert.ok(!review.allowedActions.includes('acknowledge'));
		const done = await issue.completeOk(fenceOf(review));
		assert.equal(done.decision, 'goal_satisfied');
		assert.equal(done.executionStatus, 'pending_goal_review');
		await issue.confirmGoalOk();
		assert.equal((await issue.get()).execution.status, 'completed');
	});
});
