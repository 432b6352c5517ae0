// Conformance: Runs survive a Host restart, and kill -9 during a write workload loses no acknowledged command.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
	addOps, expectError, expectOk, HostHandle, issueGet, managedIssue, manualIssue, methods, openSession, requestId, startHost,
	taskIn, taskSpec, type CliResult, waitFor,
} from '../harness.js';

describe('conformance: restart and crash', function () {
	const hosts: HostHandle[] = [];
	afterEach(function () {
		for (const host of hosts) {
			host.releaseAll();
		}
	});
	after(async function () {
		await Promise.all(hosts.map((h) => h.dispose()));
	});

	it('a SIGTERM restart while Runs sleep: each Run settles correctly afterwards', async function () {
		const host = await startHost();
		hosts.push(host);
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('p', 'gate'), taskSpec('q', 'gate'), taskSpec('r', 'gate'));
		const { runIds } = await issue.scheduleOk(['p', 'q', 'r']);
		for (const id of ['p', 'q', 'r']) {
			await issue.waitGateStarted(id);
		}
		const runOf = (s: Awaited<ReturnType<typeof issue.get>>, id: string): string => taskIn(s, id).latestRunId;
		const before = await issue.get();

		await host.stop();
		// p finishes while no Host is running; its supervisor records the exit.
		issue.openGate('p', 0);
		const exitOfP = join(host.workspace, '.tutti', 'runs', runOf(before, 'p'), 'exit.json');
		await waitFor(() => existsSync(exitOfP) || undefined, { what: 'the exit record of p, written with no Host running' });
		await host.start();

		const afterP = await issue.waitActive('task_settled', 'p');
		const runP = await issue.run(runOf(before, 'p'));
		assert.equal(runP.outcome, 'success');
		assert.match(runP.outcomeLabel ?? '', /^Completed in /);
		assert.equal(taskIn(afterP, 'q').status, 'running', 'a Run still sleeping is re-attached, not settled');
		assert.equal(taskIn(afterP, 'r').status, 'running');
		assert.equal((await issue.run(runOf(before, 'q'))).outcome, null);

		// q exits after the restart: the re-attached Run settles from its exit record.
		issue.openGate('q', 0);
		await issue.waitSettlement('q');
		assert.equal((await issue.run(runOf(before, 'q'))).outcome, 'success');

		// r is stopped after the restart: the adopted process group is interrupted and the Stop took.
		const stop = methods['run/stop'].result.parse(expectOk(await host.cli(['run', 'stop', '--run-id', runOf(before, 'r'), '--as-user', '--json'])));
		assert.equal(stop.answer, 'took');
		await issue.waitSettlement('r');
		const runR = await issue.run(runOf(before, 'r'));
		assert.equal(runR.outcome, 'cancellation');
		assert.match(runR.outcomeLabel ?? '', /^Interrupted after /);
		assert.deepEqual(new Set(runIds), new Set(['p', 'q', 'r'].map((id) => runOf(before, id))));
	});

	it('a second Host on the same store refuses and names the owner pid', async function () {
		const host = await startHost();
		hosts.push(host);
		const runtimeDir = join(host.base, 'rt2');
		mkdirSync(runtimeDir, { mode: 0o700 });
		const second = new HostHandle(host.base, host.workspace, runtimeDir, host.gateDir);
		try {
			await assert.rejects(second.start(), (error: Error) => {
				assert.match(error.message, new RegExp(`\\b${host.pid}\\b`), `the refusal names the owner's pid ${host.pid}`);
				return true;
			});
		} finally {
			await second.kill9();
		}
		// The owner keeps serving.
		expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true }));
	});

	it('kill -9 during a write workload: every acknowledged command survives the restart', async function () {
		this.timeout(120_000);
		const host = await startHost();
		hosts.push(host);
		const manual = await manualIssue(host, 'Crash workload');
		const source = await openSession(host, 'source');
		const managed = await managedIssue(host, 'Crash workload (managed)');

		const acknowledgedTasks = new Set<string>();
		const acknowledgedIssues = new Map<string, string>();
		const acknowledgedPlanTasks = new Set<string>();
		let stopped = false;
		let seq = 0;

		// Lane 1 and 2: manual task adds (no agent target, so nothing is dispatched).
		const taskLane = async (lane: string): Promise<void> => {
			while (!stopped) {
				const taskId = `${lane}-${seq++}`;
				const r = await host.cli(['issue', 'task', 'add', '--issue-id', manual, '--task-id', taskId, '--title', `T ${taskId}`, '--json'], { asUser: true });
				if (r.code === 0) {
					acknowledgedTasks.add(taskId);
				}
			}
		};
		// Lane 3: managed issues created with request ids.
		const createLane = async (): Promise<void> => {
			while (!stopped) {
				const rid = requestId('crash-create');
				const r = await host.cli(['plan', 'issue', 'create', '--title', rid, '--content', 'c', '--request-id', rid, '--json'], { token: source.token });
				if (r.code === 0) {
					acknowledgedIssues.set(rid, (r.json as { issueId: string }).issueId);
				}
			}
		};
		// Lane 4: fenced mutations of one managed issue (refresh the fence after any failure).
		const mutateLane = async (): Promise<void> => {
			let fence: { checkpointId: string; revision: number } | undefined;
			while (!stopped) {
				if (!fence) {
					const g: CliResult = await managed.getRaw();
					if (g.code !== 0) {
						continue;
					}
					const s = methods['plan/getCompact'].result.parse(g.json);
					fence = { checkpointId: s.activeCheckpoint!.checkpointId, revision: s.execution.graphRevision };
				}
				const taskId = `m-${seq++}`;
				const r = await managed.mutate(addOps(taskSpec(taskId)), fence);
				if (r.code === 0) {
					acknowledgedPlanTasks.add(taskId);
					fence = { ...fence, revision: (r.json as { graphRevision: number }).graphRevision };
				} else {
					fence = undefined;
				}
			}
		};

		const acknowledged = (): number => acknowledgedTasks.size + acknowledgedIssues.size + acknowledgedPlanTasks.size;
		const progress = (more: number, what: string): Promise<true> => {
			const target = acknowledged() + more;
			return waitFor(() => acknowledged() >= target || undefined, { what, timeoutMs: 60_000 });
		};
		for (let round = 0; round < 3; round++) {
			stopped = false;
			const lanes = Promise.all([taskLane('a'), taskLane('b'), createLane(), mutateLane()]);
			// The crash lands after a random amount of acknowledged work, mid-workload (commands are in flight).
			await progress(1 + Math.floor(Math.random() * 8), `round ${round}: writes before the crash`);
			await host.kill9();
			await host.start();
			await progress(1, `round ${round}: a write acknowledged by the restarted Host`);
			stopped = true;
			await lanes;

			// The store opened; every acknowledged write is there.
			const issue = await issueGet(host, manual);
			const present = new Set(issue.tasks.map((t) => t.taskId));
			for (const taskId of acknowledgedTasks) {
				assert.ok(present.has(taskId), `round ${round}: acknowledged task ${taskId} was lost`);
			}
			for (const [rid, issueId] of acknowledgedIssues) {
				const replay = methods['plan/create'].result.parse(expectOk(await host.cli(
					['plan', 'issue', 'create', '--title', rid, '--content', 'c', '--request-id', rid, '--json'], { token: source.token })));
				assert.equal(replay.issueId, issueId, `round ${round}: created issue ${issueId} was lost`);
				assert.equal(replay.replayed, true);
			}
			const plan = await managed.get();
			const planTasks = new Set(plan.tasks.map((t) => t.taskId));
			for (const taskId of acknowledgedPlanTasks) {
				assert.ok(planTasks.has(taskId), `round ${round}: acknowledged mutation adding ${taskId} was lost`);
			}
			assert.equal(plan.execution.graphRevision, 1 + plan.tasks.length, 'one revision per committed add, none lost or doubled');
		}
		assert.ok(acknowledgedTasks.size > 0 && acknowledgedPlanTasks.size > 0, 'the workload made progress');
		expectError(await host.cli(['issue', 'get', '--issue-id', 'no-such-issue', '--json'], { asUser: true }), 'issue_not_found', 1);
	});
});
