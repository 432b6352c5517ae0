import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { withPause } from '../../../../src/core/issues/pauser.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { Dispatcher } from '../../../../src/host/services/dispatcher.js';
import { Store } from '../../../../src/store/database.js';
import { tempStoreDir, type TempStoreDir } from '../../store/storeTestKit.js';
import { ServiceHarness } from './serviceHarness.js';

async function paused(h: ServiceHarness, title: string): Promise<string> {
	// Its tasks auto-accept (the developer's choice; the setting's default asks the developer).
	const issueId = (await h.call('issue/create', { title, autoAccept: true })).issueId;
	await h.call('issue/pause', { issueId });
	return issueId;
}

describe('host services: the manual dispatcher', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('starts ready tasks within maxParallelRuns, counted across the workspace, and more as Runs settle', async () => {
		h = await ServiceHarness.open({ config: { maxParallelRuns: 2 } });
		const issueId = await paused(h, 'capacity');
		for (const id of ['t1', 't2', 't3']) { await h.call('task/add', { issueId, taskId: id, title: id, agentTargetId: 'ok' }); }
		await h.call('issue/resume', { issueId });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['t1', 't2']);
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 0 });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['t1', 't2', 't3']);
	});

	it('starts a dependent only after its dependency completed and was accepted; failed parents never satisfy', async () => {
		h = await ServiceHarness.open();
		const issueId = await paused(h, 'deps');
		await h.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'ok' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'B', agentTargetId: 'ok', dependencyTaskIds: ['a'] });
		await h.call('task/add', { issueId, taskId: 'c', title: 'C', agentTargetId: 'ok', dependencyTaskIds: ['b'] });
		await h.call('issue/resume', { issueId });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['a']);
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 0 });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['a', 'b']);
		h.runs.exit(h.runs.launches[1]!.runId, { exitCode: 1 });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['a', 'b'], 'c waits behind a failed b');
		const tasks = (await h.call('issue/get', { issueId })).tasks;
		assert.deepEqual(tasks.map((t) => t.status), ['completed', 'failed', 'not_started']);
	});

	it('a Run that has ended but whose exit the Host has not handled yet counts against the budget before the next admission', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [{ id: 'spender', adapter: 'claude', path: 'claude' }] } });
		const issueId = (await h.call('issue/create', { title: 'budget', budgetUsd: 1, dispatchPaused: true })).issueId;
		for (const id of ['a', 'b']) { await h.call('task/add', { issueId, taskId: id, title: id, agentTargetId: 'spender' }); }
		await h.call('issue/resume', { issueId });
		await h.idle();
		const [a, b] = h.runs.launches.map((l) => l.runId) as [string, string];
		for (const runId of [a, b]) {
			h.runs.logs.set(runId, `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, session_id: 's', result: 'done', total_cost_usd: 0.6,
				usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } })}\n`);
		}
		h.runs.exit(a);
		await h.idle();
		// b's process ended ($0.60 more: $1.20 of $1), but the runner has not seen its exit record yet.
		h.runs.exitUnseen(b);
		await h.call('task/add', { issueId, taskId: 'c', title: 'c', agentTargetId: 'spender' });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['a', 'b'], 'c is not started: the budget was reached when b ended');
		const issue = await h.call('issue/get', { issueId });
		assert.equal(issue.spend.budgetBlocker, 'budget reached: $1.20 of $1.00');
		h.runs.checkNow(b);
		await h.idle();
		assert.ok(Math.abs((await h.call('issue/get', { issueId })).spend.costUsd - 1.2) < 1e-9, 'b counted once');
	});

	it('a task without an agent target is not ready (missing_agent_target) until it gets one', async () => {
		h = await ServiceHarness.open();
		const issueId = (await h.call('issue/create', { title: 'targets' })).issueId;
		await h.call('task/add', { issueId, taskId: 'x', title: 'X' });
		await h.idle();
		assert.equal(h.runs.launches.length, 0);
		await h.call('task/update', { issueId, taskId: 'x', agentTargetId: 'ok' });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['x']);
	});

	it('oldest issue first, by sortIndex within an issue; paused issues wait', async () => {
		h = await ServiceHarness.open({ config: { maxParallelRuns: 2 } });
		const blocker = await paused(h, 'blocker');
		const older = await paused(h, 'older');
		const newer = await paused(h, 'newer');
		const held = await paused(h, 'held');
		for (const id of ['b1', 'b2']) { await h.call('task/add', { issueId: blocker, taskId: id, title: id, agentTargetId: 'ok' }); }
		await h.call('issue/resume', { issueId: blocker });
		await h.idle();
		await h.call('task/add', { issueId: held, taskId: 'h1', title: 'h1', agentTargetId: 'ok' });
		await h.call('task/add', { issueId: newer, taskId: 'n1', title: 'n1', agentTargetId: 'ok' });
		for (const id of ['o2', 'o1']) { await h.call('task/add', { issueId: older, taskId: id, title: id, agentTargetId: 'ok' }); }
		await h.call('issue/resume', { issueId: newer });
		await h.call('issue/resume', { issueId: older });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['b1', 'b2'], 'capacity is full');
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 0 });
		h.runs.exit(h.runs.launches[1]!.runId, { exitCode: 0 });
		await h.idle();
		assert.deepEqual(h.runs.launches.slice(2).map((l) => l.taskId), ['o2', 'o1'], 'the older issue first, in sortIndex order');
		h.runs.exit(h.runs.launches[2]!.runId, { exitCode: 0 });
		h.runs.exit(h.runs.launches[3]!.runId, { exitCode: 0 });
		await h.idle();
		assert.deepEqual(h.runs.launches.slice(4).map((l) => l.taskId), ['n1'], 'the paused issue gets nothing');
	});

	it('coalesces a burst of triggers into few passes and never exceeds capacity', async () => {
		h = await ServiceHarness.open({ config: { maxParallelRuns: 3 } });
		const issueId = await paused(h, 'burst');
		for (let i = 0; i < 10; i++) { await h.call('task/add', { issueId, taskId: `t${i}`, title: `t${i}`, agentTargetId: 'ok' }); }
		await Promise.all([h.call('issue/resume', { issueId }), h.call('issue/resume', { issueId }), h.call('issue/resume', { issueId })]);
		await h.idle();
		assert.equal(h.runs.launches.length, 3);
		const running = h.store.read((r) => r.get("SELECT count(*) AS n FROM runs WHERE status = 'running'"));
		assert.equal(running?.n, 3);
	});

	it('a pass that finds nothing to start writes nothing to the store', async () => {
		h = await ServiceHarness.open();
		const issueId = (await h.call('issue/create', { title: 'idle' })).issueId;
		await h.call('task/add', { issueId, taskId: 'x', title: 'no target yet' });
		await h.idle();
		const before = h.store.stats().seq;
		await h.call('issue/resume', { issueId }); // a trigger with nothing ready
		await h.idle();
		assert.equal(h.store.stats().seq, before);
	});
});

