// Runs survive their Host: the runner's process is killed -9, the supervisor keeps the agent, and a new
// runner adopting the Run sees its exit exactly once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import { processIsAlive } from '../../../src/supervisor/processTable.js';
import { readPidRecord } from '../../../src/supervisor/runFiles.js';
import { buildSupervisor, exitOf, killAllRuns, makeTempDir, recordExits, repoRoot, tsxNodeArgs } from './runTestKit.js';
import { waitFor } from '../../waitFor.js';

describe('Run survival across a Host crash (real processes)', function () {
	this.timeout(40_000);
	let tmp: ReturnType<typeof makeTempDir>;
	let runner: ProcessRunner | undefined;

	beforeEach(() => { tmp = makeTempDir('tutti-survive-'); });
	afterEach(() => {
		killAllRuns(join(tmp.path, 'ws', '.tutti'));
		runner?.dispose();
		runner = undefined;
		tmp.remove();
	});

	it('keeps the agent running after the launching process is killed -9, and a new runner adopts its exit', async () => {
		const supervisorScript = await buildSupervisor(tmp.path);
		const workspace = join(tmp.path, 'ws');
		const goFile = join(tmp.path, 'go');
		const config = JSON.stringify({ workspace, supervisorScript, runId: 'r-survivor', goFile });
		const host = spawn(process.execPath, [...tsxNodeArgs(), join(__dirname, 'fixtures/detachedLauncher.ts'), config], {
			cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		let err = '';
		host.stdout.on('data', (d: Buffer) => { out += d.toString(); });
		host.stderr.on('data', (d: Buffer) => { err += d.toString(); });
		const hostGone = new Promise<void>((r) => host.once('exit', () => r()));
		await waitFor(() => (out.includes('launched') ? true : undefined), { what: 'the launcher to say launched', detail: () => `stderr: ${err}` });

		host.kill('SIGKILL');
		await hostGone;

		runner = new ProcessRunner({ workspace, tuttiDir: join(workspace, '.tutti'), supervisorScript, pollIntervalMs: 50 });
		const pid = readPidRecord(runner.runDir('r-survivor'))!;
		assert.ok(processIsAlive(pid.supervisorPid, pid.supervisorStartTicks), 'the supervisor outlives its Host');
		assert.ok(processIsAlive(pid.agentPid, pid.agentStartTicks), 'the agent outlives its Host');
		assert.equal(runner.isAlive('r-survivor'), true);
		assert.equal(runner.exitRecord('r-survivor'), null);

		const exits = recordExits(runner);
		runner.adopt('r-survivor');
		// adopt() checks on the next immediate; then check again by hand, as a poll would.
		await new Promise((resolve) => setImmediate(resolve));
		runner.checkNow();
		assert.equal(exits.length, 0, 'no exit while the agent still runs');

		writeFileSync(goFile, 'go');
		const exit = await exitOf(exits, 'r-survivor');
		assert.equal(exit.exitCode, 7);
		assert.equal(exit.clientSubmitId, 'issue-run:r-survivor');
		runner.checkNow();
		runner.adopt('r-survivor');
		await new Promise((resolve) => setImmediate(resolve));
		runner.checkNow('r-survivor');
		assert.equal(exits.length, 1);
	});
});
