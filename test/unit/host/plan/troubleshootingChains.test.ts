// The chains of the troubleshooting document, driven through the real Host services (plan, review and Run services
// over a real store; Runs launched through the Run service and ended by their process exit): each step is a command
// the source agent or the developer gives, and every decision is the Host's. Only the developer accepts a result;
// neither schedule nor acknowledge does.
import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import type { Checkpoint } from '../../../../src/core/model.js';
import type { PlanSnapshotDto } from '../../../../src/protocol/dto.js';
import type { MutationOperation } from '../../../../src/protocol/operations.js';
import { checkpointRepository } from '../../../../src/store/repositories/checkpointRepository.js';
import { rejects, ServiceHarness } from '../services/serviceHarness.js';

type Snapshot = PlanSnapshotDto;

const task = (taskId: string, dependencyTaskIds: string[] = []): Record<string, unknown> =>
	({ taskId, title: `Task ${taskId}`, content: `Do ${taskId}`, agentTargetId: 'ok', dependencyTaskIds });

describe('troubleshooting chains (real Host services)', () => {
	let h: ServiceHarness;
	let source: Caller;
	let issueId: string;
	let requests = 0;
	const rid = (what: string): string => `${what}-${++requests}`;

	beforeEach(async () => {
		h = await ServiceHarness.open({ realPlan: true, config: { developerConfirmation: false } });
		source = (await h.session('source')).caller;
		issueId = (await h.call('plan/create', { title: 'Goal', content: 'Reach the goal', requestId: rid('create') }, source)).issueId;
	});
	afterEach(async () => { await h.close(); });

	const get = (): Promise<Snapshot> => h.call('plan/get', { issueId }, source);
	const fence = (s: Snapshot): { issueId: string; checkpointId: string; expectedGraphRevision: number } => {
		assert.ok(s.activeCheckpoint, 'an active checkpoint');
		return { issueId, checkpointId: s.activeCheckpoint.checkpointId, expectedGraphRevision: s.execution.graphRevision };
	};
	const mutate = async (s: Snapshot, ops: MutationOperation[]): Promise<number> =>
		(await h.call('plan/mutate', { ...fence(s), operations: ops, requestId: rid('mutate') }, source)).graphRevision;
	/** Schedules `taskIds` at the active checkpoint of `s`; returns runId by taskId once the Runs were launched. */
	const schedule = async (s: Snapshot, taskIds: string[]): Promise<Map<string, string>> => {
		const { runIds } = await h.call('plan/schedule', { ...fence(s), taskIds, requestId: rid('schedule') }, source);
		await h.idle();
		return new Map(taskIds.map((id, i) => [id, runIds[i]!]));
	};
	const acknowledge = async (s: Snapshot): Promise<void> => {
		await h.call('plan/acknowledge', { ...fence(s), requestId: rid('ack') }, source);
	};
	/** The Run's process ends (exit 0 = success, else failure) and the Host settles it. */
	const exit = async (runId: string, exitCode = 0): Promise<Snapshot> => {
		h.runs.exit(runId, { exitCode });
		await h.idle();
		return get();
	};
	const accept = async (taskId: string): Promise<void> => { await h.call('review/accept', { issueId, taskId }); };
	const status = (s: Snapshot, taskId: string): string => s.tasks.find((t) => t.taskId === taskId)?.status ?? 'missing';
	/** Every checkpoint of the execution, resolved and superseded ones included (the snapshot lists the open ones). */
	const allCheckpoints = (): Checkpoint[] => h.store.read((r) => checkpointRepository.listByExecution(r, `tutti-execution:${issueId}`));
	const terminalCheckpoint = (): Checkpoint => {
		const c = allCheckpoints().find((x) => x.kind === 'all_tasks_terminal');
		assert.ok(c, `an all_tasks_terminal checkpoint in ${allCheckpoints().map((x) => x.kind).join(', ')}`);
		return c;
	};


	it('final rework reaches Goal Review: the final Run fails → rework while the terminal boundary is pending → replacement settles → accept + acknowledge → the rearmed terminal is active', async () => {
		await mutate(await get(), [{ kind: 'add', task: task('a') }, { kind: 'add', task: task('b') }]);
		const runs = await schedule(await get(), ['a', 'b']);
		let s = await exit(runs.get('a')!);
		assert.equal(s.activeCheckpoint?.kind, 'task_settled');
		s = await exit(runs.get('b')!, 1);
		assert.deepEqual(s.checkpoints.filter((c) => c.status === 'pending').map((c) => c.kind), ['task_failed', 'all_tasks_terminal'],
			'the final settlement queued its checkpoint and the terminal singleton behind the active one');
		assert.ok(s.allowedActions.includes('acknowledge'), 'a later pending checkpoint makes acknowledge legal');
		await acknowledge(s);
		s = await get();
		assert.equal(s.activeCheckpoint?.kind, 'task_failed');
		assert.equal(terminalCheckpoint().status, 'pending');
		assert.equal(status(s, 'a'), 'pending_acceptance', 'acknowledging never accepts');

		const revision = await mutate(s, [{ kind: 'rework', taskId: 'b', task: { taskId: 'b2', content: 'try again' } }]);
		s = await get();
		assert.equal(terminalCheckpoint().status, 'superseded', 'the stale terminal boundary is superseded by the graph mutation');
		assert.equal(s.activeCheckpoint?.graphRevision, revision);

		const replacement = await schedule(s, ['b2']);
		assert.equal((await get()).execution.status, 'running');
		s = await exit(replacement.get('b2')!);
		const settled = s.activeCheckpoint!;
		assert.equal(settled.kind, 'task_settled');
		assert.equal(settled.subjectTaskId, 'b2');
		const terminal = terminalCheckpoint();
		assert.equal(terminal.status, 'pending', 'terminal creation rearmed the superseded singleton');
		assert.ok(terminal.sequence > settled.sequence, 'with a sequence after the replacement settlement');
		assert.equal(terminal.graphRevision, revision, 'and the current revision');

		await accept('a');
		await accept('b2');
		await acknowledge(await get());
		s = await get();
		assert.equal(s.activeCheckpoint?.checkpointId, terminal.checkpointId);
		assert.equal(s.execution.status, 'pending_goal_review');
		assert.deepEqual([status(s, 'a'), status(s, 'b2')], ['completed', 'completed']);
		assert.ok(s.allowedActions.includes('complete'), s.allowedActions.join(','));
		const done = await h.call('plan/complete', { ...fence(s), decision: 'goal_satisfied', requestId: rid('complete') }, source);
		assert.equal(done.replayed, false);
	});

	it('parallel settlements + mutation: acknowledge-driven promotion rebinds the next checkpoint, so a schedule there passes the fence', async () => {
		await mutate(await get(), [{ kind: 'add', task: task('a') }, { kind: 'add', task: task('b') }, { kind: 'add', task: task('d') }]);
		const runs = await schedule(await get(), ['a', 'b', 'd']);
		await exit(runs.get('a')!);
		let s = await exit(runs.get('b')!);
		const [first, second] = [s.activeCheckpoint!, s.checkpoints.find((c) => c.status === 'pending' && c.subjectTaskId === 'b')!];
		assert.equal(first.subjectTaskId, 'a');
		assert.equal(second.graphRevision, s.execution.graphRevision);
		const revision = await mutate(s, [{ kind: 'add', task: task('e') }]);
		await acknowledge(await get());
		s = await get();
		assert.equal(s.activeCheckpoint?.checkpointId, second.checkpointId);
		assert.equal(s.activeCheckpoint?.graphRevision, revision, 'rebound on promotion');
		const more = await schedule(s, ['e']);
		assert.deepEqual([...more.keys()], ['e']);
		assert.equal(status(await get(), 'e'), 'running');
	});

	it('parallel settlements + mutation: schedule-driven promotion rebinds too; a dependent waits for the developer\'s accept, never for a schedule', async () => {
		await mutate(await get(), [{ kind: 'add', task: task('a') }, { kind: 'add', task: task('b') }, { kind: 'add', task: task('c', ['a']) }, { kind: 'add', task: task('x') }]);
		const runs = await schedule(await get(), ['a', 'b']);
		await exit(runs.get('a')!);
		let s = await exit(runs.get('b')!);
		const second = s.checkpoints.find((c) => c.status === 'pending' && c.subjectTaskId === 'b')!;
		assert.equal(s.tasks.find((t) => t.taskId === 'c')?.ready, false, 'the settled subject is not projected as accepted');
		const revision = await mutate(s, [{ kind: 'update', taskId: 'c', task: { title: 'C!' } }]);
		s = await get();
		await rejects(h.call('plan/schedule', { ...fence(s), taskIds: ['c'], requestId: rid('schedule') }, source), 'dependency_unsatisfied');
		await schedule(s, ['x']);
		s = await get();
		assert.equal(s.activeCheckpoint?.checkpointId, second.checkpointId, 'the schedule resolved the first checkpoint and promoted the second');
		assert.equal(s.activeCheckpoint?.graphRevision, revision);
		assert.equal(status(s, 'a'), 'pending_acceptance', 'scheduling never accepts');
		await accept('a');
		s = await get();
		assert.equal(s.tasks.find((t) => t.taskId === 'c')?.ready, true, 'the developer\'s accept makes the dependent ready');
		await schedule(s, ['c']);
		assert.equal(status(await get(), 'c'), 'running');
	});

	it('schedule from Goal Review after a mutation, then settle: a fresh Goal Review (the resolved singleton is rearmed)', async () => {
		await mutate(await get(), [{ kind: 'add', task: task('a') }]);
		const runs = await schedule(await get(), ['a']);
		let s = await exit(runs.get('a')!);
		assert.equal(terminalCheckpoint().status, 'pending');
		await accept('a');
		await acknowledge(s);
		s = await get();
		const terminal = s.activeCheckpoint!;
		assert.equal(terminal.kind, 'all_tasks_terminal');
		assert.equal(s.execution.status, 'pending_goal_review');
		const revision = await mutate(s, [{ kind: 'add', task: task('more') }]);
		s = await get();
		assert.ok(s.allowedActions.includes('schedule') && s.allowedActions.includes('complete'), s.allowedActions.join(','));
		const more = await schedule(s, ['more']);
		assert.equal(terminalCheckpoint().status, 'resolved');
		s = await exit(more.get('more')!);
		assert.equal(terminalCheckpoint().status, 'pending', 'the resolved singleton is rearmed for the follow-up work');
		assert.equal(terminalCheckpoint().graphRevision, revision);
		await accept('more');
		await acknowledge(await get());
		s = await get();
		assert.equal(s.execution.status, 'pending_goal_review');
		assert.equal(s.activeCheckpoint?.checkpointId, terminal.checkpointId);
	});
});