describe('host services: the dispatcher reacts to store commits', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('a write path with no trigger of its own (a direct store write) makes a task ready, and that one commit starts it', async () => {
		// The harness's Host has started with no wake timer (wakeTickMs 0), so only the commit can start b.
		h = await ServiceHarness.open();
		const issueId = await paused(h, 'direct');
		await h.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'ok' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'B', agentTargetId: 'ok', dependencyTaskIds: ['a'] });
		await h.idle();
		assert.equal(h.runs.launches.length, 0, 'paused: nothing started');
		const before = h.store.version;
		// One transaction that no service wrote: a is done and accepted, and the issue is no longer paused.
		await h.store.transaction((tx) => {
			const now = h.clock.now();
			const a = taskRepository.get(tx, issueId, 'a')!;
			taskRepository.update(tx, { ...a, status: 'completed', acceptanceState: 'user_accepted', updatedAtUnixMs: now });
			const issue = issueRepository.get(tx, issueId)!;
			issueRepository.update(tx, withPause(issue, false, 'developer', now) ?? issue);
		});
		assert.equal(h.store.version, before + 1, 'the write is one commit');
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['b'], 'the dispatcher started b after that commit');
	});
});

describe('the manual dispatcher reads its ready tasks from each issue\'s kept ready set', () => {
	let temp: TempStoreDir;
	let store: Store;
	beforeEach(async () => { temp = tempStoreDir(); store = await Store.open({ dir: temp.dir }); });
	afterEach(async () => { await store.close(); temp.cleanup(); });

	async function issueWithTasks(tasks: readonly { id: string; status?: string; deps?: readonly string[] }[]): Promise<void> {
		await store.transaction((tx) => {
			tx.run("INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES ('i', 'I', '', 'in_progress', 'manual', 1, 1)");
			tasks.forEach((t, i) => {
				tx.run("INSERT INTO tasks (issue_id, task_id, title, status, sort_index, agent_target_id, acceptance_state, created_at, updated_at) VALUES ('i', ?, ?, ?, ?, 'sh', '', 1, 1)",
					[t.id, t.id, t.status ?? 'not_started', i]);
				(t.deps ?? []).forEach((d, position) => { tx.run("INSERT INTO task_dependencies (issue_id, task_id, depends_on_task_id, position) VALUES ('i', ?, ?, ?)", [t.id, d, position]); });
			});
		});
	}

	function dispatcherAdmitting(admitted: string[][], between: () => Promise<void> = () => Promise.resolve()): Dispatcher {
		return new Dispatcher({
			store, log: () => undefined,
			config: { agentTargets: [{ id: 'sh', adapter: 'command', argv: ['true'] }], maxParallelRuns: 4, autoAcceptDefault: false },
			admission: {
				admit: (_tx, _issue, tasks) => { admitted.push(tasks.map((t) => t.taskId)); return []; },
				launch: () => Promise.resolve(), reopenChangedParents: () => Promise.resolve([]), countEndedTurns: between,
			},
		});
	}

	it('finds the ready tasks behind a long chain that waits, and the next one once its parent is accepted', async () => {
		const chain = Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, ...(i === 0 ? { status: 'running' } : { deps: [`c${i - 1}`] }) }));
		await issueWithTasks([...chain, { id: 'free' }, { id: 'also-free' }]);
		const admitted: string[][] = [];
		const dispatcher = dispatcherAdmitting(admitted);
		dispatcher.trigger();
		await dispatcher.whenIdle();
		assert.deepEqual(admitted, [['free', 'also-free']]);
		const c0 = store.read((r) => taskRepository.get(r, 'i', 'c0'))!;
		await store.transaction((tx) => { taskRepository.update(tx, { ...c0, status: 'completed', acceptanceState: 'user_accepted', updatedAtUnixMs: 2 }); });
		dispatcher.trigger();
		await dispatcher.whenIdle();
		assert.deepEqual(admitted.at(-1), ['c1', 'free', 'also-free']);
		dispatcher.dispose();
	});

	it('admits only what is still ready when its transaction runs: a task changed after the selection is left for the next pass', async () => {
		await issueWithTasks([{ id: 'a' }, { id: 'b' }, { id: 'p', status: 'running' }, { id: 'd', deps: ['p'] }]);
		const admitted: string[][] = [];
		let once = true;
		const dispatcher = dispatcherAdmitting(admitted, async () => {
			if (!once) { return; }
			once = false;
			// Between the selection and the admission: a is stopped by the developer, and a new ready task appears.
			const a = store.read((r) => taskRepository.get(r, 'i', 'a'))!;
			await store.transaction((tx) => {
				taskRepository.update(tx, { ...a, status: 'canceled', updatedAtUnixMs: 2 });
				tx.run("INSERT INTO tasks (issue_id, task_id, title, status, sort_index, agent_target_id, acceptance_state, created_at, updated_at) VALUES ('i', 'late', 'late', 'not_started', 9, 'sh', '', 1, 1)");
			});
		});
		dispatcher.trigger();
		await dispatcher.whenIdle();
		assert.deepEqual(admitted[0], ['b'], 'a was canceled meanwhile; late was not selected by this pass');
		dispatcher.dispose();
	});
});
