// Restart survival with real processes: the Host stops while two command workers run; one worker ends while no
// Host is up, the other after the next Host re-attached it. Each Run settles exactly once (the settlement hook of
// a managed issue counts them), and a further restart changes nothing.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Issue, Task } from '../../../src/core/model.js';
import { systemClock } from '../../../src/core/ports.js';
import type { HostConfig } from '../../../src/host/config.js';
import { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import type { RunAdmission } from '../../../src/host/runs/runAdmission.js';
import type { PlanService } from '../../../src/host/services/contracts.js';
import { createHostServices, type HostServices } from '../../../src/host/services/hostServices.js';
import { Store } from '../../../src/store/database.js';
import { issueRepository } from '../../../src/store/repositories/issueRepository.js';
import { runRepository } from '../../../src/store/repositories/runRepository.js';
import { taskRepository } from '../../../src/store/repositories/taskRepository.js';
import { turnRepository } from '../../../src/store/repositories/turnRepository.js';
import { sequentialIds } from '../../unit/host/services/serviceHarness.js';
import { killAllRuns, makeTempDir, type RunBuild, shareRunBuild } from '../runs/runTestKit.js';
import { waitFor } from '../../waitFor.js';

// Waits for `go-<taskId>` in its cwd, then exits 0.
const waiter = 'const f=`go-${process.env.TUTTI_TASK_ID}`;const fs=require("fs");process.stdout.write("ready\\n");'
	+ 'setInterval(()=>{if(fs.existsSync(f)){process.exit(0);}},30);';

describe('restart: two command workers settle exactly once', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let ws: ReturnType<typeof makeTempDir>;
	let store: Store;
	let runner: ProcessRunner;
	let services: HostServices;
	let admission: RunAdmission | undefined;
	let hosts = 0;
	const settlements: string[] = [];

	const config: HostConfig = { agentTargets: [{ id: 'wait', adapter: 'command', argv: [process.execPath, '-e', waiter] }], maxParallelRuns: 4, autoAcceptDefault: false };

	shareRunBuild('tutti-ra-build-', (b) => { build = b; });

	async function startHost(): Promise<void> {
		const tuttiDir = join(ws.path, '.tutti');
		store = await Store.open({ dir: tuttiDir, lease: false });
		runner = new ProcessRunner({ workspace: ws.path, tuttiDir, supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir, pollIntervalMs: 50 });
		services = createHostServices({
			workspace: ws.path, tuttiDir, store, clock: systemClock, ids: sequentialIds(`h${++hosts}`), runs: runner, config,
			endpoint: join(ws.path, 'no-server.sock'), userCredential: 'user-secret', cliShim: join(build.shimDir, 'tutti'), log: () => undefined,
			planServiceFactory: (deps) => {
				admission = deps.admission;
				const unsupported = async (): Promise<never> => { throw new Error('not part of this test'); };
				const plan: PlanService = {
					create: unsupported, get: unsupported, schedule: unsupported, mutate: unsupported, acknowledge: unsupported,
					complete: unsupported, stop: unsupported, resume: unsupported, pause: unsupported,
					setPausedByUser: async () => undefined, repairOnStart: async () => undefined,
					onRunSettled: (_tx, settled) => { settlements.push(settled.run.runId); },
				};
				return plan;
			},
		});
		await services.start();
	}

	async function stopHost(): Promise<void> {
		services.dispose();
		runner.dispose();
		await store.close();
	}

	beforeEach(async () => {
		ws = makeTempDir('tutti-ra-ws-');
		settlements.length = 0;
		await startHost();
	});
	afterEach(async () => {
		killAllRuns(join(ws.path, '.tutti'));
		await stopHost();
		ws.remove();
	});

	/** A managed issue with two tasks, admitted and launched through the Run admission (as a schedule would). */
	async function scheduleTwo(): Promise<string[]> {
		const now = Date.now();
		const issue: Issue = {
			issueId: 'i1', title: 'restart', content: 'goal', status: 'open', planningSource: 'tutti', sourceSessionId: '',
			dispatchPaused: false, autoAcceptDefault: false, createdAtUnixMs: now, updatedAtUnixMs: now,
		};
		const task = (taskId: string, sortIndex: number): Task => ({
			issueId: 'i1', taskId, title: taskId, content: taskId, status: 'not_started', sortIndex, dependencyTaskIds: [], parallelizable: true,
			autoAccept: false, acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '',
			createdAtUnixMs: now, updatedAtUnixMs: now, agentTargetId: 'wait', modelPlanId: '', model: '', permissionModeId: '',
			reasoningEffort: '', executionDirectory: '',
		});
		const admitted = await store.transaction((tx) => {
			issueRepository.insert(tx, issue);
			const tasks = [task('a', 0), task('b', 1)];
			for (const t of tasks) { taskRepository.insert(tx, t); }
			return admission!.admit(tx, issue, tasks);
		});
		const runIds = admitted.map((a) => a.runId);
		await admission!.launch(runIds);
		return runIds;
	}

	const runOf = (runId: string) => store.read((r) => runRepository.get(r, runId)!);

	it('one ends while the Host is down, one after the restart; both settle once, and another restart changes nothing', async () => {
		const [runA, runB] = await scheduleTwo() as [string, string];
		await waitFor(() => (['a', 'b'].every((t, i) => runner.readLog([runA, runB][i]!, 'stdout', 0, 100).data.includes('ready')) ? true : undefined), { what: 'both workers to start', timeoutMs: 30_000 });
		await stopHost();

		writeFileSync(join(ws.path, 'go-a'), '');
		await waitFor(() => (runner.exitRecord(runA) !== null ? true : undefined), { what: 'worker a to exit while no Host is up', timeoutMs: 30_000 });

		await startHost();
		await waitFor(() => (runOf(runA).status !== 'running' ? true : undefined), { what: 'run a to settle from its exit record', timeoutMs: 30_000 });
		assert.equal(runOf(runB).status, 'running', 'the live worker was re-attached, not settled');
		writeFileSync(join(ws.path, 'go-b'), '');
		await waitFor(() => (runOf(runB).status !== 'running' ? true : undefined), { what: 'run b to settle', timeoutMs: 30_000 });
		await services.whenIdle();

		for (const runId of [runA, runB]) {
			const run = runOf(runId);
			assert.deepEqual([run.status, run.outcome, run.exitCode], ['completed', 'success', 0], runId);
			assert.equal(store.read((r) => turnRepository.bySubmitId(r, `issue-run:${runId}`))?.state, 'settled');
		}
		assert.deepEqual([...settlements].sort(), [runA, runB].sort(), 'each Run settled exactly once');
		const before = [runOf(runA), runOf(runB)];

		await stopHost();
		await startHost();
		await services.whenIdle();
		// Whatever a poll of the new runner would see, seen now; then whatever that started, finished.
		runner.checkNow();
		await new Promise((resolve) => setImmediate(resolve));
		await services.whenIdle();
		assert.deepEqual([runOf(runA), runOf(runB)], before, 'a later Host start changes nothing');
		assert.equal(settlements.length, 2, 'nothing is settled twice');
		assert.deepEqual(store.read((r) => taskRepository.listByIssue(r, 'i1').map((t) => t.status)), ['pending_acceptance', 'pending_acceptance']);
	});

	it('carries out a person\'s Stop that was recorded before the Host went down but never sent (durable before interrupting)', async () => {
		const [runA, runB] = await scheduleTwo() as [string, string];
		await waitFor(() => (['a', 'b'].every((t, i) => runner.readLog([runA, runB][i]!, 'stdout', 0, 100).data.includes('ready')) ? true : undefined), { what: 'both workers to start', timeoutMs: 30_000 });
		// The Host recorded the Stop event, then died before interrupting: the event has no answer and b still runs.
		await store.transaction((tx) => runRepository.insertStopEvent(tx, { eventId: 'stop-before-crash', runId: runB, reason: 'person', requestedAtUnixMs: Date.now(), answer: null, answeredAtUnixMs: 0 }));
		await stopHost();

		await startHost();
		await waitFor(() => (runOf(runB).status !== 'running' ? true : undefined), { what: 'run b to settle (its worker waits for a go file that never comes)', timeoutMs: 30_000 });
		await services.whenIdle();
		const b = runOf(runB);
		assert.deepEqual([b.status, b.outcome], ['canceled', 'cancellation'], 'the developer\'s Stop took: a cancellation, not a failure');
		assert.deepEqual(store.read((r) => runRepository.stopEvents(r, runB).map((e) => [e.eventId, e.answer])), [['stop-before-crash', 'took']]);
		assert.equal(runOf(runA).status, 'running', 'a Run nobody stopped keeps running');
		writeFileSync(join(ws.path, 'go-a'), '');
		await waitFor(() => (runOf(runA).status !== 'running' ? true : undefined), { what: 'run a to settle', timeoutMs: 30_000 });
		assert.equal(runOf(runA).outcome, 'success');
	});
});
