// Verified, not reported (real git, real check processes): a Run's reported success is checked in the task's tree at
// its result commit before anything accepts it; only passed checks auto-accept; a failed check leaves the result
// pending acceptance with the check's name and output tail; the developer may still accept it, and the acceptance
// records that its checks had failed.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import type { CheckInput } from '../../../src/core/checks/checks.js';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { initRepo } from '../delivery/gitRepoKit.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A check that passes when `file` holds `text` in the directory it runs in, and says what it saw either way. */
function fileCheck(name: string, file: string, text: string): CheckInput {
	const script = `const fs = require('fs'); const seen = fs.existsSync(${JSON.stringify(file)}) ? fs.readFileSync(${JSON.stringify(file)}, 'utf8').trim() : '(missing)';`
		+ ` console.log('saw ' + seen + ' at ' + process.env.TUTTI_CHECK_COMMIT); process.exit(seen === ${JSON.stringify(text)} ? 0 : 1);`;
	return { name, argv: [process.execPath, '-e', script] };
}

describe('checks verify a reported success at its result commit (real git, real checks)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function runTask(checks: CheckInput[], content: string, autoAccept = true): Promise<{ issueId: string; runId: string; cwd: string }> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Checked work' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), `${content}\n`);
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		return { issueId, runId: a.runId, cwd: a.cwd };
	}

	it('passed checks at the result commit: the task is accepted automatically, and says it was verified there', async () => {
		const { issueId, runId, cwd } = await runTask([fileCheck('content', 'a.txt', 'good')], 'good');
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		const result = git(cwd, 'rev-parse', 'HEAD');
		assert.equal(task.status, 'completed');
		assert.equal(task.acceptanceState, 'auto_checked');
		assert.equal(task.resultCommit, result);
		assert.equal(task.verification?.status, 'passed');
		assert.equal(task.verification?.commit, result);
		assert.equal(task.verification?.label, `Checks passed at ${result.slice(0, 7)}`);
		assert.equal(task.verification?.checks[0]?.exitCode, 0);
		assert.equal(task.verification?.checks[0]?.outputTail, `saw good at ${result}`, 'it ran in the task\'s tree, told the commit');
		assert.equal(task.acceptance?.by, 'auto');
		assert.equal(task.acceptance?.checks, 'passed');
		const run = await h.call('run/get', { runId });
		assert.equal(run.outcome, 'success', 'reported');
		assert.equal(run.verification?.status, 'passed', 'verified');
		assert.match(readFileSync(join(h.runs.runDir(runId), 'stderr.log'), 'utf8'), /\[check content\] passed/, 'the check\'s output is in the Run\'s log');
	});

	it('a failed check: reported success stays pending acceptance, with the check, its exit code and output tail; accepted anyway, the acceptance says so', async () => {
		const { issueId, runId } = await runTask([fileCheck('content', 'a.txt', 'good'), fileCheck('never', 'missing.txt', 'x')], 'bad');
		let task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(task.status, 'pending_acceptance', 'a failed check is never accepted automatically');
		assert.equal(task.acceptanceState, 'agent_claimed');
		assert.equal(task.verification?.status, 'failed');
		assert.equal(task.verification?.label, 'Checks failed: content (exit 1)');
		assert.deepEqual(task.verification?.checks.map((c) => c.state), ['failed', 'not_run'], 'checks stop at the first failure');
		assert.equal(task.verification?.checks[0]?.exitCode, 1);
		assert.match(task.verification?.checks[0]?.outputTail ?? '', /^saw bad at [0-9a-f]{40}$/);
		assert.equal(task.acceptance, null);
		assert.equal((await h.call('run/get', { runId })).outcome, 'success', 'the agent still reported success');

		await h.call('review/accept', { issueId, taskId: 'a' });
		await h.idle();
		task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(task.status, 'completed');
		assert.equal(task.acceptance?.by, 'developer');
		assert.equal(task.acceptance?.checks, 'failed');
		assert.match(task.acceptance?.label ?? '', /^Accepted by you at [0-9a-f]{7} — its checks had failed$/);
		assert.equal(task.verification?.status, 'failed', 'accepting does not turn failed checks into passed ones');
	});

	it('without checks a reported success is accepted as before and says no checks are configured', async () => {
		const { issueId } = await runTask([], 'anything');
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(task.status, 'completed');
		assert.equal(task.verification?.status, 'none');
		assert.equal(task.acceptance?.checks, 'none');
	});
});
