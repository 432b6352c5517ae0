// Stalled is not failed, over real Run processes: a command Run that prints and then stays silent for its target's
// stallSeconds is marked stalled (a needs-you item with its last activity), its next output lifts the mark, and it
// settles by its own exit, never failed or stopped. The clock is stepped and each probe is driven by the test, so
// nothing waits for the stall time to pass; the only waits are for the agent's output to reach its log.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { HostConfig } from '../../../src/host/config.js';
import { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import { createHostServices, type HostServices } from '../../../src/host/services/hostServices.js';
import { type Caller, type Method, methods, type Params, type ParsedParams, type Result } from '../../../src/protocol/controlPlane.js';
import { Store } from '../../../src/store/database.js';
import { runStallRepository } from '../../../src/store/repositories/runStallRepository.js';
import { recordingPlanService, sequentialIds } from '../../unit/host/services/serviceHarness.js';
import { killAllRuns, makeTempDir, type RunBuild, shareRunBuild } from '../runs/runTestKit.js';
import { waitFor } from '../../waitFor.js';

const user: Caller = { kind: 'user' };
/** Prints "ready"; prints once more when `speak.gate` appears in its working directory; exits 0 at `release.gate`. */
const quiet = [
	'const fs = require("fs"); let spoke = false;',
	'process.stdout.write("ready\\n");',
	'setInterval(() => {',
	'  if (!spoke && fs.existsSync("speak.gate")) { spoke = true; process.stdout.write("working again\\n"); }',
	'  if (fs.existsSync("release.gate")) { process.exit(0); }',
	'}, 50);',
].join('');

describe('a silent Run is marked stalled, never failed (real processes)', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let ws: ReturnType<typeof makeTempDir>;
	let store: Store;
	let runner: ProcessRunner;
	let services: HostServices;
	const clock = { t: 0, now(): number { return this.t; } };

	shareRunBuild('tutti-stall-build-', (b) => { build = b; });

	const config: HostConfig = {
		agentTargets: [
			{ id: 'quiet', adapter: 'command', argv: [process.execPath, '-e', quiet], stallSeconds: 60 },
			{ id: 'never', adapter: 'command', argv: [process.execPath, '-e', quiet], stallSeconds: 0 },
		],
		maxParallelRuns: 2,
		autoAcceptDefault: false,
	};

	beforeEach(async () => {
		ws = makeTempDir('tutti-stall-ws-');
		clock.t = Date.now();
		const tuttiDir = join(ws.path, '.tutti');
		store = await Store.open({ dir: tuttiDir, lease: false, recoveryRetryMs: 200 });
		runner = new ProcessRunner({ workspace: ws.path, tuttiDir, supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir, pollIntervalMs: 50, interruptGraceMs: 1000, killWaitMs: 2000 });
		services = createHostServices({
			workspace: ws.path, tuttiDir, store, clock, ids: sequentialIds('stall'), runs: runner, config,
			endpoint: join(ws.path, 'no-server.sock'), userCredential: 'user-secret', cliShim: join(build.shimDir, 'tutti'),
			log: (l) => { if (process.env.DBG) { console.error(l); } }, planServiceFactory: recordingPlanService([]),
			// The test drives every probe (checkStalls), on its stepped clock.
			stallProbeMs: 0,
		});
		await services.start();
	});

	afterEach(async () => {
		killAllRuns(join(ws.path, '.tutti'));
		services.dispose();
		runner.dispose();
		await store.close();
		ws.remove();
	});

	function call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
		const handler = services.api.handlers[method] as (p: ParsedParams<M>, c: Caller) => Promise<Result<M>>;
		return handler(methods[method].params.parse(params) as ParsedParams<M>, user);
	}

	async function logHas(runId: string, text: string): Promise<void> {
		await waitFor(async () => (await call('run/log', { runId })).data.includes(text), { what: `"${text}" in the log of ${runId}`, timeoutMs: 30_000 });
	}

	it('marked after stallSeconds of silence (a needs-you item), unmarked by its next output, and it completes by its own exit', async () => {
		const issueId = (await call('issue/create', { title: 'stall' })).issueId;
		await call('task/add', { issueId, taskId: 'q', title: 'quiet', agentTargetId: 'quiet' });
		const runId = await waitFor(async () => (await call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'q')?.latestRunId || undefined, { what: 'the Run of q' });
		await logHas(runId, 'ready');
		// Its launch step has ended (a probe leaves a Run alone while one is in progress).
		await services.whenIdle();
		const t0 = clock.t;

		await services.checkStalls();
		assert.equal((await call('run/get', { runId })).stalled, null, 'printed just now: not stalled');
		clock.t = t0 + 59_999;
		await services.checkStalls();
		assert.equal((await call('run/get', { runId })).stalled, null, 'one millisecond before its stallSeconds: not stalled');

		clock.t = t0 + 60_000;
		await services.checkStalls();
		const marked = await call('run/get', { runId });
		assert.deepEqual([marked.status, marked.outcome, marked.outcomeLabel], ['running', null, null], 'a mark only: the Run goes on');
		assert.deepEqual(marked.stalled, { lastActivityAtUnixMs: t0, markedAtUnixMs: t0 + 60_000, label: 'Stalled: no activity for 1 min' });
		const issue = await call('issue/get', { issueId });
		assert.deepEqual(issue.tasks.find((t) => t.taskId === 'q')?.stalled, marked.stalled, '`issue get` shows the mark too');
		assert.deepEqual(issue.tasks.find((t) => t.taskId === 'q')?.attention, { state: 'needs_you', label: 'Stalled: no activity for 1 min' });
		assert.equal(issue.attention?.state, 'needs_you');
		const reason = issue.attention?.reasons.find((r) => r.kind === 'run_stalled');
		assert.deepEqual(reason && { label: reason.label, taskIds: reason.taskIds }, { label: '1 Run stalled, no activity for 1 min', taskIds: ['q'] });
		assert.deepEqual(issue.attention?.runs.map((r) => [r.runId, r.kind, r.label, r.needsYou]), [[runId, 'stalled', 'Stalled: no activity for 1 min', true]]);
		const words = [issue.attention?.label ?? '', ...(issue.attention?.reasons ?? []).map((r) => r.label), ...(issue.attention?.runs ?? []).map((r) => r.label)];
		assert.deepEqual(words.filter((w) => /fail/i.test(w)), [], 'the stall is never worded as a failure');

		clock.t = t0 + 125_000;
		await services.checkStalls();
		assert.equal((await call('run/get', { runId })).stalled?.label, 'Stalled: no activity for 2 min', 'still silent: the same mark, its time grows');

		writeFileSync(join(ws.path, 'speak.gate'), '');
		await logHas(runId, 'working again');
		clock.t = t0 + 130_000;
		await services.checkStalls();
		const unmarked = await call('run/get', { runId });
		assert.equal(unmarked.stalled, null, 'its output moved: the mark is lifted');
		assert.equal(unmarked.status, 'running');
		const after = await call('issue/get', { issueId });
		assert.equal(after.attention?.reasons.some((r) => r.kind === 'run_stalled'), false, 'the needs-you item went with the mark');
		assert.equal(after.tasks.find((t) => t.taskId === 'q')?.stalled, undefined);
		assert.deepEqual(store.read((r) => runStallRepository.listOfRun(r, runId)).map((s) => [s.episode, s.lastActivityAtUnixMs, s.clearedAtUnixMs, s.clearedBy]),
			[[1, t0, t0 + 130_000, 'activity']], 'the lifted mark stays as history');

		writeFileSync(join(ws.path, 'release.gate'), '');
		const settled = await waitFor(async () => { const r = await call('run/get', { runId }); return r.status === 'running' ? undefined : r; }, { what: 'the Run to settle', timeoutMs: 30_000 });
		assert.deepEqual([settled.status, settled.outcome, settled.exitCode, settled.stalled], ['completed', 'success', 0, null], 'never failed nor stopped for its stall');
	});

	it('a target with stallSeconds 0 is never marked', async () => {
		const issueId = (await call('issue/create', { title: 'never' })).issueId;
		await call('task/add', { issueId, taskId: 'n', title: 'never', agentTargetId: 'never' });
		const runId = await waitFor(async () => (await call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'n')?.latestRunId || undefined, { what: 'the Run of n' });
		await logHas(runId, 'ready');
		await services.whenIdle();
		await services.checkStalls();
		clock.t += 7 * 24 * 3600_000;
		await services.checkStalls();
		assert.equal((await call('run/get', { runId })).stalled, null);
	});
});
