import { strict as assert } from 'node:assert';
import { deliveryRepository } from '../../../../src/store/repositories/deliveryRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { PlanKit, rejects, taskSpec } from './planKit.js';

describe('plan service: rework, supersede and replacement scheduling', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	const launch = { model: 'm1', modelPlanId: 'plan-1', permissionModeId: 'auto', reasoningEffort: 'high', executionDirectory: 'pkg/a' };

	for (const outcome of ['failure', 'cancellation'] as const) {
		it(`${outcome === 'failure' ? 'Failed' : 'Canceled'}TaskReworkInheritsLaunchAndRebindsDependents, then schedules the replacement`, async () => {
			const issue = await kit.managedIssue([
				taskSpec('a', launch),
				taskSpec('b', { dependencyTaskIds: ['a'] }),
				taskSpec('c', { dependencyTaskIds: ['b'] }),
			]);
			const { runIds: [runA] } = await issue.schedule(['a']);
			await kit.settle(runA!, outcome);
			const at = await issue.get();
			assert.equal(at.activeCheckpoint?.kind, outcome === 'failure' ? 'task_failed' : 'task_canceled');
			assert.equal(issue.task(at, 'b').blockerReason, 'dependency_unsatisfied');
			await rejects(issue.schedule(['a']), 'task_not_started');
			await rejects(issue.mutate([{ kind: 'update', taskId: 'a', task: { title: 'again' } }]), 'task_not_started');

			const m = await issue.mutate([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', title: 'Second try' } }]);
			assert.deepEqual([m.addedTaskIds, m.updatedTaskIds, m.supersededTaskIds], [['a2'], ['b'], ['a']]);
			assert.equal(m.checkpointId, at.activeCheckpoint?.checkpointId, 'the same checkpoint, rebound');
			const s = await issue.get();
			const a2 = issue.task(s, 'a2');
			assert.deepEqual(
				[a2.agentTargetId, a2.model, a2.modelPlanId, a2.permissionModeId, a2.reasoningEffort, a2.executionDirectory, a2.title, a2.status],
				['ok', 'm1', 'plan-1', 'auto', 'high', 'pkg/a', 'Second try', 'not_started'],
			);
			assert.deepEqual(issue.task(s, 'b').dependencyTaskIds, ['a2'], 'dependents are redirected');
			assert.deepEqual(issue.task(s, 'c').dependencyTaskIds, ['b']);
			const old = issue.task(s, 'a');
			assert.equal(old.status, outcome === 'failure' ? 'failed' : 'canceled', 'history keeps its status');
			assert.ok(old.supersededAtUnixMs > 0);
			assert.equal(old.supersededByTaskId, 'a2');
			assert.equal(old.latestRunId, runA, 'and its Run');
			assert.equal(old.ready, false);
			assert.equal(kit.store.read((r) => runRepository.get(r, runA!))?.status, outcome === 'failure' ? 'failed' : 'canceled');
			assert.deepEqual(s.readyTaskIds, ['a2']);

			await rejects(issue.schedule(['a2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision - 1 }), 'stale_graph_revision');
			const r = await issue.schedule(['a2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
			assert.equal(r.graphRevision, m.graphRevision);
			assert.equal(issue.task(await issue.get(), 'a2').status, 'running');
		});
	}

	it('explicit replacement values override inherited ones; changing the target clears target-bound settings', async () => {
		const issue = await kit.managedIssue([taskSpec('a', launch)]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'failure');
		await issue.mutate([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', agentTargetId: 'other', reasoningEffort: 'low' } }]);
		const a2 = issue.task(await issue.get(), 'a2');
		assert.deepEqual([a2.agentTargetId, a2.model, a2.permissionModeId, a2.reasoningEffort, a2.executionDirectory], ['other', '', '', 'low', 'pkg/a']);
	});

	it('rework is rejected as a whole when a redirected dependent has already started', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] }), taskSpec('x')]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'failure');
		// A dependent that is already running (e.g. started before a dependency was added in an older graph).
		await kit.store.transaction((tx) => {
			const b = taskRepository.get(tx, issue.issueId, 'b')!;
			taskRepository.update(tx, { ...b, status: 'running' });
		});
		const before = await issue.get();
		await rejects(issue.mutate([
			{ kind: 'add', task: taskSpec('y') },
			{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } },
		]), 'task_not_started', /already running/);
		const after = await issue.get();
		assert.deepEqual(after.tasks, before.tasks, 'nothing changed');
		assert.equal(after.execution.graphRevision, before.execution.graphRevision);
	});

	it('LogicalSupersessionPreservesHistoryAndRequiresSettlement: running and completed tasks cannot be superseded; superseded ones stay listed', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const { runIds } = await issue.schedule(['a']);
		await rejects(issue.mutate([{ kind: 'supersede', taskId: 'a' }], { checkpointId: 'x', expectedGraphRevision: 1 }), 'stale_graph_revision');
		await kit.settle(runIds[0]!, 'success');
		await issue.accept('a');
		await issue.schedule(['b']);
		// a is completed (accepted by the developer), b is running.
		await kit.settle((await issue.get()).tasks.find((t) => t.taskId === 'b')!.latestRunId, 'success');
		await rejects(issue.mutate([{ kind: 'supersede', taskId: 'a' }]), 'task_not_started');
		await rejects(issue.mutate([{ kind: 'supersede', taskId: 'c', task: { title: 'x' } }]), 'invalid_mutation_operation');
		const m = await issue.mutate([{ kind: 'supersede', taskId: 'c' }]);
		assert.deepEqual(m.supersededTaskIds, ['c']);
		const s = await issue.get();
		assert.deepEqual(s.tasks.map((t) => t.taskId), ['a', 'b', 'c'], 'superseded history is listed');
		assert.equal(issue.task(s, 'c').blockerReason, 'task_superseded');
		assert.ok(!s.readyTaskIds.includes('c'));
		await rejects(issue.schedule(['c']), 'task_superseded');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('c') }]), 'duplicate_task');
	});

	it('schedule admits the exact set or nothing: blockers, unknown ids, duplicates, capacity', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] }), taskSpec('c'), taskSpec('d'), taskSpec('e')]);
		const before = await issue.get();
		await rejects(issue.schedule(['a', 'b']), 'dependency_unsatisfied');
		await rejects(issue.schedule(['a', 'nope']), 'task_not_found');
		await rejects(issue.schedule(['a', 'a']), 'duplicate_task');
		await rejects(issue.schedule(['a', 'c', 'd', 'e', 'x']), 'task_not_found');
		const other = await kit.managedIssue([taskSpec('p'), taskSpec('q')]);
		await other.schedule(['p', 'q']);
		await rejects(issue.schedule(['a', 'c', 'd']), 'capacity_exhausted', /maxParallelRuns 4/);
		const after = await issue.get();
		assert.deepEqual(after.tasks, before.tasks);
		assert.equal(after.activeCheckpoint?.status, 'active');
		assert.equal(kit.store.read((r) => runRepository.listByIssue(r, issue.issueId)).length, 0);
		await issue.schedule(['a', 'c']);
	});

	it('schedule first reopens a parent whose branch moved after its acceptance: the dependent is refused, nothing is scheduled', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] })]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		await issue.accept('a');
		// A's acceptance is bound to a commit (as in a worktree); the admission's git check finds its branch moved.
		await kit.store.transaction((tx) => { deliveryRepository.setAcceptedCommit(tx, issue.issueId, 'a', 'c0ffee', kit.clock.now()); });
		const checked: string[][] = [];
		kit.admission.reopenChangedParents = async (issueId: string, taskIds: readonly string[]): Promise<string[]> => {
			checked.push([...taskIds]);
			await kit.store.transaction((tx) => {
				const a = taskRepository.get(tx, issueId, 'a')!;
				taskRepository.update(tx, { ...a, status: 'pending_acceptance', acceptanceState: 'agent_claimed' });
				deliveryRepository.clearAcceptedCommit(tx, issueId, 'a');
			});
			return ['a'];
		};
		await rejects(issue.schedule(['b']), 'dependency_unsatisfied');
		assert.deepEqual(checked, [['b']]);
		assert.equal(issue.task(await issue.get(), 'b').status, 'not_started');
		assert.equal(kit.store.read((r) => runRepository.listByIssue(r, issue.issueId)).length, 1, 'no Run for b');
	});

	it('a failing admission rolls the whole schedule back', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		kit.admission.admit = () => { throw new Error('boom'); };
		await assert.rejects(issue.schedule(['a', 'b']), /boom/);
		const s = await issue.get();
		assert.equal(s.execution.status, 'awaiting_main', 'as the mutation left it');
		assert.equal(s.activeCheckpoint?.kind, 'initial_schedule');
		assert.equal(s.activeCheckpoint?.status, 'active');
		assert.deepEqual(s.readyTaskIds, ['a', 'b']);
	});
});
