import { strict as assert } from 'node:assert';
import { invalidInputReasons } from '../../../../src/core/errors.js';
import { parseWakeMarker } from '../../../../src/core/wakes/wakeMarker.js';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { PlanKit, rejects, taskSpec, user } from './planKit.js';

describe('plan service: materialization, caller authority and fences', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	it('MaterializedPlanRequiresInitialSchedule: issue, execution, active initial checkpoint and its prepared wake, no Run', async () => {
		const source = await kit.session('source');
		const now = kit.clock.now();
		const created = await kit.plan.create({ title: 'Ship it', content: 'The goal', requestId: 'create-1' }, source);
		assert.equal(created.replayed, false);
		assert.equal(created.sourceSessionId, source.sessionId);
		assert.equal(created.executionId, `tutti-execution:${created.issueId}`);
		assert.equal(created.checkpointId, `${created.executionId}:checkpoint:initial-schedule`);
		assert.equal(created.graphRevision, 1);

		const issue = kit.store.read((r) => issueRepository.get(r, created.issueId))!;
		assert.equal(issue.planningSource, 'tutti');
		assert.equal(issue.sourceSessionId, source.sessionId);
		assert.equal(issue.autoAcceptDefault, false, 'managed tasks need acceptance by default');
		const execution = kit.store.read((r) => executionRepository.getByIssue(r, created.issueId))!;
		assert.equal(execution.status, 'awaiting_schedule');
		assert.equal(execution.graphRevision, 1);
		assert.equal(execution.activeCheckpointId, created.checkpointId);
		assert.equal(execution.watchdogDueAtUnixMs, now + 5 * 60_000);

		const snapshot = await kit.plan.get({ issueId: created.issueId }, source);
		assert.deepEqual(snapshot.checkpoints.map((c) => [c.kind, c.status, c.sequence, c.graphRevision]), [['initial_schedule', 'active', 1, 1]]);
		assert.deepEqual(snapshot.allowedActions, ['mutate', 'stop'], 'no task is ready, never acknowledge');
		const wake = snapshot.activeWake!;
		assert.equal(wake.wakeId, `${created.checkpointId}:wake:main:1`);
		assert.equal(wake.clientSubmitId, `tutti-execution-wake:${wake.wakeId}`);
		assert.equal(wake.status, 'prepared');
		assert.deepEqual(parseWakeMarker(wake.prompt)?.marker, { v: 1, kind: 'initial_schedule', issueId: created.issueId, checkpointId: created.checkpointId, graphRevision: 1 });
		assert.equal(kit.store.read((r) => runRepository.listByIssue(r, created.issueId)).length, 0);
	});

	it('create needs a source session and replays by request id', async () => {
		const worker = await kit.session('worker');
		await rejects(kit.plan.create({ title: 'T', content: 'C', requestId: 'r' }, worker), 'wrong_source_session');
		await rejects(kit.plan.create({ title: 'T', content: 'C', requestId: 'r' }, user), 'wrong_source_session');
		const source = await kit.session('source');
		const first = await kit.plan.create({ title: 'T', content: 'C', requestId: 'r' }, source);
		const again = await kit.plan.create({ title: 'T', content: 'C', requestId: 'r' }, source);
		assert.equal(again.replayed, true);
		assert.equal(again.issueId, first.issueId);
		assert.equal(kit.store.read((r) => issueRepository.list(r)).length, 1);
		await rejects(kit.plan.create({ title: 'Other', content: 'C', requestId: 'r' }, source), 'request_id_conflict');
		// Auto-accept where the setting asks the developer is the developer's; asking for the developer is the source's.
		await rejects(kit.plan.create({ title: 'T', content: 'C', requestId: 'r2', autoAccept: true }, source), 'forbidden');
		const explicit = await kit.plan.create({ title: 'T', content: 'C', requestId: 'r3', autoAccept: false }, source);
		assert.equal(kit.store.read((r) => issueRepository.get(r, explicit.issueId))!.autoAcceptDefault, false);
	});

	it('get is for the source session and the developer; other sessions get wrong_source_session', async () => {
		const issue = await kit.managedIssue([taskSpec('a')]);
		assert.equal((await issue.get(user)).issueId, issue.issueId);
		await rejects(issue.get(await kit.session('source')), 'wrong_source_session');
		await rejects(issue.get(await kit.session('worker')), 'wrong_source_session');
		await rejects(kit.plan.get({ issueId: 'nope' }, issue.source), 'execution_not_found');
	});

	it('schedule and mutate fences: wrong source → stale revision → inactive execution → inactive checkpoint → checkpoint revision', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		const fence = await issue.fence();
		assert.equal(fence.expectedGraphRevision, 2);
		const other = await kit.session('source');
		const worker = await kit.session('worker');
		for (const caller of [other, worker, user]) {
			// Every other fence is wrong too: the caller is checked first.
			await rejects(issue.schedule(['a'], { caller, checkpointId: 'nope', expectedGraphRevision: 9 }), 'wrong_source_session');
			await rejects(issue.mutate([{ kind: 'add', task: taskSpec('x') }], { caller, checkpointId: 'nope', expectedGraphRevision: 9 }), 'wrong_source_session');
		}
		await rejects(issue.schedule(['a'], { checkpointId: 'nope', expectedGraphRevision: 1 }), 'stale_graph_revision');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('x') }], { checkpointId: 'nope', expectedGraphRevision: 3 }), 'stale_graph_revision');
		await rejects(issue.schedule(['a'], { checkpointId: 'nope' }), 'inactive_checkpoint');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('x') }], { checkpointId: `${fence.checkpointId}x` }), 'inactive_checkpoint');

		// A checkpoint bound to a trailing revision (what a promotion without rebinding would leave) is its own reason.
		await kit.store.transaction((tx) => { tx.run('UPDATE checkpoints SET graph_revision = 1 WHERE checkpoint_id = ?', [fence.checkpointId]); });
		await rejects(issue.schedule(['a'], fence), 'stale_graph_revision', /bound to revision 1/);
		await kit.store.transaction((tx) => { tx.run('UPDATE checkpoints SET graph_revision = 2 WHERE checkpoint_id = ?', [fence.checkpointId]); });

		await issue.schedule(['a', 'b'], fence);
		assert.equal(issue.execution().status, 'running');
		await rejects(issue.schedule(['a'], { ...fence }), 'inactive_execution');
	});

	it('acknowledge, complete and stop report every fence failure past the caller as inactive_checkpoint', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		await issue.schedule(['a', 'b']);
		await kit.settle(await issue.runOf('a'), 'success');
		const fence = await issue.fence();
		const wrong = [
			{ checkpointId: 'nope', expectedGraphRevision: fence.expectedGraphRevision },
			{ checkpointId: fence.checkpointId, expectedGraphRevision: fence.expectedGraphRevision + 1 },
			{ checkpointId: fence.checkpointId, expectedGraphRevision: fence.expectedGraphRevision - 1 },
		];
		for (const f of wrong) {
			await rejects(issue.acknowledge(f), 'inactive_checkpoint');
			await rejects(issue.complete(f), 'inactive_checkpoint');
			await rejects(issue.stop('no', f), 'inactive_checkpoint');
		}
		await rejects(issue.complete(fence), 'inactive_checkpoint', /not current/);
		const other = await kit.session('source');
		await rejects(issue.acknowledge({ ...fence, caller: other }), ['inactive_checkpoint', 'wrong_source_session']);
		await rejects(issue.stop('no', { ...fence, caller: user }), ['inactive_checkpoint', 'wrong_source_session']);
		assert.equal(issue.execution().status, 'awaiting_main', 'nothing changed');
	});

	it('strict operations: op and replacement aliases and other malformed shapes are invalid input naming kind and task, before any fence', async () => {
		// Text that is not JSON never reaches the Host: the CLI refuses it in the same words (test/unit/cli/parseCommandLine.test.ts).
		const issue = await kit.managedIssue([taskSpec('a')]);
		const stale = { checkpointId: 'nope', expectedGraphRevision: 99 };
		const cases: unknown[] = [
			[{ op: 'supersede', taskId: 'a' }],
			[{ kind: 'rework', taskId: 'a', replacement: { taskId: 'a2' } }],
			[{ kind: 'delete', taskId: 'a' }],
			{ kind: 'supersede', taskId: 'a' },
			[],
			'[{"kind":"supersede","taskId":"a"}]',
		];
		for (const operations of cases) {
			const e = await rejects(issue.mutate(operations, stale), 'invalid_mutation_operation');
			assert.ok(invalidInputReasons.has(e.reasonCode), 'exit-2 class');
			assert.match(e.message, /kind/);
			assert.match(e.message, /"task"/);
			assert.match(e.message, /op and replacement are not supported/);
		}
		const s = await issue.get();
		assert.equal(s.execution.graphRevision, 2);
		assert.deepEqual(s.tasks.map((t) => [t.taskId, t.supersededAtUnixMs]), [['a', 0]]);
	});

	it('mutation commits all operations or none', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		await issue.schedule(['a']);
		await kit.settle(await issue.runOf('a'), 'failure');
		const before = await issue.get();
		await rejects(issue.mutate([
			{ kind: 'add', task: taskSpec('c') },
			{ kind: 'update', taskId: 'b', task: { title: 'Renamed' } },
			{ kind: 'update', taskId: 'a', task: { title: 'Failed tasks cannot be updated' } },
		]), 'task_not_started');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('d') }, { kind: 'add', task: taskSpec('d') }]), 'duplicate_task');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('e', { agentTargetId: 'unknown' }) }]), 'missing_agent_target');
		const after = await issue.get();
		assert.deepEqual(after.tasks, before.tasks);
		assert.equal(after.execution.graphRevision, before.execution.graphRevision);
		assert.deepEqual(after.activeCheckpoint, before.activeCheckpoint);
	});

	it('request ids: replay returns the stored result before fences; a new payload conflicts; rejections are not recorded', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const fence = await issue.fence();
		await rejects(issue.schedule(['a', 'zzz'], { ...fence, requestId: 'sched' }), 'task_not_found');
		const first = await issue.schedule(['a', 'b'], { ...fence, requestId: 'sched' });
		assert.equal(first.replayed, false, 'the corrected retry with the same id is not a conflict');
		assert.equal(first.runIds.length, 2);
		await kit.settle(first.runIds[0]!, 'success');
		const again = await issue.schedule(['a', 'b'], { ...fence, requestId: 'sched' });
		assert.deepEqual(again, { ...first, replayed: true }, 'replay after the state moved');
		assert.equal(kit.admission.launched.length, 1, 'a replay launches nothing');
		assert.equal(kit.store.read((r) => runRepository.listByIssue(r, issue.issueId)).length, 2);
		await rejects(issue.schedule(['b', 'a'], { ...fence, requestId: 'sched' }), 'request_id_conflict');
		await rejects(issue.schedule(['a', 'b'], { ...fence, expectedGraphRevision: 7, requestId: 'sched' }), 'request_id_conflict');
		// Identity includes the session: another source with the same id meets the fences instead.
		await rejects(issue.schedule(['a', 'b'], { ...fence, requestId: 'sched', caller: await kit.session('source') }), 'wrong_source_session');

		const m = await issue.mutate([{ kind: 'update', taskId: 'c', task: { title: 'C!' } }], { requestId: 'mut' });
		const mAgain = await issue.mutate([{ task: { title: 'C!' }, taskId: 'c', kind: 'update' }], { ...await issue.fence(), expectedGraphRevision: m.graphRevision - 1, checkpointId: m.checkpointId, requestId: 'mut' });
		assert.equal(mAgain.replayed, true, 'same ops in another key order are the same payload');
		assert.equal(mAgain.graphRevision, m.graphRevision);
	});
});
