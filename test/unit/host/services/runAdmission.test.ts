// The RunAdmission contract used by both the dispatcher and managed `schedule`: admit in the caller's
// transaction, launch after commit; Stops before launch, host deference, and restart reconciliation.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Issue, Task } from '../../../../src/core/model.js';
import type { AgentTargetConfig } from '../../../../src/core/runs/runProcessPort.js';
import type { HostConfig } from '../../../../src/host/config.js';
import { readSpendDto } from '../../../../src/host/usage/issueSpend.js';
import { RunLifecycle } from '../../../../src/host/runs/runLifecycle.js';
import { TurnLifecycle } from '../../../../src/host/turns/turnLifecycle.js';
import type { SettledRun } from '../../../../src/host/runs/runSettlement.js';
import { Store } from '../../../../src/store/database.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../../../src/store/repositories/launchIntentRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { turnRepository } from '../../../../src/store/repositories/turnRepository.js';
import { usageRepository } from '../../../../src/store/repositories/usageRepository.js';
import { FakeRunProcessPort } from './fakeRunProcessPort.js';
import { commandTarget, FakeClock, sequentialIds, ServiceHarness } from './serviceHarness.js';

interface Kit {
	service: RunLifecycle;
	settled: SettledRun[];
	observed: string[];
}

