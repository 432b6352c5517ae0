// ProcessRunner with real supervisors and real agent processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessRunner, type ProcessRunnerOptions } from '../../../src/host/runs/processRunner.js';
import type { RunExit } from '../../../src/core/runs/runProcessPort.js';
import { processIsAlive } from '../../../src/supervisor/processTable.js';
import { readPidRecord } from '../../../src/supervisor/runFiles.js';
import {
	exitOf, killAllRuns, launchSpec, makeTempDir, nodeTarget, recordExits, repoRoot, type RunBuild, shareRunBuild, stdoutContains, tsxNodeArgs,
} from './runTestKit.js';
import { waitFor } from '../../waitFor.js';

const hostSecrets = { TUTTI_USER_TOKEN: 'user-credential-secret', TUTTI_SESSION_TOKEN: 'host-own-session-secret' };

describe('ProcessRunner (real processes)', function () {
	this.timeout(30_000);
	let build: RunBuild;
	let ws: ReturnType<typeof makeTempDir>;
	let runner: ProcessRunner;
	let exits: RunExit[];
	const runners: ProcessRunner[] = [];

	shareRunBuild('tutti-sup-', (b) => { build = b; });

	function newRunner(extra: Partial<ProcessRunnerOptions> = {}): ProcessRunner {
		const r = new ProcessRunner({
			workspace: ws.path,
			tuttiDir: join(ws.path, '.tutti'),
			supervisorScript: build.supervisorScript,
			cliScript: build.cliScript,
			shimDir: build.shimDir,
			pollIntervalMs: 50,
			interruptGraceMs: 400,
			killWaitMs: 3000,
			hostEnv: { ...process.env, ...hostSecrets },
			...extra,
		});
		runners.push(r);
		return r;
	}

	/** Lets the checks adopt() scheduled run, then checks every watched Run and this one a few times more. */
	async function checkedRepeatedly(r: ProcessRunner, runId: string): Promise<void> {
		await new Promise((resolve) => setImmediate(resolve));
		for (let i = 0; i < 3; i++) { r.checkNow(); r.checkNow(runId); }
		await new Promise((resolve) => setImmediate(resolve));
	}

	beforeEach(() => {
		ws = makeTempDir('tutti-ws-');
		runner = newRunner();
		exits = recordExits(runner);
	});

	afterEach(() => {
		// Never leave an agent behind, whatever a test did (pid.json records each Run's processes).
		killAllRuns(join(ws.path, '.tutti'));
		for (const r of runners.splice(0)) { r.dispose(); }
		ws.remove();
	});

	it('settles a command that exits 0, with pid.json, events and the exact Turn binding', async () => {
		await runner.launch(launchSpec('r-ok', nodeTarget('process.exit(0)'), ws.path));
		const pid = readPidRecord(runner.runDir('r-ok'));
		assert.ok(pid, 'pid.json is written before launch resolves or soon after');
		assert.equal(pid.agentPgid, pid.agentPid, 'the agent leads its own process group');
		const exit = await exitOf(exits, 'r-ok');
		assert.equal(exit.exitCode, 0);
		assert.equal(exit.signal, null);
		assert.equal(exit.clientSubmitId, 'issue-run:r-ok');
		assert.equal(exit.spawnError, undefined);
		assert.deepEqual(runner.exitRecord('r-ok'), exit);
		const events = readFileSync(join(runner.runDir('r-ok'), 'events.jsonl'), 'utf8').trim().split('\n')
			.map((l) => (JSON.parse(l) as { type: string }).type);
		assert.deepEqual(events, ['started', 'exited']);
		assert.equal(statSync(runner.runDir('r-ok')).mode & 0o777, 0o700);
		await waitFor(() => (runner.isAlive('r-ok') ? undefined : true), { what: 'the supervisor to end' });
	});

	it('settles a command that exits 3', async () => {
		await runner.launch(launchSpec('r-three', nodeTarget('process.exit(3)'), ws.path));
		const exit = await exitOf(exits, 'r-three');
		assert.equal(exit.exitCode, 3);
		assert.equal(exit.signal, null);
	});

	it('feeds the task content on stdin, and /dev/null when it is empty', async () => {
		const content = 'Do the thing.\nÜmlaut and emoji 🎻 survive.\n';
		const echo = nodeTarget('let s="";process.stdin.setEncoding("utf8");process.stdin.on("data",d=>s+=d);process.stdin.on("end",()=>process.stdout.write(JSON.stringify(s)))');
		await runner.launch(launchSpec('r-stdin', echo, ws.path, { stdinText: content }));
		await runner.launch(launchSpec('r-nostdin', echo, ws.path, { stdinText: '' }));
		await exitOf(exits, 'r-stdin');
		await exitOf(exits, 'r-nostdin');
		assert.equal(JSON.parse(runner.readLog('r-stdin', 'stdout', 0, 10_000).data), content);
		assert.equal(JSON.parse(runner.readLog('r-nostdin', 'stdout', 0, 10_000).data), '');
	});

	it('gives the agent its TUTTI_* variables and the target env, never the Host credentials, and `tutti` on PATH', async () => {
		const target = nodeTarget('process.stdout.write(JSON.stringify(process.env))', { env: { TARGET_FLAVOUR: 'mint' } });
		await runner.launch(launchSpec('r-env', target, ws.path));
		await exitOf(exits, 'r-env');
		const env = JSON.parse(runner.readLog('r-env', 'stdout', 0, 1_000_000).data) as Record<string, string>;
		assert.equal(env.TUTTI_RUN_ID, 'r-env');
		assert.equal(env.TUTTI_TASK_ID, 'task-r-env');
		assert.equal(env.TUTTI_SESSION_TOKEN, 'agent-token-r-env', 'the Run’s own token, not the Host’s');
		assert.equal(env.TARGET_FLAVOUR, 'mint');
		assert.equal(env.TUTTI_USER_TOKEN, undefined, 'the user credential never reaches an agent');
		assert.ok(!JSON.stringify(env).includes('user-credential-secret'));
		assert.ok(!JSON.stringify(env).includes('host-own-session-secret'));
		assert.equal(env.PATH?.split(':')[0], build.shimDir, 'the private shim directory, outside the workspace, comes first');

		await runner.launch(launchSpec('r-shim', { id: 'sh', adapter: 'command', argv: ['sh', '-c', 'tutti run get "two words"'] }, ws.path));
		const shim = await exitOf(exits, 'r-shim');
		assert.equal(shim.exitCode, 0, runner.readLog('r-shim', 'stderr', 0, 10_000).data);
		assert.deepEqual(JSON.parse(runner.readLog('r-shim', 'stdout', 0, 10_000).data), { cli: ['run', 'get', 'two words'] });
	});

	it('captures stdout and stderr separately and reads them in slices', async () => {
		await runner.launch(launchSpec('r-logs', nodeTarget('process.stdout.write("out-1\\nout-2\\n");process.stderr.write("err-1\\n")'), ws.path));
		await exitOf(exits, 'r-logs');
		assert.equal(runner.readLog('r-logs', 'stdout', 0, 1000).data, 'out-1\nout-2\n');
		assert.equal(runner.readLog('r-logs', 'stderr', 0, 1000).data, 'err-1\n');
		const first = runner.readLog('r-logs', 'stdout', 0, 6);
		assert.deepEqual(first, { data: 'out-1\n', nextOffset: 6, size: 12 });
		const second = runner.readLog('r-logs', 'stdout', first.nextOffset, 1000);
		assert.deepEqual(second, { data: 'out-2\n', nextOffset: 12, size: 12 });
		assert.deepEqual(runner.readLog('r-logs', 'stdout', 12, 1000), { data: '', nextOffset: 12, size: 12 });
	});

	it('runs a shell only when the target says shell: true', async () => {
		await runner.launch(launchSpec('r-shell', { id: 'sh', adapter: 'command', argv: ['echo hello | tr a-z A-Z'], shell: true }, ws.path));
		assert.equal((await exitOf(exits, 'r-shell')).exitCode, 0);
		assert.equal(runner.readLog('r-shell', 'stdout', 0, 100).data, 'HELLO\n');

		await runner.launch(launchSpec('r-noshell', { id: 'sh', adapter: 'command', argv: ['echo hello | tr a-z A-Z'] }, ws.path));
		const exit = await exitOf(exits, 'r-noshell');
		assert.match(exit.spawnError ?? '', /ENOENT/, 'without shell: true the whole string is one executable name');
	});

	it('interrupts a sleeping agent with SIGINT to its process group', async () => {
		await runner.launch(launchSpec('r-sleep', nodeTarget('console.log("ready");setInterval(()=>{},1000)'), ws.path));
		await stdoutContains(runner, 'r-sleep', 'ready');
		assert.equal(runner.isAlive('r-sleep'), true);
		assert.equal(await runner.interrupt('r-sleep'), 'exited');
		const exit = await exitOf(exits, 'r-sleep');
		assert.equal(exit.exitCode, null);
		assert.equal(exit.signal, 'SIGINT');
	});

	it('reaches the whole process group, not only the agent (a shell and its child)', async () => {
		const target = { id: 'sh', adapter: 'command' as const, argv: ['sh', '-c', `"${process.execPath}" -e 'process.on("SIGINT",()=>{});console.log("child-ready");setInterval(()=>{},1000)' & wait`] };
		await runner.launch(launchSpec('r-group', target, ws.path));
		await stdoutContains(runner, 'r-group', 'child-ready');
		assert.equal(await runner.interrupt('r-group'), 'exited');
		await exitOf(exits, 'r-group');
	});

	it('escalates to SIGKILL when the agent ignores SIGINT and SIGTERM', async () => {
		const stubborn = nodeTarget('process.on("SIGINT",()=>{});process.on("SIGTERM",()=>{});console.log("ready");setInterval(()=>{},1000)');
		await runner.launch(launchSpec('r-stubborn', stubborn, ws.path));
		await stdoutContains(runner, 'r-stubborn', 'ready');
		assert.equal(await runner.interrupt('r-stubborn'), 'exited');
		const exit = await exitOf(exits, 'r-stubborn');
		assert.equal(exit.signal, 'SIGKILL');
	});

	it('answers not_running when the Run already ended or never had a process', async () => {
		await runner.launch(launchSpec('r-done', nodeTarget('process.exit(0)'), ws.path));
		await exitOf(exits, 'r-done');
		assert.equal(await runner.interrupt('r-done'), 'not_running');
		assert.equal(await runner.interrupt('r-never-launched'), 'not_running');
		// exit.json is the supervisor's last write, not its end: it may still be exiting when the record appears.
		await waitFor(() => (runner.isAlive('r-done') ? undefined : true), { what: 'the supervisor to end' });
		assert.equal(runner.isAlive('r-never-launched'), false);
	});

	it('records a spawn error for a missing executable or a missing working directory', async () => {
		await runner.launch(launchSpec('r-enoent', { id: 'x', adapter: 'command', argv: ['tutti-no-such-program-xyz', '--flag'] }, ws.path));
		const exit = await exitOf(exits, 'r-enoent');
		assert.equal(exit.exitCode, null);
		assert.match(exit.spawnError ?? '', /executable not found: tutti-no-such-program-xyz/);
		assert.deepEqual(runner.exitRecord('r-enoent'), exit);

		await runner.launch(launchSpec('r-badcwd', nodeTarget('process.exit(0)'), join(ws.path, 'missing-dir')));
		assert.match((await exitOf(exits, 'r-badcwd')).spawnError ?? '', /working directory does not exist/);
	});

	it('refuses to launch the same Run twice', async () => {
		await runner.launch(launchSpec('r-twice', nodeTarget('process.exit(0)'), ws.path));
		await assert.rejects(runner.launch(launchSpec('r-twice', nodeTarget('process.exit(0)'), ws.path)), /already launched/);
	});

	it('fires onExit exactly once per Run, also when adopted again or checked repeatedly', async () => {
		await runner.launch(launchSpec('r-once', nodeTarget('process.exit(0)'), ws.path));
		await exitOf(exits, 'r-once');
		runner.adopt('r-once');
		// Every check a poll would make, made now (adopt's own check runs on the next immediate).
		await checkedRepeatedly(runner, 'r-once');
		assert.equal(exits.filter((e) => e.runId === 'r-once').length, 1);

		const later = newRunner();
		const laterExits = recordExits(later);
		later.adopt('r-once');
		later.adopt('r-once');
		assert.equal(laterExits.length, 0, 'adopt fires asynchronously, after the caller subscribed');
		assert.equal((await exitOf(laterExits, 'r-once')).exitCode, 0);
		await checkedRepeatedly(later, 'r-once');
		assert.equal(laterExits.length, 1);
	});

	it('settles a Run as lost when its supervisor and agent were both killed -9', async () => {
		await runner.launch(launchSpec('r-lost', nodeTarget('console.log("ready");setInterval(()=>{},1000)'), ws.path));
		await stdoutContains(runner, 'r-lost', 'ready');
		const pid = readPidRecord(runner.runDir('r-lost'))!;
		process.kill(pid.supervisorPid, 'SIGKILL');
		process.kill(-pid.agentPgid, 'SIGKILL');
		const exit = await exitOf(exits, 'r-lost');
		assert.equal(exit.exitCode, null);
		assert.equal(exit.signal, 'lost');
		assert.equal(exit.spawnError, undefined);
		assert.deepEqual(runner.exitRecord('r-lost'), exit, 'the lost record is written so a restart agrees');
	});

	it('settles an adopted Run that never got a supervisor as lost with a spawn error', async () => {
		const quick = newRunner({ launchTimeoutMs: 200 });
		const quickExits = recordExits(quick);
		mkdirSync(join(ws.path, '.tutti', 'runs'), { recursive: true });
		quick.adopt('r-ghost');
		const exit = await exitOf(quickExits, 'r-ghost');
		assert.equal(exit.signal, 'lost');
		assert.match(exit.spawnError ?? '', /without starting the agent/);
	});

	it('a launch withdrawn before any supervisor started it is never started by one, and launches again as its next attempt', async () => {
		// The earlier Host wrote the Run's spec.json and died before a supervisor took it (a spare handed it too late).
		const agent = nodeTarget('require("fs").appendFileSync("started.txt", "x")');
		await runner.launch(launchSpec('r-template', agent, ws.path));
		await exitOf(exits, 'r-template');
		rmSync(join(ws.path, 'started.txt'));
		const dir = runner.runDir('r-cut');
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const spec = JSON.parse(readFileSync(join(runner.runDir('r-template'), 'spec.json'), 'utf8')) as Record<string, unknown>;
		writeFileSync(join(dir, 'spec.json'), JSON.stringify({ ...spec, runId: 'r-cut', attempt: 1 }));

		assert.equal(runner.withdrawUnstarted('r-cut'), true, 'nothing had claimed attempt 1');
		assert.equal(runner.withdrawUnstarted('r-cut'), true, 'withdrawn already (the Host holds its claim)');
		const late = spawn(process.execPath, [build.supervisorScript, dir], { stdio: 'ignore' });
		assert.equal(await new Promise<number | null>((resolve) => late.once('exit', resolve)), 0);
		assert.deepEqual([existsSync(join(dir, 'pid.json')), existsSync(join(dir, 'exit.json')), existsSync(join(ws.path, 'started.txt'))], [false, false, false],
			'the late supervisor started nothing and recorded nothing');

		await runner.launch(launchSpec('r-cut', agent, ws.path));
		assert.equal((await exitOf(exits, 'r-cut')).exitCode, 0);
		assert.equal((JSON.parse(readFileSync(join(dir, 'spec.json'), 'utf8')) as { attempt: number }).attempt, 2);
		assert.equal(readFileSync(join(ws.path, 'started.txt'), 'utf8'), 'x', 'the agent ran once, in the second attempt');
		assert.equal(runner.withdrawUnstarted('r-cut'), false, 'a Run that started is adopted, never withdrawn');
	});

	it('rejects launch with a clear error when the supervisor cannot start', async () => {
		const broken = newRunner({ supervisorScript: join(ws.path, 'no-such-supervisor.js') });
		await assert.rejects(broken.launch(launchSpec('r-nosup', nodeTarget('process.exit(0)'), ws.path)), /Run r-nosup: the run supervisor exited/);
		assert.match(broken.exitRecord('r-nosup')?.spawnError ?? '', /supervisor exited/);
	});

	it('rejects launch after its bounded wait when the supervisor hangs, and kills that supervisor', async () => {
		const hanging = join(ws.path, 'hanging-supervisor.js');
		writeFileSync(hanging, 'require("fs").writeFileSync(process.argv[2] + "/hang.pid", String(process.pid)); setInterval(() => {}, 1000);');
		// The bound must leave a loaded machine time to start node and run the script's first line (which names the pid).
		const slow = newRunner({ supervisorScript: hanging, launchTimeoutMs: 5000 });
		await assert.rejects(slow.launch(launchSpec('r-hang', nodeTarget('process.exit(0)'), ws.path)), /did not start the agent within 5000 ms/);
		assert.match(slow.exitRecord('r-hang')?.spawnError ?? '', /did not start the agent/);
		const supervisorPid = Number(readFileSync(join(slow.runDir('r-hang'), 'hang.pid'), 'utf8'));
		await waitFor(() => (processIsAlive(supervisorPid, null) ? undefined : true), { what: 'the hanging supervisor to be killed' });
	});

	it('hands the next launch to a spare supervisor started after the last one, and ends an unused spare on dispose', async () => {
		await runner.launch(launchSpec('r-first', nodeTarget('process.exit(0)'), ws.path));
		const spare = runner.spareSupervisorPid();
		assert.ok(spare !== undefined, 'a spare waits for the next launch');
		await runner.launch(launchSpec('r-second', nodeTarget('process.exit(4)'), ws.path));
		assert.equal(readPidRecord(runner.runDir('r-second'))?.supervisorPid, spare, 'the spare supervises the second Run');
		assert.equal((await exitOf(exits, 'r-second')).exitCode, 4);
		const next = runner.spareSupervisorPid();
		assert.ok(next !== undefined && next !== spare);
		runner.dispose();
		await waitFor(() => (processIsAlive(next, null) ? undefined : true), { what: 'the unused spare to exit' });
	});

	it('a spare whose Host goes away (its stdin ends) exits without doing anything', async () => {
		const spare = spawn(process.execPath, [build.supervisorScript, '--spare'], { stdio: ['pipe', 'ignore', 'ignore'] });
		const exited = new Promise<number | null>((resolve) => spare.once('exit', (code) => resolve(code)));
		spare.stdin.end();
		assert.equal(await exited, 0);
	});

	it('runs the supervisor from source with tsx', async () => {
		const fromSource = newRunner({ supervisorScript: join(repoRoot, 'src/supervisor/main.ts'), nodeArgs: tsxNodeArgs() });
		const srcExits = recordExits(fromSource);
		await fromSource.launch(launchSpec('r-src', nodeTarget('process.exit(5)'), ws.path));
		assert.equal((await exitOf(srcExits, 'r-src')).exitCode, 5);
	});
});
