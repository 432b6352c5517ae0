// Conformance: graph mutation — fences, replay, all-or-none, the strict operations shape,
// sparse rework after failed and canceled Runs, and logical supersession.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
	addOps, expectError, expectOk, fenceOf, issueGet, managedIssue, methods, openSession, requestId, shareHost, taskIn, taskSpec,
	type HostHandle,
} from '../harness.js';

describe('conformance: mutation', function () {
	let host: HostHandle;
	shareHost((h) => {
		host = h;
		mkdirSync(join(host.workspace, 'sub'), { recursive: true });
	});

	it('MutationFencesReplayAndSchedulesReturnedRevision', async function () {
		const issue = await managedIssue(host);
		const s = await issue.get();
		const checkpointId = s.activeCheckpoint!.checkpointId;
		const other = await openSession(host, 'source');
		const ops = addOps(taskSpec('a', 'gate'));

		expectError(await issue.mutate(ops, { checkpointId, revision: 1, token: other.token }), 'wrong_source_session', 1);
		expectError(await issue.mutate(ops, { checkpointId, revision: 2 }), 'stale_graph_revision', 1);
		expectError(await issue.mutate(ops, { checkpointId: `${checkpointId}:nope`, revision: 1 }), 'inactive_checkpoint', 1);
		assert.equal((await issue.get()).execution.graphRevision, 1, 'a fenced-out mutation changes nothing');

		const rid = requestId('mutate');
		const m = await issue.mutateOk(ops, { checkpointId, revision: 1, requestId: rid });
		assert.equal(m.graphRevision, 2);
		assert.deepEqual(m.addedTaskIds, ['a']);
		assert.equal(m.replayed, false);
		const replay = await issue.mutateOk(ops, { checkpointId, revision: 1, requestId: rid });
		assert.equal(replay.replayed, true);
		assert.equal(replay.graphRevision, 2);
		assert.deepEqual(replay.addedTaskIds, ['a']);
		expectError(await issue.mutate(addOps(taskSpec('z')), { checkpointId, revision: 1, requestId: rid }), 'request_id_conflict', 1);

		const s2 = await issue.get();
		assert.equal(s2.execution.graphRevision, 2);
		assert.deepEqual(s2.tasks.map((t) => t.taskId), ['a'], 'neither the replay nor the conflict added anything');
		assert.equal(s2.activeCheckpoint?.graphRevision, 2);

		expectError(await issue.schedule(['a'], { checkpointId, revision: 1 }), 'stale_graph_revision', 1);
		const scheduled = await issue.scheduleOk(['a'], { checkpointId, revision: m.graphRevision });
		assert.equal(scheduled.runIds.length, 1);
		// Replay is checked before fences: the checkpoint is resolved, the original result still comes back.
		const late = await issue.mutateOk(ops, { checkpointId, revision: 1, requestId: rid });
		assert.equal(late.replayed, true);
		assert.equal(late.graphRevision, 2);
	});

	it('MutationOperationsCommitAllOrNone', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'));
		const s = await issue.get();
		const rejected: [unknown[], string | readonly string[]][] = [
			[addOps(taskSpec('b'), taskSpec('c', 'ok', ['ghost'])), ['dependency_unsatisfied', 'task_not_found']],
			[addOps(taskSpec('p', 'ok', ['q']), taskSpec('q', 'ok', ['p'])), 'invalid_task_graph'],
			[addOps(taskSpec('b'), taskSpec('a')), 'duplicate_task'],
			[addOps({ taskId: 'b', title: 'No target' }), 'missing_agent_target'],
			[[...addOps(taskSpec('b')), { kind: 'update', taskId: 'a', task: { title: 'Renamed' } }, { kind: 'supersede', taskId: 'ghost' }], 'task_not_found'],
		];
		for (const [ops, reason] of rejected) {
			expectError(await issue.mutate(ops, fenceOf(s)), reason);
			const after = await issue.get();
			assert.equal(after.execution.graphRevision, s.execution.graphRevision, `${JSON.stringify(ops)} must commit nothing`);
			assert.deepEqual(after.tasks.map((t) => [t.taskId, t.title]), [['a', 'Task a']], `${JSON.stringify(ops)} must commit nothing`);
		}
		const m = await issue.mutateOk([...addOps(taskSpec('b', 'ok', ['a'])), { kind: 'update', taskId: 'a', task: { title: 'Renamed' } }], fenceOf(s));
		assert.equal(m.graphRevision, s.execution.graphRevision + 1, 'one mutation, one revision');
		assert.deepEqual(m.addedTaskIds, ['b']);
		assert.deepEqual(m.updatedTaskIds, ['a']);
		const s2 = await issue.get();
		assert.equal(taskIn(s2, 'a').title, 'Renamed');
		assert.deepEqual(taskIn(s2, 'b').dependencyTaskIds, ['a']);
	});

	it('rejects op/replacement aliases with an actionable message naming kind and task (exit 2)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'));
		const s = await issue.get();
		const aliases = [
			'[{"op":"add","task":{"taskId":"b","title":"B","agentTargetId":"ok"}}]',
			'[{"kind":"rework","taskId":"a","replacement":{"taskId":"a2","title":"A2"}}]',
		];
		for (const json of aliases) {
			const error = expectError(await issue.mutate(json, fenceOf(s)), 'invalid_mutation_operation', 2);
			assert.match(error.message, /\bkind\b/, `the message names "kind": ${error.message}`);
			assert.match(error.message, /\btask\b/, `the message names "task": ${error.message}`);
			assert.match(error.message, /op and replacement/);
		}
		expectError(await issue.mutate('[{"kind":"delete","taskId":"a"}]', fenceOf(s)), 'invalid_mutation_operation', 2);
		expectError(await issue.mutate('{"kind":"add"}', fenceOf(s)), ['invalid_mutation_operation', 'invalid_input'], 2);
		expectError(await issue.mutate('[]', fenceOf(s)), ['invalid_mutation_operation', 'invalid_input'], 2);
		const after = await issue.get();
		assert.equal(after.execution.graphRevision, s.execution.graphRevision);
		assert.deepEqual(after.tasks.map((t) => t.taskId), ['a']);
	});

	it('FailedTaskReworkInheritsLaunchAndRebindsDependents', async function () {
		const issue = await managedIssue(host);
		const launch = { model: 'model-f', permissionModeId: 'perm-f', reasoningEffort: 'high', executionDirectory: 'sub' };
		await issue.addTasks(taskSpec('base'), taskSpec('f', 'gate', ['base'], launch), taskSpec('d', 'ok', ['f']));
		await issue.scheduleOk(['base']);
		await issue.waitActive('task_settled', 'base');
		await issue.acceptOk('base'); // f waited on base: the acceptance is the source agent's checkpoint at once
		const accepted = await issue.get();
		assert.equal(accepted.activeCheckpoint?.kind, 'task_accepted');
		await issue.scheduleOk(['f'], fenceOf(accepted));
		await issue.waitGateStarted('f');
		issue.openGate('f', 3);
		const failed = await issue.waitActive('task_failed', 'f');
		const f = taskIn(failed, 'f');
		assert.equal(f.status, 'failed');
		assert.equal(taskIn(failed, 'd').blockerReason, 'dependency_unsatisfied');
		const failedRun = await issue.run(f.latestRunId);
		assert.equal(failedRun.outcome, 'failure');
		assert.equal(failedRun.exitCode, 3);

		// Sparse rework: only a new id, title and content.
		const m = await issue.mutateOk([{ kind: 'rework', taskId: 'f', task: { taskId: 'f2', title: 'F again', content: 'Try again.' } }], fenceOf(failed));
		assert.deepEqual(m.addedTaskIds, ['f2']);
		assert.deepEqual(m.supersededTaskIds, ['f']);
		assert.equal(m.checkpointId, failed.activeCheckpoint!.checkpointId);
		const s = await issue.get();
		const f2 = taskIn(s, 'f2');
		assert.equal(f2.agentTargetId, 'gate', 'inherits the Agent target');
		assert.equal(f2.model, launch.model);
		assert.equal(f2.permissionModeId, launch.permissionModeId);
		assert.equal(f2.reasoningEffort, launch.reasoningEffort);
		assert.equal(f2.executionDirectory, f.executionDirectory);
		assert.deepEqual(f2.dependencyTaskIds, ['base'], 'inherits dependencies');
		assert.equal(f2.status, 'not_started');
		assert.equal(f2.ready, true);
		const old = taskIn(s, 'f');
		assert.ok(old.supersededAtUnixMs > 0, 'the old task stays as history');
		assert.equal(old.supersededByTaskId, 'f2');
		assert.equal(old.status, 'failed');
		assert.equal(old.latestRunId, f.latestRunId, 'its Run stays as history');
		assert.equal(old.blockerReason, 'task_superseded');
		assert.deepEqual(taskIn(s, 'd').dependencyTaskIds, ['f2'], 'dependents are redirected to the replacement');
		assert.equal(s.activeCheckpoint?.checkpointId, failed.activeCheckpoint!.checkpointId);
		assert.equal(s.activeCheckpoint?.graphRevision, m.graphRevision);
		assert.equal((await issue.run(f.latestRunId)).outcome, 'failure');

		// Completed tasks cannot be reworked; nothing changes.
		expectError(await issue.mutate([{ kind: 'rework', taskId: 'base', task: { taskId: 'base2' } }], { checkpointId: m.checkpointId, revision: m.graphRevision }));

		await issue.scheduleOk(['f2'], { checkpointId: m.checkpointId, revision: m.graphRevision });
		issue.openGate('f2', 0);
		const s2 = await issue.waitActive('task_settled', 'f2');
		assert.deepEqual(s2.readyTaskIds, [], 'd waits for the developer to accept f2');
		await issue.acceptOk('f2');
		assert.deepEqual((await issue.get()).readyTaskIds, ['d']);
	});

	it('CanceledTaskReworkInheritsLaunchAndSchedulesReplacement', async function () {
		const issue = await managedIssue(host);
		const launch = { model: 'model-c', permissionModeId: 'perm-c', reasoningEffort: 'medium' };
		await issue.addTasks(taskSpec('c', 'gate', [], { ...launch, content: 'Original content.' }), taskSpec('e', 'ok', ['c']));
		const scheduled = await issue.scheduleOk(['c']);
		const runId = scheduled.runIds[0]!;
		await issue.waitGateStarted('c');
		const stop = methods['run/stop'].result.parse(expectOk(await host.cli(['run', 'stop', '--run-id', runId, '--as-user', '--json'])));
		assert.equal(stop.answer, 'took');
		const canceled = await issue.waitActive('task_canceled', 'c');
		assert.equal(taskIn(canceled, 'c').status, 'canceled');
		const run = await issue.run(runId);
		assert.equal(run.outcome, 'cancellation');
		assert.equal(run.stopNotes[0]?.eventId, stop.eventId);

		const m = await issue.mutateOk([{ kind: 'rework', taskId: 'c', task: { taskId: 'c2', title: 'C again', reasoningEffort: 'low' } }], fenceOf(canceled));
		const s = await issue.get();
		const c2 = taskIn(s, 'c2');
		assert.equal(c2.agentTargetId, 'gate');
		assert.equal(c2.model, launch.model);
		assert.equal(c2.permissionModeId, launch.permissionModeId);
		assert.equal(c2.reasoningEffort, 'low', 'an explicit replacement value overrides the inherited one');
		assert.equal(c2.content, 'Original content.', 'omitted fields are inherited, not cleared');
		assert.deepEqual(taskIn(s, 'e').dependencyTaskIds, ['c2']);
		assert.equal(taskIn(s, 'c').supersededByTaskId, 'c2');
		assert.equal(taskIn(s, 'c').status, 'canceled');

		const again = await issue.scheduleOk(['c2'], { checkpointId: m.checkpointId, revision: m.graphRevision });
		assert.equal(again.runIds.length, 1);
		issue.openGate('c2', 0);
		await issue.waitActive('task_settled', 'c2');
	});

	it('LogicalSupersessionPreservesHistoryAndRequiresSettlement', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('x', 'gate'), taskSpec('b'), taskSpec('c', 'ok', ['b']));
		await issue.scheduleOk(['a', 'x']);
		issue.openGate('x', 0);
		const s = await issue.waitActive('task_settled', 'x');
		assert.equal(taskIn(s, 'a').status, 'running');

		expectError(await issue.mutate([{ kind: 'supersede', taskId: 'a' }], fenceOf(s)));
		expectError(await issue.mutate([{ kind: 'supersede', taskId: 'b' }], fenceOf(s)), 'dependency_unsatisfied');
		expectError(await issue.mutate([{ kind: 'supersede', taskId: 'c', task: { title: 'no' } }], fenceOf(s)), 'invalid_mutation_operation', 2);
		assert.equal((await issue.get()).execution.graphRevision, s.execution.graphRevision);

		const m = await issue.mutateOk([{ kind: 'supersede', taskId: 'c' }, { kind: 'supersede', taskId: 'b' }], fenceOf(s));
		assert.deepEqual([...m.supersededTaskIds].sort(), ['b', 'c']);
		const s2 = await issue.get();
		for (const id of ['b', 'c']) {
			const t = taskIn(s2, id);
			assert.ok(t.supersededAtUnixMs > 0);
			assert.equal(t.status, 'not_started');
			assert.equal(t.ready, false);
			assert.equal(t.blockerReason, 'task_superseded');
		}
		assert.ok(!s2.readyTaskIds.includes('b') && !s2.readyTaskIds.includes('c'));
		const board = await issueGet(host, issue.issueId, { token: issue.source.token });
		assert.equal(board.taskCount, 2, 'counts exclude superseded tasks');
		expectError(await issue.schedule(['b'], fenceOf(s2)), 'task_superseded');

		// Once the running task settles it may be superseded; its Run stays as history.
		const runA = taskIn(s2, 'a').latestRunId;
		issue.openGate('a', 3);
		await issue.waitSettlement('a');
		const ack = await issue.acknowledgeOk(fenceOf(await issue.get()));
		assert.equal(ack.nextCheckpointKind, 'task_failed');
		const m2 = await issue.mutateOk([{ kind: 'supersede', taskId: 'a' }], fenceOf(await issue.get()));
		assert.deepEqual(m2.supersededTaskIds, ['a']);
		const s3 = await issue.get();
		assert.equal(taskIn(s3, 'a').status, 'failed');
		assert.equal(taskIn(s3, 'a').latestRunId, runA);
		assert.equal((await issue.run(runA)).outcome, 'failure');
	});
});