describe('host services: Run admission, Stops before launch, host deference', () => {
	let dir: string;
	let workspace: string;
	let store: Store;
	let clock: FakeClock;
	let runs: FakeRunProcessPort;
	const config: HostConfig = { agentTargets: [commandTarget('ok')], maxParallelRuns: 4, autoAcceptDefault: false };
	const ids = sequentialIds();

	beforeEach(async () => {
		dir = mkdtempSync(join(tmpdir(), 'tutti-admission-'));
		workspace = join(dir, 'ws');
		mkdirSync(join(workspace, '.tutti'), { recursive: true });
		store = await Store.open({ dir: join(workspace, '.tutti'), lease: false });
		clock = new FakeClock();
		runs = new FakeRunProcessPort(join(workspace, '.tutti'), () => clock.now());
	});
	afterEach(async () => {
		await store.close().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	});

	/** The Run owner over the fake runner, with a Turn lifecycle of its own. */
	function runOwner(withConfig: HostConfig): RunLifecycle {
		const turns = new TurnLifecycle({ endpoint: '/tmp/x.sock', runs, config: withConfig, log: () => undefined });
		return new RunLifecycle({ workspace, store, clock, ids, runs, config: withConfig, turns, log: () => undefined });
	}

	function kit(): Kit {
		const settled: SettledRun[] = [];
		const observed: string[] = [];
		const service = runOwner(config);
		service.observeSettlements({ onRunSettled: (_tx, s) => { settled.push(s); observed.push(`${s.run.runId}:${s.run.outcome}`); } });
		return { service, settled, observed };
	}

	async function issueWithTasks(planningSource: Issue['planningSource'], taskIds: string[]): Promise<{ issue: Issue; tasks: Task[] }> {
		const now = clock.now();
		const issue: Issue = {
			issueId: `issue-${ids.next('i')}`, title: 't', content: '', status: 'open', planningSource, sourceSessionId: planningSource === 'tutti' ? 'src' : '',
			dispatchPaused: false, autoAcceptDefault: true, createdAtUnixMs: now, updatedAtUnixMs: now,
		};
		const tasks: Task[] = taskIds.map((taskId, i) => ({
			issueId: issue.issueId, taskId, title: taskId, content: `content of ${taskId}`, status: 'not_started', sortIndex: i, agentTargetId: 'ok',
			modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [],
			parallelizable: true, autoAccept: true, acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '',
			createdAtUnixMs: now, updatedAtUnixMs: now,
		}));
		await store.transaction((tx) => { issueRepository.insert(tx, issue); for (const t of tasks) { taskRepository.insert(tx, t); } });
		return { issue, tasks };
	}

	it('admit writes Run, worker session, Turn and prepared intent in the caller\'s transaction; nothing starts before launch', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('tutti', ['a']);
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		assert.ok(admitted);
		const { runId } = admitted;
		store.read((r) => {
			assert.equal(runRepository.get(r, runId)?.status, 'running');
			assert.equal(launchIntentRepository.byRun(r, runId)?.launchIntentId, `launch-intent:${runId}`);
			assert.equal(launchIntentRepository.byRun(r, runId)?.status, 'prepared');
			assert.equal(turnRepository.bySubmitId(r, `issue-run:${runId}`)?.state, 'prepared');
			const task = taskRepository.get(r, issue.issueId, 'a');
			assert.deepEqual([task?.status, task?.latestRunId], ['running', runId]);
			assert.equal(issueRepository.get(r, issue.issueId)?.status, 'in_progress');
		});
		assert.equal(runs.launches.length, 0);
		await service.launch([runId]);
		await service.launch([runId]);
		assert.equal(runs.launches.length, 1, 'a launch intent is launched once');
		service.dispose();
	});

	it('admit rejects the whole set when one task cannot start (atomic)', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('tutti', ['a', 'b']);
		await store.transaction((tx) => taskRepository.update(tx, { ...tasks[1]!, agentTargetId: '' }));
		await assert.rejects(store.transaction((tx) => service.admit(tx, issue, tasks)), /no agent target/);
		assert.equal(store.read((r) => runRepository.listByIssue(r, issue.issueId)).length, 0);
		service.dispose();
	});

	it('a Stop before launch cancels the Run without a process; the Stop took', async () => {
		const { service, settled, observed } = kit();
		const { issue, tasks } = await issueWithTasks('tutti', ['a']);
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		const stopped = await service.stopRun(admitted!.runId, 'person');
		assert.equal(stopped.answer, 'took');
		await service.launch([admitted!.runId]);
		await service.whenIdle();
		assert.equal(runs.launches.length, 0, 'no process was started');
		const run = store.read((r) => runRepository.get(r, admitted!.runId))!;
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.equal(store.read((r) => launchIntentRepository.byRun(r, run.runId))?.status, 'canceled');
		assert.deepEqual(settled.map((s) => s.task.status), ['canceled']);
		assert.deepEqual(observed, [`${run.runId}:cancellation`], 'managed issues hear of the settlement in its transaction');
		service.dispose();
	});

	it('the launch gate: a Stop recorded while the launch waited in line keeps the process from starting', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('manual', ['a']);
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		const now = clock.now();
		await store.transaction((tx) => runRepository.insertStopEvent(tx, { eventId: 'stop-x', runId: admitted!.runId, reason: 'person', requestedAtUnixMs: now, answer: null, answeredAtUnixMs: 0 }));
		await service.launch([admitted!.runId]);
		assert.equal(runs.launches.length, 0);
		assert.equal(store.read((r) => runRepository.get(r, admitted!.runId))?.outcome, 'cancellation');
		assert.deepEqual(store.read((r) => runRepository.stopEvents(r, admitted!.runId)).map((e) => e.answer), ['took']);
		service.dispose();
	});

	it('a host stop defers to a person\'s Stop in force: it writes no event of its own', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('tutti', ['a']);
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		await service.launch([admitted!.runId]);
		runs.interruptBehaviour = () => ({ result: 'still_running' });
		assert.equal((await service.stopRun(admitted!.runId, 'person')).answer, 'declined');
		runs.interruptBehaviour = () => ({ result: 'exited', exit: { exitCode: null, signal: 'SIGTERM' } });
		await service.stopRunsOfIssue(issue.issueId, 'host');
		await service.whenIdle();
		const events = store.read((r) => runRepository.stopEvents(r, admitted!.runId));
		assert.deepEqual(events.map((e) => [e.reason, e.answer]), [['person', 'declined']]);
		assert.equal(store.read((r) => runRepository.get(r, admitted!.runId))?.outcome, 'failure', 'the person\'s Stop did not take');
		service.dispose();
	});

	it('a host stop without a person\'s Stop records its own event', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('tutti', ['a']);
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		await service.launch([admitted!.runId]);
		await service.stopRunsOfIssue(issue.issueId, 'host');
		await service.whenIdle();
		const events = store.read((r) => runRepository.stopEvents(r, admitted!.runId));
		assert.deepEqual(events.map((e) => [e.reason, e.answer]), [['host', 'took']]);
		service.dispose();
	});

	it('a Run admitted within the budget does not start when another Turn crossed it before its launch (fail closed)', async () => {
		const { service } = kit();
		const { issue, tasks } = await issueWithTasks('manual', ['late']);
		await store.transaction((tx) => usageRepository.setBudget(tx, issue.issueId, { budgetUsd: 1, budgetTokens: null }, clock.now()));
		const [admitted] = await store.transaction((tx) => service.admit(tx, issue, tasks));
		// Between admission and launch another Turn of the issue settled and crossed the budget.
		await store.transaction((tx) => usageRepository.record(tx, {
			processId: 'other-turn', issueId: issue.issueId, runId: '', role: 'source', model: 'm',
			usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 1.2, costSource: 'agent', recordedAtUnixMs: clock.now(),
		}));
		await service.launch([admitted!.runId]);
		await service.whenIdle();
		assert.equal(runs.launches.length, 0, 'no process was started');
		const run = store.read((r) => runRepository.get(r, admitted!.runId));
		assert.equal(run?.outcome, 'failure');
		assert.equal(run?.errorMessage, 'Could not start: budget reached: $1.20 of $1.00');
		assert.equal(store.read((r) => launchIntentRepository.byRun(r, admitted!.runId))?.status, 'failed');
		service.dispose();
	});

	describe('restart reconciliation', () => {
		it('settles from exit records, re-attaches live Runs, adopts dead ones, launches or cancels prepared ones', async () => {
			const first = kit();
			const live = await issueWithTasks('manual', ['exited', 'alive', 'dead', 'prepared']);
			const paused = await issueWithTasks('manual', ['held']);
			const admitted = await store.transaction((tx) => [
				...first.service.admit(tx, live.issue, live.tasks),
				...first.service.admit(tx, paused.issue, paused.tasks),
			]);
			const byTask = new Map(admitted.map((a) => [a.taskId, a.runId]));
			await first.service.launch(['exited', 'alive', 'dead'].map((t) => byTask.get(t)!));
			first.service.dispose();
			await store.transaction((tx) => issueRepository.update(tx, { ...paused.issue, dispatchPaused: true }));
			// While the Host was down: one Run exited (record on disk), one still lives, one died without a record.
			runs.exits.set(byTask.get('exited')!, { runId: byTask.get('exited')!, clientSubmitId: `issue-run:${byTask.get('exited')!}`, exitCode: 0, signal: null, startedAtUnixMs: clock.now(), endedAtUnixMs: clock.now() });
			runs.alive.delete(byTask.get('exited')!);
			runs.alive.delete(byTask.get('dead')!);
			await store.close();

			const h = await ServiceHarness.open({ dir, runs, clock });
			try {
				await h.services.start();
				await h.idle();
				const status = async (task: string): Promise<string | null> => (await h.call('run/get', { runId: byTask.get(task)! })).outcome;
				assert.equal(await status('exited'), 'success');
				assert.deepEqual(runs.adopted.sort(), [byTask.get('alive')!, byTask.get('dead')!].sort());
				assert.equal(await status('alive'), null);
				assert.equal(await status('held'), 'cancellation', 'a prepared launch of a paused issue is canceled');
				assert.ok(runs.launches.some((l) => l.runId === byTask.get('prepared')), 'a prepared launch of an unpaused issue is launched');
				assert.equal(runs.launches.filter((l) => l.runId === byTask.get('held')).length, 0);
				assert.deepEqual(h.planCalls.map((c) => c.method), ['repairOnStart']);
				// The runner synthesizes a lost exit for the dead Run: a failure.
				runs.exit(byTask.get('dead')!, { exitCode: null, signal: 'lost' });
				await h.idle();
				const dead = await h.call('run/get', { runId: byTask.get('dead')! });
				assert.equal(dead.outcome, 'failure');
				assert.match(dead.errorMessage, /without recording an exit/);
			} finally {
				await h.close();
			}
			store = await Store.open({ dir: join(workspace, '.tutti'), lease: false }); // for afterEach
		});

		it('a launch the earlier Host began but never saw start is launched again, once; one a supervisor had is adopted', async () => {
			const first = kit();
			const { issue, tasks } = await issueWithTasks('manual', ['cut', 'started']);
			const admitted = await store.transaction((tx) => first.service.admit(tx, issue, tasks));
			const [cut, started] = admitted.map((a) => a.runId) as [string, string];
			// The earlier Host leased both launches and died: nothing started `cut`; `started` has a live process.
			await store.transaction((tx) => {
				for (const runId of [cut, started]) { launchIntentRepository.transition(tx, runId, ['prepared'], 'leased', clock.now()); }
			});
			runs.alive.add(started);
			first.service.dispose();
			await store.close();
			const h = await ServiceHarness.open({ dir, runs, clock });
			try {
				await h.services.start();
				await h.idle();
				assert.deepEqual(runs.withdrawn, [cut], 'only the launch nothing had started is withdrawn');
				assert.equal(runs.launches.filter((l) => l.runId === cut).length, 1, 'launched again, once');
				assert.equal(runs.launches.filter((l) => l.runId === started).length, 0, 'never launched twice');
				assert.ok(runs.adopted.includes(started));
				assert.equal(h.store.read((r) => launchIntentRepository.byRun(r, cut))?.status, 'dispatched');
				runs.exit(cut);
				await h.idle();
				assert.equal((await h.call('run/get', { runId: cut })).outcome, 'success');
			} finally {
				await h.close();
			}
			store = await Store.open({ dir: join(workspace, '.tutti'), lease: false }); // for afterEach
		});

		it('a Run admitted before its issue reached the budget is not launched at the restart after it (fail closed)', async () => {
			const first = kit();
			const { issue, tasks } = await issueWithTasks('manual', ['late']);
			const [admitted] = await store.transaction((tx) => first.service.admit(tx, issue, tasks));
			first.service.dispose();
			// While the Host was down the issue reached its budget (here: a budget of $0, reached by nothing spent).
			await store.transaction((tx) => usageRepository.setBudget(tx, issue.issueId, { budgetUsd: 0, budgetTokens: null }, clock.now()));
			await store.close();
			const h = await ServiceHarness.open({ dir, runs, clock });
			try {
				await h.services.start();
				await h.idle();
				const run = await h.call('run/get', { runId: admitted!.runId });
				assert.equal(runs.launches.filter((l) => l.runId === admitted!.runId).length, 0, 'no process was started');
				assert.equal(run.outcome, 'failure');
				assert.match(run.errorMessage, /^Could not start: budget reached: \$0\.00 of \$0\.00/);
			} finally {
				await h.close();
			}
			store = await Store.open({ dir: join(workspace, '.tutti'), lease: false }); // for afterEach
		});

		it('Turns that ended while the Host was down count against the budget before any request is answered', async () => {
			// Three $0.60 Runs of a $1 issue ended while the Host was down: the first request after the restart must see
			// $1.80 spent (exceeded), not only what reconcile happened to settle before its first await.
			const spender: AgentTargetConfig = { id: 'spender', adapter: 'claude', path: 'claude' };
			const first = runOwner({ ...config, agentTargets: [spender] });
			const { issue, tasks } = await issueWithTasks('manual', ['a', 'b', 'c', 'later']);
			await store.transaction((tx) => {
				for (const t of tasks) { taskRepository.update(tx, { ...t, agentTargetId: 'spender' }); }
				usageRepository.setBudget(tx, issue.issueId, { budgetUsd: 1, budgetTokens: null }, clock.now());
			});
			const spenders = tasks.slice(0, 3).map((t) => ({ ...t, agentTargetId: 'spender' }));
			const admitted = await store.transaction((tx) => first.admit(tx, issue, spenders));
			await first.launch(admitted.map((a) => a.runId));
			first.dispose();
			clock.advance(1_000);
			for (const { runId } of admitted) {
				runs.logs.set(runId, `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, session_id: 's', result: 'done', total_cost_usd: 0.6,
					usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } })}\n`);
				runs.exits.set(runId, { runId, clientSubmitId: `issue-run:${runId}`, exitCode: 0, signal: null, startedAtUnixMs: clock.now(), endedAtUnixMs: clock.now() });
				runs.alive.delete(runId);
			}
			await store.close();
			const h = await ServiceHarness.open({ dir, runs, clock, config: { agentTargets: [spender] } });
			try {
				const starting = h.services.start();
				// What a request answered now reads (nothing else runs before start() reaches its first await).
				const spend = h.store.read((r) => readSpendDto(r, issue.issueId));
				await starting;
				assert.equal(spend.budgetState, 'exceeded', `the first read after the restart saw $${spend.costUsd}`);
				assert.equal(spend.budgetBlocker, 'budget reached: $1.80 of $1.00');
				assert.equal(spend.reachedAtUnixMs, clock.now(), 'reached when the restarted Host counted them');
				await h.idle();
				// The dispatcher ran after the restart: the ready task was not started.
				assert.equal(h.store.read((r) => taskRepository.get(r, issue.issueId, 'later'))?.status, 'not_started');
				assert.equal(runs.launches.length, 3, 'only the three Runs from before the restart were ever launched');
				const after = h.store.read((r) => readSpendDto(r, issue.issueId));
				assert.ok(Math.abs(after.costUsd - 1.8) < 1e-9, `each Turn counted once (settlement recorded it again): $${after.costUsd}`);
			} finally {
				await h.close(true);
			}
			store = await Store.open({ dir: join(workspace, '.tutti'), lease: false }); // for afterEach
		});

		it('a person\'s Stop whose answer was never recorded (crash mid-Stop) does not make the Run a cancellation', async () => {
			const first = kit();
			const { issue, tasks } = await issueWithTasks('manual', ['a']);
			const [admitted] = await store.transaction((tx) => first.service.admit(tx, issue, tasks));
			const runId = admitted!.runId;
			await first.service.launch([runId]);
			const now = clock.now();
			await store.transaction((tx) => runRepository.insertStopEvent(tx, { eventId: 'stop-crash', runId, reason: 'person', requestedAtUnixMs: now, answer: null, answeredAtUnixMs: 0 }));
			first.service.dispose();
			runs.exits.set(runId, { runId, clientSubmitId: `issue-run:${runId}`, exitCode: null, signal: 'SIGINT', startedAtUnixMs: now, endedAtUnixMs: now + 10 });
			runs.alive.delete(runId);
			const second = kit();
			await second.service.reconcile();
			const run = store.read((r) => runRepository.get(r, runId))!;
			assert.equal(run.outcome, 'failure');
			assert.deepEqual(store.read((r) => runRepository.stopEvents(r, runId)).map((e) => e.answer), ['interrupt-unconfirmed']);
			second.service.dispose();
		});
	});
});
