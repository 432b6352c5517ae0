// Conformance: materialization and schedule, through the real Host and the real `tutti` CLI.
import { strict as assert } from 'node:assert';
import {
	executionIdOf, expectError, expectOk, fenceOf, managedIssue, methods, openSession, requestId, shareHost, taskIn, taskSpec,
	type CliResult, type HostHandle,
} from '../harness.js';

describe('conformance: materialization and schedule', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('MaterializedPlanRequiresInitialSchedule', async function () {
		const issue = await managedIssue(host);
		const executionId = executionIdOf(issue.issueId);
		const initial = `${executionId}:checkpoint:initial-schedule`;
		assert.equal(issue.created.executionId, executionId);
		assert.equal(issue.created.checkpointId, initial);
		assert.equal(issue.created.graphRevision, 1);
		assert.equal(issue.created.sourceSessionId, issue.source.sessionId);

		const s = await issue.get();
		assert.equal(s.execution.status, 'awaiting_schedule');
		assert.equal(s.execution.graphRevision, 1);
		assert.equal(s.activeCheckpoint?.checkpointId, initial);
		assert.equal(s.activeCheckpoint?.kind, 'initial_schedule');
		assert.equal(s.activeCheckpoint?.status, 'active');
		assert.equal(s.activeCheckpoint?.graphRevision, 1);
		assert.deepEqual(s.tasks, []);
		assert.deepEqual(s.readyTaskIds, []);
		assert.ok(s.allowedActions.includes('mutate') && s.allowedActions.includes('stop'), `allowed: ${s.allowedActions}`);
		for (const never of ['acknowledge', 'complete', 'schedule', 'resume'] as const) {
			assert.ok(!s.allowedActions.includes(never), `${never} must not be allowed at an empty initial_schedule: ${s.allowedActions}`);
		}
		// The active checkpoint owns its deterministic main wake, prepared in the same transaction.
		assert.equal(s.activeWake?.checkpointId, initial);
		assert.equal(s.activeWake?.wakeId, `${initial}:wake:main:1`);
		assert.equal(s.activeWake?.clientSubmitId, `tutti-execution-wake:${initial}:wake:main:1`);

		const m = await issue.addTasks(taskSpec('a'), taskSpec('b', 'ok', ['a']));
		assert.equal(m.graphRevision, 2);
		assert.deepEqual([...m.addedTaskIds].sort(), ['a', 'b']);
		const s2 = await issue.get();
		assert.equal(s2.activeCheckpoint?.checkpointId, initial, 'the initial checkpoint stays active until a schedule');
		assert.equal(s2.activeCheckpoint?.graphRevision, 2, 'mutation rebinds the active checkpoint to the new revision');
		assert.deepEqual(s2.readyTaskIds, ['a']);
		assert.equal(taskIn(s2, 'b').blockerReason, 'dependency_unsatisfied');
		assert.ok(s2.allowedActions.includes('schedule'));
		assert.ok(!s2.allowedActions.includes('acknowledge'));
		expectError(await issue.acknowledge(fenceOf(s2)));

		// No Run is created by materialization or mutation: nothing starts until the source schedules. The schedule
		// is accepted at the fence read before it (the initial checkpoint, revision 2) only if nothing moved meanwhile,
		// and `a` is admitted only if it had not started by itself; its Run is the one this schedule created.
		const s3 = await issue.get();
		for (const task of s3.tasks) {
			assert.equal(task.status, 'not_started', `${task.taskId} must not start by itself`);
			assert.equal(task.latestRunId, '');
		}
		const scheduled = await issue.scheduleOk(['a'], fenceOf(s2));
		const s4 = await issue.get();
		assert.deepEqual(scheduled.runIds, [taskIn(s4, 'a').latestRunId]);
		assert.equal(taskIn(s4, 'b').latestRunId, '', 'the dependent never starts by itself');
	});

	it('plan issue create replays its request id and rejects a different payload', async function () {
		const source = await openSession(host, 'source');
		const rid = requestId('create');
		const create = (title: string): Promise<CliResult> =>
			host.cli(['plan', 'issue', 'create', '--title', title, '--content', 'Goal.', '--request-id', rid, '--json'], { token: source.token });
		const first = methods['plan/create'].result.parse(expectOk(await create('Replayed')));
		host.track(first.issueId);
		assert.equal(first.replayed, false);
		const again = methods['plan/create'].result.parse(expectOk(await create('Replayed')));
		assert.equal(again.replayed, true);
		assert.equal(again.issueId, first.issueId);
		assert.equal(again.checkpointId, first.checkpointId);
		expectError(await create('Something else'), 'request_id_conflict', 1);
	});

	it('SourceSchedulesExactSet', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'), taskSpec('c', 'gate'));
		const s = await issue.get();
		assert.deepEqual([...s.readyTaskIds].sort(), ['a', 'b', 'c']);
		const r = await issue.scheduleOk(['a', 'b'], fenceOf(s));
		assert.equal(r.runIds.length, 2);
		assert.equal(r.checkpointId, s.activeCheckpoint!.checkpointId);
		assert.equal(r.graphRevision, s.execution.graphRevision);
		assert.equal(r.replayed, false);

		const s2 = await issue.get();
		for (const id of ['a', 'b']) {
			assert.equal(taskIn(s2, id).status, 'running');
			assert.ok(r.runIds.includes(taskIn(s2, id).latestRunId), `${id}'s Run is one of the returned runIds`);
		}
		const c = taskIn(s2, 'c');
		assert.equal(c.status, 'not_started', 'schedule never fills capacity with tasks outside the set');
		assert.equal(c.latestRunId, '');
		assert.equal(s2.execution.status, 'running');
		assert.equal(s2.activeCheckpoint, null, 'schedule resolved the initial checkpoint and no backlog exists');
		assert.deepEqual(s2.allowedActions, []);
		for (const runId of r.runIds) {
			const run = await issue.run(runId);
			assert.equal(run.status, 'running');
			assert.equal(run.issueId, issue.issueId);
			assert.equal(run.agentTargetId, 'gate');
			assert.equal(run.outcome, null);
		}
		// The resolved checkpoint no longer admits work.
		expectError(await issue.schedule(['c'], fenceOf(s)), 'inactive_execution', 1);
	});

	it('ScheduleRejectsInvalidSetAtomically', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate', ['a']));
		const s = await issue.get();
		const fence = fenceOf(s);
		expectError(await issue.schedule(['a', 'b'], fence), 'dependency_unsatisfied', 1);
		expectError(await issue.schedule(['a', 'ghost'], fence), 'task_not_found', 1);
		expectError(await issue.schedule('[]', fence), undefined, 2);
		expectError(await issue.schedule('not json', fence), undefined, 2);

		const s2 = await issue.get();
		for (const id of ['a', 'b']) {
			assert.equal(taskIn(s2, id).status, 'not_started', `${id} must not start from a rejected set`);
			assert.equal(taskIn(s2, id).latestRunId, '');
		}
		assert.equal(s2.execution.graphRevision, s.execution.graphRevision);
		assert.equal(s2.activeCheckpoint?.checkpointId, s.activeCheckpoint?.checkpointId);
		assert.equal(s2.activeCheckpoint?.status, 'active');

		const ok = await issue.scheduleOk(['a'], fence);
		assert.equal(ok.runIds.length, 1);
	});

	it('ScheduleRequestIdentityIsIdempotent (replay before fences; request_id_conflict)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('b', 'gate'));
		const s = await issue.get();
		const rid = requestId('schedule');
		const first = await issue.scheduleOk(['a'], fenceOf(s, { requestId: rid }));
		assert.equal(first.replayed, false);
		// The checkpoint is resolved now; the same request still replays its original result.
		const replay = await issue.scheduleOk(['a'], fenceOf(s, { requestId: rid }));
		assert.equal(replay.replayed, true);
		assert.deepEqual(replay.runIds, first.runIds);
		assert.equal(replay.checkpointId, first.checkpointId);
		expectError(await issue.schedule(['b'], fenceOf(s, { requestId: rid })), 'request_id_conflict', 1);
		expectError(await issue.schedule(['a'], fenceOf(s, { requestId: rid, revision: s.execution.graphRevision + 5 })), 'request_id_conflict', 1);

		const s2 = await issue.get();
		assert.equal(taskIn(s2, 'a').latestRunId, first.runIds[0]);
		assert.equal(taskIn(s2, 'b').status, 'not_started');
		const runs = methods['run/list'].result.parse(expectOk(await issue.cli(['run', 'list', '--issue-id', issue.issueId, '--json'])));
		assert.deepEqual(runs.runs.map((r) => r.runId), first.runIds, 'a replay never creates a second Run');
	});
});
