// kill -9 of the Host while a check runs (a real Host process, the real CLI, real git, a real check process): the
// check's process outlives the Host (it has its own process group), the next Host ends it and runs the check again
// once, and the answer is recorded once — the orphan never finishes into a second answer.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import { processIsAlive } from '../../../src/supervisor/processTable.js';
import { type HostHandle, issueGet, manualIssue, startHost, waitFor } from '../harness.js';
import { addManualTask } from '../../security/securityKit.js';
import { initRepo } from '../delivery/gitRepoKit.js';

describe('kill -9 of the Host during a check (real Host process, real check process)', function () {
	this.timeout(120_000);
	let root: string;
	let workspace: string;
	let host: HostHandle;
	const pids: number[] = [];

	before(() => {
		root = mkdtempSync(join(tmpdir(), 'tutti-check-kill-'));
		workspace = join(root, 'ws');
		mkdirSync(workspace);
		initRepo(workspace);
	});
	after(async () => {
		writeFileSync(join(root, 'release'), '');
		for (const pid of pids) { try { process.kill(-pid, 'SIGKILL'); } catch { /* ended */ } }
		await host?.dispose();
		rmSync(root, { recursive: true, force: true });
	});

	it('the check runs again once under the next Host, the orphan is ended, and the answer is recorded once', async () => {
		const gate = join(root, 'release');
		const starts = join(root, 'starts');
		const ends = join(root, 'ends');
		// Writes its pid when it starts; waits (bounded) for the test's release, then writes its pid again and passes.
		const script = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(starts)}, process.pid + '\\n');`
			+ ` const end = Date.now() + 60000; (function wait() { if (fs.existsSync(${JSON.stringify(gate)})) { fs.appendFileSync(${JSON.stringify(ends)}, process.pid + '\\n'); process.exit(0); }`
			+ ` if (Date.now() > end) { process.exit(9); } setTimeout(wait, 20); })();`;
		const config = {
			agentTargets: [{ id: 'iso', adapter: 'command', argv: ['sh', '-c', 'echo A > a.txt'], isolation: 'worktree' }],
			checks: [{ name: 'slow', argv: [process.execPath, '-e', script] }],
		};
		host = await startHost({ workspace, config: config as never });
		const issueId = await manualIssue(host, 'Checked, then killed', true);
		await addManualTask(host, issueId, 'a', ['--agent-target-id', 'iso']);
		const startLines = (): number[] => (existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n').filter((l) => l !== '').map(Number) : []);
		const [first] = await waitFor(() => (startLines().length === 1 ? startLines() : undefined), { what: 'the check to start', timeoutMs: 30_000 });
		pids.push(first!);
		const runId = (await issueGet(host, issueId)).tasks[0]!.latestRunId;
		const log = join(workspace, '.tutti', 'runs', runId, 'stderr.log');
		// The Host says so in the Run's log once the check's process is on record (a later Host can end it).
		await waitFor(() => (existsSync(log) && readFileSync(log, 'utf8').includes(`[check slow] running as pid ${first}`) ? true : undefined),
			{ what: 'the check\'s process on record', timeoutMs: 30_000 });

		await host.kill9();
		assert.equal(processIsAlive(first!, null), true, 'the check outlived the Host it ran under (an orphan)');

		await host.start();
		const [, second] = await waitFor(() => (startLines().length === 2 ? startLines() : undefined), { what: 'the check to run again', timeoutMs: 30_000 });
		pids.push(second!);
		assert.notEqual(second, first);
		await waitFor(() => (processIsAlive(first!, null) ? undefined : true), { what: 'the orphaned check to be ended', timeoutMs: 10_000 });

		writeFileSync(gate, '');
		const task = await waitFor(async () => {
			const t = (await issueGet(host, issueId)).tasks[0]!;
			return t.status === 'running' ? undefined : t;
		}, { what: 'the task to settle', timeoutMs: 30_000 });
		assert.equal(task.status, 'completed', 'the check passed under the second Host: auto-accepted');
		assert.equal(task.verification?.status, 'passed');
		assert.equal(task.verification?.attempts, 2, 'begun by two Hosts');
		assert.equal(task.verification?.checks.length, 1, 'recorded once');
		assert.equal(task.verification?.checks[0]?.interrupted, 1, 'the kill interrupted it once');
		assert.equal(task.verification?.checks[0]?.exitCode, 0);
		assert.deepEqual(startLines(), [first, second], 'it ran again once, not more');
		assert.equal(readFileSync(ends, 'utf8'), `${second}\n`, 'only the rerun reached its end: the orphan never did');
	});
});
