// Conformance: acknowledge fences and eligibility, mixed outcomes, and Goal Review completion.
import { strict as assert } from 'node:assert';
import {
	executionIdOf, expectError, expectOk, fenceOf, managedIssue, methods, openSession, requestId, shareHost, taskIn, taskSpec,
	type HostHandle,
} from '../harness.js';

describe('conformance: acknowledge and goal review', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('AcknowledgeFencesAndDrainsBacklogIntoGoalReview', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'));
		await issue.scheduleOk(['a', 'b']);
		issue.openGate('a', 0);
		await issue.waitActive('task_settled', 'a');
		issue.openGate('b', 0);
		const s = await issue.waitSnapshot((x) => x.checkpoints.some((c) => c.kind === 'all_tasks_terminal'), 'the terminal checkpoint');
		const active = s.activeCheckpoint!;
		const revision = s.execution.graphRevision;
		const queuedB = s.checkpoints.find((c) => c.subjectTaskId === 'b')!;

		expectError(await issue.acknowledge({ checkpointId: active.checkpointId, revision: revision + 1 }), 'inactive_checkpoint', 1);
		expectError(await issue.acknowledge({ checkpointId: queuedB.checkpointId, revision }), 'inactive_checkpoint', 1);
		const other = await openSession(host, 'source');
		expectError(await issue.acknowledge({ checkpointId: active.checkpointId, revision, token: other.token }), ['inactive_checkpoint', 'wrong_source_session'], 1);
		assert.equal((await issue.get()).activeCheckpoint?.checkpointId, active.checkpointId, 'rejected acknowledgements change nothing');

		const rid = requestId('ack');
		const first = await issue.acknowledgeOk({ checkpointId: active.checkpointId, revision, requestId: rid });
		assert.equal(first.nextCheckpointId, queuedB.checkpointId);
		assert.equal(first.nextCheckpointKind, 'task_settled');
		const replay = await issue.acknowledgeOk({ checkpointId: active.checkpointId, revision, requestId: rid });
		assert.equal(replay.replayed, true);
		assert.equal(replay.nextCheckpointId, first.nextCheckpointId);

		const second = await issue.acknowledgeOk(fenceOf(await issue.get()));
		assert.equal(second.nextCheckpointId, `${executionIdOf(issue.issueId)}:checkpoint:all-tasks-terminal`);
		assert.equal(second.nextCheckpointKind, 'all_tasks_terminal');
		assert.equal(second.nextCheckpointState, 'active');
		const review = await issue.get();
		assert.equal(review.execution.status, 'pending_goal_review');
		for (const id of ['a', 'b']) {
			assert.equal(taskIn(review, id).status, 'pending_acceptance', 'acknowledge never accepts (only the developer does)');
			assert.equal(taskIn(review, id).acceptanceState, 'agent_claimed');
		}
		assert.ok(!review.allowedActions.includes('acknowledge'), 'Goal Review is never acknowledged');
		assert.ok(!review.allowedActions.includes('schedule'));
		expectError(await issue.acknowledge(fenceOf(review)));
	});

	it('AcknowledgeEligibilityUsesActiveWorkOrBacklog', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'), taskSpec('d', 'ok', ['a']));
		await issue.scheduleOk(['a', 'b']);
		issue.openGate('a', 0);
		const running = await issue.waitActive('task_settled', 'a');
		assert.ok(running.allowedActions.includes('acknowledge'), 'eligible while a Run is running');

		issue.openGate('b', 0);
		const queued = await issue.waitSnapshot((x) => x.checkpoints.some((c) => c.subjectTaskId === 'b') && taskIn(x, 'b').status !== 'running', 'b settled');
		assert.ok(queued.allowedActions.includes('acknowledge'), 'eligible while a later checkpoint is queued');
		await issue.acknowledgeOk(fenceOf(queued));

		// b's checkpoint is active now: nothing runs, nothing is queued (d is not started, so no terminal checkpoint).
		const idle = await issue.get();
		assert.equal(idle.activeCheckpoint?.subjectTaskId, 'b');
		assert.equal(idle.checkpoints.length, 1);
		assert.ok(!idle.allowedActions.includes('acknowledge'), `no active work and no backlog: ${idle.allowedActions}`);
		expectError(await issue.acknowledge(fenceOf(idle)), 'inactive_checkpoint', 1);
		assert.deepEqual(idle.readyTaskIds, [], 'd waits for the developer to accept a');
		await issue.acceptOk('a');
		const accepted = await issue.get();
		assert.deepEqual(accepted.readyTaskIds, ['d'], 'the source must decide: schedule the next step');
		await issue.scheduleOk(['d'], fenceOf(accepted));
	});

	it('MixedTerminalOutcomesReachGoalReview', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('s'), taskSpec('f', 'fail'), taskSpec('c', 'gate'));
		await issue.scheduleOk(['s', 'f', 'c']);
		await issue.waitGateStarted('c');
		const runC = taskIn(await issue.get(), 'c').latestRunId;
		expectOk(await host.cli(['run', 'stop', '--run-id', runC, '--as-user', '--json']));
		const s = await issue.waitSnapshot((x) => x.checkpoints.some((c) => c.kind === 'all_tasks_terminal'), 'the terminal checkpoint');
		const kinds = s.checkpoints.filter((c) => c.subjectTaskId).map((c) => `${c.subjectTaskId}:${c.kind}`).sort();
		assert.deepEqual(kinds, ['c:task_canceled', 'f:task_failed', 's:task_settled']);

		let current = s;
		for (let i = 0; i < 5 && current.activeCheckpoint?.kind !== 'all_tasks_terminal'; i++) {
			await issue.acknowledgeOk(fenceOf(current));
			current = await issue.get();
		}
		assert.equal(current.activeCheckpoint?.kind, 'all_tasks_terminal');
		assert.equal(current.execution.status, 'pending_goal_review');
		await issue.acceptOk('s');
		assert.deepEqual((await issue.get()).tasks.map((t) => [t.taskId, t.status]), [['s', 'completed'], ['f', 'failed'], ['c', 'canceled']]);
		await issue.completeOk(fenceOf(current));
		await issue.confirmGoalOk();
		assert.equal((await issue.get()).execution.status, 'completed');
	});

	it('GoalReviewRequiresExplicitMainCompletion (+ idempotent completion replay)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'));
		await issue.scheduleOk(['a']);
		const settled = await issue.waitActive('task_settled', 'a');
		expectError(await issue.complete(fenceOf(settled)), undefined, 1);
		await issue.acceptOk('a');
		await issue.acknowledgeOk(fenceOf(settled));

		const review = await issue.get();
		assert.equal(review.execution.status, 'pending_goal_review');
		// Completion is never inferred from task states: the source's own complete below is the one that resolves this
		// checkpoint (replayed: false, at this fence), after the rejected attempts and reads in between.
		const fence = fenceOf(review);

		const other = await openSession(host, 'source');
		expectError(await issue.complete({ ...fence, token: other.token }), ['inactive_checkpoint', 'wrong_source_session'], 1);
		expectError(await issue.complete({ ...fence, revision: fence.revision! + 1 }), 'inactive_checkpoint', 1);
		const badDecision = await issue.cli(['plan', 'issue', 'complete', '--issue-id', issue.issueId, '--checkpoint-id', fence.checkpointId!,
			'--expected-graph-revision', String(fence.revision), '--decision', 'more_work_required', '--request-id', requestId(), '--json']);
		expectError(badDecision, undefined, 2);
		assert.equal((await issue.get()).execution.status, 'pending_goal_review');

		const rid = requestId('complete');
		const done = await issue.completeOk({ ...fence, requestId: rid });
		assert.equal(done.decision, 'goal_satisfied');
		assert.equal(done.replayed, false, 'completion is never inferred from task states: this call completes it');
		assert.equal(done.checkpointId, fence.checkpointId);
		const replay = await issue.completeOk({ ...fence, requestId: rid });
		assert.equal(replay.replayed, true);
		assert.equal(replay.executionId, done.executionId);
		expectError(await issue.complete({ ...fence, requestId: rid }, ['--disagreement-reason', 'changed my mind']), 'request_id_conflict', 1);
		assert.equal(done.executionStatus, 'pending_goal_review', 'developer confirmation is on by default');
		await issue.confirmGoalOk();

		const final = await issue.get();
		assert.equal(final.execution.status, 'completed');
		assert.equal(final.activeCheckpoint, null);
		assert.deepEqual(final.allowedActions, []);
		expectError(await issue.mutate([{ kind: 'add', task: taskSpec('late') }], fence));
		const board = methods['issue/get'].result.parse(expectOk(await issue.cli(['issue', 'get', '--issue-id', issue.issueId, '--json'])));
		assert.equal(board.taskCount, 1);
	});
});
