// The Host services over the real ProcessRunner: real supervisors and real agent processes.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { systemClock } from '../../../src/core/ports.js';
import type { HostConfig } from '../../../src/host/config.js';
import { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import { readOutputOrder } from '../../../src/supervisor/outputOrder.js';
import { createHostServices, type HostServices } from '../../../src/host/services/hostServices.js';
import { type Caller, type Method, methods, type Params, type ParsedParams, type Result } from '../../../src/protocol/controlPlane.js';
import { Store } from '../../../src/store/database.js';
import { recordingPlanService, sequentialIds } from '../../unit/host/services/serviceHarness.js';
import { FullDisk } from '../../unit/store/faultyDisk.js';
import { killAllRuns, makeTempDir, type RunBuild, shareRunBuild } from '../runs/runTestKit.js';
import { waitFor } from '../../waitFor.js';

const user: Caller = { kind: 'user' };
const node = process.execPath;
const echoStdin = 'let s="";process.stdin.on("data",(d)=>{s+=d;}).on("end",()=>{process.stdout.write(`got ${s} for ${process.env.TUTTI_TASK_ID} in ${process.cwd()}\\n`);});';
const sleeper = 'process.stdout.write("ready\\n"); setInterval(() => {}, 1000);';
/** Prints ready, then exits 0 once `release.gate` appears in its working directory. */
const gated = 'process.stdout.write("ready\\n"); setInterval(() => { if (require("fs").existsSync("release.gate")) process.exit(0); }, 50);';
/** Writes two Claude Code stream-json lines and the start of a third, then finishes that line once `release.gate` appears. */
const transcriptWriter = [
	'const w=(s)=>process.stdout.write(s);',
	'w(JSON.stringify({type:"assistant",message:{id:"m1",content:[{type:"text",text:"Reading the tests"},{type:"tool_use",id:"t1",name:"Bash",input:{command:"npm test"}}]}})+"\\n");',
	'w(JSON.stringify({type:"assistant",message:{id:"m2",content:[{type:"tool_use",id:"t2",name:"Edit",input:{file_path:"src/a.ts"}}]}})+"\\n");',
	'w(\'{"type":"result","subtype":"succ\');',
	'setInterval(() => { if (require("fs").existsSync("release.gate")) { w(\'ess","is_error":false,"result":"All green"}\\n\'); process.exit(0); } }, 50);',
].join('');

/**
 * stdout, then stderr, then stdout again, each step waiting for its gate file (`g1`, `g2` in its working directory,
 * written by the test once the supervisor's size sample shows the step before), then exit 3.
 */
const alternating = [
	'const fs=require("fs");const gate=(f,then)=>{const t=setInterval(()=>{if(fs.existsSync(f)){clearInterval(t);then();}},20);};',
	'process.stdout.write("compiling\\n");',
	'gate("g1",()=>{process.stderr.write("npm ERR! 3 tests failed\\n");gate("g2",()=>{process.stdout.write("cleaning up\\n");process.exit(3);});});',
].join('');

describe('Host services with real Run processes', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let ws: ReturnType<typeof makeTempDir>;
	let store: Store;
	let runner: ProcessRunner;
	let services: HostServices;

	shareRunBuild('tutti-hs-build-', (b) => { build = b; });

	const config: HostConfig = {
		agentTargets: [
			{ id: 'echo', adapter: 'command', argv: [node, '-e', echoStdin] },
			{ id: 'sleep', adapter: 'command', argv: [node, '-e', sleeper] },
			{ id: 'fail', adapter: 'command', argv: [node, '-e', 'process.exit(3)'] },
			{ id: 'gated', adapter: 'command', argv: [node, '-e', gated] },
			{ id: 'transcript', adapter: 'command', argv: [node, '-e', transcriptWriter] },
			{ id: 'alternating', adapter: 'command', argv: [node, '-e', alternating] },
		],
		maxParallelRuns: 4,
		autoAcceptDefault: false,
	};

	/** Starts a Host's services over the workspace (again, after a restart). */
	async function startHost(): Promise<void> {
		const tuttiDir = join(ws.path, '.tutti');
		store = await Store.open({ dir: tuttiDir, lease: false, recoveryRetryMs: 200 });
		runner = new ProcessRunner({ workspace: ws.path, tuttiDir, supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir, pollIntervalMs: 50, interruptGraceMs: 1000, killWaitMs: 2000 });
		services = createHostServices({
			workspace: ws.path, tuttiDir, store, clock: systemClock, ids: sequentialIds(`h${++hosts}`), runs: runner, config,
			endpoint: join(ws.path, 'no-server.sock'), userCredential: 'user-secret', cliShim: join(build.shimDir, 'tutti'),
			log: (l) => { if (process.env.DBG) { console.error(l); } }, planServiceFactory: recordingPlanService([]),
		});
		await services.start();
	}

	/** The Host goes away (window reload): its Runs keep going. */
	async function stopHost(): Promise<void> {
		services.dispose();
		runner.dispose();
		await store.close();
	}

	let hosts = 0;
	beforeEach(async () => {
		ws = makeTempDir('tutti-hs-ws-');
		mkdirSync(join(ws.path, 'pkg'));
		await startHost();
	});

	afterEach(async () => {
		killAllRuns(join(ws.path, '.tutti'));
		await stopHost();
		ws.remove();
	});

	function call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
		const handler = services.api.handlers[method] as (p: ParsedParams<M>, c: Caller) => Promise<Result<M>>;
		return handler(methods[method].params.parse(params) as ParsedParams<M>, user);
	}

	async function runOf(issueId: string, taskId: string): Promise<string> {
		return waitFor(async () => (await call('issue/get', { issueId })).tasks.find((t) => t.taskId === taskId)?.latestRunId || undefined, { what: `a Run of ${taskId}`, timeoutMs: 30_000 });
	}

	async function settled(runId: string): Promise<Result<'run/get'>> {
		return waitFor(async () => {
			const run = await call('run/get', { runId });
			return run.status === 'running' ? undefined : run;
		}, { what: `run ${runId} to settle`, timeoutMs: 30_000 });
	}

	it('a `node -e` command Run settles completed with its stdout captured (content on stdin, task directory as cwd)', async () => {
		const issueId = (await call('issue/create', { title: 'real', autoAccept: true })).issueId;
		await call('task/add', { issueId, taskId: 'a', title: 'echo', agentTargetId: 'echo', content: 'hello', executionDirectory: 'pkg' });
		const run = await settled(await runOf(issueId, 'a'));
		assert.deepEqual([run.status, run.outcome, run.exitCode], ['completed', 'success', 0], JSON.stringify(run));
		assert.match(run.outcomeLabel ?? '', /^Completed in \d[\d.hms ]*$/);
		const log = await call('run/log', { runId: run.runId });
		assert.match(log.data, /^got hello for a in .*pkg\n$/);
		assert.equal(log.done, true);
		assert.equal((await call('issue/get', { issueId })).status, 'completed');
	});

	it('run/transcript reads whole lines as the agent writes them: a partial line waits, and is read once finished', async () => {
		const issueId = (await call('issue/create', { title: 'transcript' })).issueId;
		await call('task/add', { issueId, taskId: 't', title: 'transcript', agentTargetId: 'transcript' });
		const runId = await runOf(issueId, 't');
		await waitFor(async () => ((await call('run/log', { runId })).data.includes('"subtype":"succ') ? true : undefined), { what: 'the partial third line', timeoutMs: 30_000 });
		const first = await call('run/transcript', { runId });
		assert.deepEqual(first.entries.map((e) => [e.kind, e.text]), [['assistant', 'Reading the tests'], ['tool', '$ npm test'], ['edit', 'src/a.ts']]);
		assert.equal(first.done, false, 'the Run still runs');
		const log = await call('run/log', { runId });
		assert.ok(first.nextOffset < Buffer.byteLength(log.data), 'the partial result line is not consumed');
		assert.deepEqual((await call('run/transcript', { runId, offset: first.nextOffset })).entries, [], 'a partial line is not read as output');
		assert.deepEqual((await call('run/get', { runId })).activity, { kind: 'edit', text: 'src/a.ts', tool: 'Edit' }, 'what it is doing now: its newest whole line');
		assert.deepEqual((await call('run/list', { issueId })).runs[0]!.activity, { kind: 'edit', text: 'src/a.ts', tool: 'Edit' });
		const attention = (await call('issue/list', {})).issues.find((i) => i.issueId === issueId)!.attention;
		assert.deepEqual([attention.state, attention.activity], ['agent_working', 'transcript: Editing src/a.ts'], 'the board and the panel say what it is doing now');
		writeFileSync(join(ws.path, 'release.gate'), '');
		await settled(runId);
		const rest = await call('run/transcript', { runId, offset: first.nextOffset });
		assert.deepEqual(rest.entries.map((e) => [e.kind, e.text]), [['result', 'All green']]);
		assert.equal((await call('run/get', { runId })).activity, undefined, 'a settled Run is doing nothing');
		assert.equal(rest.done, true);
	});

	it('run/transcript interleaves stderr (marked) where it was written, live and after the Run ended', async () => {
		const issueId = (await call('issue/create', { title: 'stderr' })).issueId;
		await call('task/add', { issueId, taskId: 'e', title: 'stderr', agentTargetId: 'alternating' });
		const runId = await runOf(issueId, 'e');
		const runDir = join(ws.path, '.tutti', 'runs', runId);
		const sampled = (out: number, err: number): Promise<true> => waitFor(async () => (readOutputOrder(runDir).some(([o, e]) => o >= out && e >= err) ? true : undefined),
			{ what: `a size sample of at least ${out} stdout and ${err} stderr bytes`, timeoutMs: 30_000 });
		await sampled(1, 0);
		writeFileSync(join(ws.path, 'g1'), '');
		await sampled(1, 1);
		const live = await call('run/transcript', { runId });
		assert.deepEqual(live.entries.map((e) => [e.kind, e.text]), [['output', 'compiling'], ['stderr', 'npm ERR! 3 tests failed']], 'the stderr line arrives while the Run runs');
		assert.equal(live.done, false);
		writeFileSync(join(ws.path, 'g2'), '');
		const run = await settled(runId);
		assert.equal(run.exitCode, 3);
		const rest = await call('run/transcript', { runId, offset: live.nextOffset, stderrOffset: live.stderrNextOffset });
		assert.deepEqual(rest.entries.map((e) => [e.kind, e.text]), [['output', 'cleaning up']]);
		assert.equal(rest.done, true);
		const whole = await call('run/transcript', { runId });
		assert.deepEqual(whole.entries.map((e) => e.text), ['compiling', 'npm ERR! 3 tests failed', 'cleaning up'], 'read after the end, in the order written');
		const attention = (await call('issue/get', { issueId })).tasks[0]!.attention;
		assert.equal(attention?.label, 'Failed: exit code 3 — retry, edit or stop');
	});

	it('run/stop of a sleeping process: the Stop took and the Run ends canceled', async () => {
		const issueId = (await call('issue/create', { title: 'stop' })).issueId;
		await call('task/add', { issueId, taskId: 's', title: 'sleep', agentTargetId: 'sleep' });
		const runId = await runOf(issueId, 's');
		await waitFor(async () => ((await call('run/log', { runId })).data.includes('ready') ? true : undefined), { what: 'the sleeper to start', timeoutMs: 30_000 });
		const stopped = await call('run/stop', { runId });
		assert.equal(stopped.answer, 'took');
		const run = await settled(runId);
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.match(run.outcomeLabel ?? '', /^Interrupted after \d[\d.hms ]* — you stopped this$/);
		assert.deepEqual(run.stopNotes.map((n) => [n.eventId, n.answer]), [[stopped.eventId, 'took']]);
		assert.equal((await call('issue/get', { issueId })).tasks[0]!.status, 'canceled');
	});

	it('a failing command settles failed with its exit code', async () => {
		const issueId = (await call('issue/create', { title: 'fail' })).issueId;
		await call('task/add', { issueId, taskId: 'f', title: 'fail', agentTargetId: 'fail' });
		const run = await settled(await runOf(issueId, 'f'));
		assert.deepEqual([run.status, run.outcome, run.exitCode, run.errorMessage], ['failed', 'failure', 3, 'exited with code 3']);
	});

	it('a Run survives a Host restart: the next Host re-attaches it, and a Stop then cancels it', async () => {
		const issueId = (await call('issue/create', { title: 'restart' })).issueId;
		await call('task/add', { issueId, taskId: 's', title: 'sleep', agentTargetId: 'sleep' });
		const runId = await runOf(issueId, 's');
		await waitFor(async () => ((await call('run/log', { runId })).data.includes('ready') ? true : undefined), { what: 'the sleeper to start', timeoutMs: 30_000 });
		await stopHost();
		await startHost();
		assert.equal((await call('run/get', { runId })).status, 'running', 'the live Run was re-attached, not settled');
		const stopped = await call('run/stop', { runId });
		assert.equal(stopped.answer, 'took');
		const run = await settled(runId);
		assert.equal(run.outcome, 'cancellation');
	});

	it('a Run that exits while the disk is full settles once space returns, in the same Host (no restart)', async () => {
		const issueId = (await call('issue/create', { title: 'full disk' })).issueId;
		await call('task/add', { issueId, taskId: 'g', title: 'gated', agentTargetId: 'gated' });
		const runId = await runOf(issueId, 'g');
		await waitFor(async () => ((await call('run/log', { runId })).data.includes('ready') ? true : undefined), { what: 'the gated process to start', timeoutMs: 30_000 });
		const disk = new FullDisk();
		disk.install();
		try {
			disk.full = true;
			writeFileSync(join(ws.path, 'release.gate'), ''); // the process exits; its settlement cannot be saved
			await waitFor(async () => (store.stats().unavailable !== undefined ? true : undefined), { what: 'the refused settlement', timeoutMs: 30_000 });
			assert.equal((await call('run/get', { runId })).status, 'running', 'the refused settlement is not shown');
			disk.full = false;
			const run = await settled(runId);
			assert.deepEqual([run.status, run.outcome], ['completed', 'success']);
			assert.equal(store.stats().recoveries, 1);
		} finally {
			disk.uninstall();
		}
	});
});
