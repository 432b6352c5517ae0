// Verified, not reported (real git, real check processes): a Run's reported success is checked in the task's tree at
// its result commit before anything accepts it; only passed checks auto-accept; a failed check leaves the result
// pending acceptance with the check's name and output tail; the developer may still accept it, and the acceptance
// records that its checks had failed.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import type { CheckInput } from '../../../src/core/checks/checks.js';
import { commandTarget, rejects, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { initRepo } from '../delivery/gitRepoKit.js';
import { deliveryRepository } from '../../../src/store/repositories/deliveryRepository.js';
import { waitFor } from '../../waitFor.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A check that passes when `file` holds `text` in the directory it runs in, and says what it saw either way. */
function fileCheck(name: string, file: string, text: string): CheckInput & { argv: string[] } {
	const script = `const fs = require('fs'); const seen = fs.existsSync(${JSON.stringify(file)}) ? fs.readFileSync(${JSON.stringify(file)}, 'utf8').trim() : '(missing)';`
		+ ` console.log('saw ' + seen + ' at ' + process.env.TUTTI_CHECK_COMMIT); process.exit(seen === ${JSON.stringify(text)} ? 0 : 1);`;
	return { name, argv: [process.execPath, '-e', script] };
}

describe('checks verify a reported success at its result commit (real git, real checks)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	/** A Host with one worktree target and `checks`, a repository holding `files`, and task `a` launched; its first commit is `base`. */
	async function openWithTask(checks: CheckInput[], options: { autoAccept?: boolean; files?: Record<string, string> } = {}): Promise<{ issueId: string; base: string }> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks } });
		const base = initRepo(h.workspace, ...(options.files ? [options.files] : []));
		const issueId = (await h.call('issue/create', { title: 'Checked work' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: options.autoAccept ?? true });
		await h.idle();
		return { issueId, base };
	}

	/** Task `a`'s n-th Run (0-based) writes `file` in its tree and reports success; answers once everything settled. */
	async function reportSuccess(n: number, file: string, content: string): Promise<{ runId: string; cwd: string }> {
		const run = h.runs.launches.filter((l) => l.taskId === 'a')[n]!;
		writeFileSync(join(run.cwd, file), `${content}\n`);
		h.runs.exit(run.runId, { exitCode: 0 });
		await h.idle();
		return { runId: run.runId, cwd: run.cwd };
	}

	async function runTask(checks: CheckInput[], content: string, autoAccept = true): Promise<{ issueId: string; runId: string; cwd: string }> {
		const { issueId } = await openWithTask(checks, { autoAccept });
		return { issueId, ...(await reportSuccess(0, 'a.txt', content)) };
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
		// The board: the task needs the developer, and says its checks failed (warning colour).
		const issue = await h.call('issue/get', { issueId });
		assert.deepEqual([issue.attention.state, issue.attention.label, issue.attention.stalled], ['needs_you', 'Needs you: 1 task to accept (1 failed its checks)', true]);
		assert.deepEqual(issue.attention.runs.map((r) => [r.runId, r.label, r.needsYou]), [[runId, 'Checks failed: content (exit 1) — waiting for your review', true]]);
		assert.equal(task.attention?.label, 'Checks failed: content (exit 1) — awaiting your acceptance');

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

	it('a Run in the shared folder: its checks run in the folder and say they saw the folder, not a commit', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('shared', { isolation: 'none' })], checks: [fileCheck('content', 'a.txt', 'shared')] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Shared folder' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'shared', autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(h.workspace, 'a.txt'), 'shared\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(task.status, 'completed');
		assert.equal(task.verification?.subject, 'folder');
		assert.equal(task.verification?.commit, '');
		assert.equal(task.verification?.label, 'Checks passed on the shared folder as it was (not a commit)');
	});

	it('managed: the source agent gets no checkpoint while the checks run; a failed check is a checks_failed checkpoint whose wake names it with its output', async () => {
		const gateDir = mkdtempSync(join(tmpdir(), 'tutti-check-gate-'));
		const gate = join(gateDir, 'release');
		// Says it started, waits (bounded) for the test's release, then fails with output the wake must show.
		const script = `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(`${gate}.started`)}, '');`
			+ ` const end = Date.now() + 30000; (function wait() { if (fs.existsSync(${JSON.stringify(gate)}) || Date.now() > end) { console.log('3 tests failed: parser'); process.exit(2); } setTimeout(wait, 20); })();`;
		h = await ServiceHarness.open({ realPlan: true, config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks: [{ name: 'test', argv: [process.execPath, '-e', script] }] } });
		initRepo(h.workspace);
		const source = (await h.session('source')).caller;
		const created = await h.call('plan/create', { title: 'Managed', content: 'goal', requestId: 'c1' }, source);
		const { issueId } = created;
		const mutated = await h.call('plan/mutate', {
			issueId, checkpointId: created.checkpointId, expectedGraphRevision: created.graphRevision, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'iso', content: 'do A' } }],
		}, source);
		const scheduled = await h.call('plan/schedule', {
			issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ['a'],
		}, source);
		await h.idle();
		const runId = scheduled.runIds[0]!;
		const launch = h.runs.launches.find((l) => l.runId === runId)!;
		writeFileSync(join(launch.cwd, 'a.txt'), 'A\n');
		h.runs.exit(runId, { exitCode: 0 });
		await waitFor(() => existsSync(`${gate}.started`), { what: 'the check to start' });

		let snapshot = await h.call('plan/get', { issueId }, source);
		assert.notEqual(snapshot.activeCheckpoint?.subjectRunId, runId, 'no checkpoint about the Run while its checks run');
		assert.equal(snapshot.checkpoints.some((c) => c.subjectRunId === runId), false);
		const waiting = snapshot.tasks.find((t) => t.taskId === 'a')!;
		assert.equal(waiting.status, 'running', 'the task waits for its checks');
		assert.equal(waiting.verification?.status, 'running');

		writeFileSync(gate, '');
		await h.idle();
		snapshot = await h.call('plan/get', { issueId }, source);
		assert.equal(snapshot.activeCheckpoint?.kind, 'checks_failed');
		assert.equal(snapshot.activeCheckpoint?.subjectRunId, runId);
		const task = snapshot.tasks.find((t) => t.taskId === 'a')!;
		assert.equal(task.status, 'pending_acceptance');
		assert.equal(task.verification?.label, 'Checks failed: test (exit 2)');
		const prompt = snapshot.activeWake?.prompt ?? '';
		assert.match(prompt, /reported success, but the developer's checks failed on its result/);
		assert.match(prompt, /Failing check: test \(exit 2\)/);
		assert.match(prompt, /> 3 tests failed: parser/);
		assert.match(prompt, /it is not accepted/, 'the wake says all three facts: reported, verified, accepted');
		// The compact snapshot the source agent reads first: the task in question with its three facts side by side.
		const compact = await h.call('plan/getCompact', { issueId }, source);
		const slim = compact.tasks.find((t) => t.taskId === 'a')!;
		assert.deepEqual([slim.outcomeLabel?.startsWith('Completed in '), slim.verificationLabel, slim.acceptanceLabel], [true, 'Checks failed: test (exit 2)', 'Not accepted']);
		rmSync(gateDir, { recursive: true, force: true });
	});

	it('a check a Host restart interrupted runs again once, and its answer is recorded once', async () => {
		const gateDir = mkdtempSync(join(tmpdir(), 'tutti-check-gate-'));
		const gate = join(gateDir, 'release');
		const starts = join(gateDir, 'starts');
		// Counts its starts; waits (bounded) for the release, then passes.
		const script = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(starts)}, 'start\\n');`
			+ ` const end = Date.now() + 30000; (function wait() { if (fs.existsSync(${JSON.stringify(gate)})) { process.exit(0); } if (Date.now() > end) { process.exit(9); } setTimeout(wait, 20); })();`;
		const config = { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks: [{ name: 'slow', argv: [process.execPath, '-e', script] }] };
		h = await ServiceHarness.open({ config });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Restarted' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'A\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await waitFor(() => existsSync(starts), { what: 'the check to start' });
		// The Host goes away while the check runs (its process ends with it); the verification stays running.
		h.services.dispose();
		await h.store.close();
		writeFileSync(gate, '');

		h = await ServiceHarness.open({ config, dir: h.dir });
		await h.services.start();
		await h.idle();
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(readFileSync(starts, 'utf8'), 'start\nstart\n', 'it ran twice: interrupted once, then to its end');
		assert.equal(task.status, 'completed');
		assert.equal(task.verification?.status, 'passed');
		assert.equal(task.verification?.attempts, 2);
		assert.equal(task.verification?.checks.length, 1, 'recorded once');
		assert.equal(task.verification?.checks[0]?.interrupted, 1);
		assert.equal(task.verification?.checks[0]?.exitCode, 0);
		rmSync(gateDir, { recursive: true, force: true });
	});

	it('the developer sets an issue\'s and a task\'s checks (a task runs the union, workspace first); an agent session cannot set or drop them', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks: [fileCheck('workspace', 'a.txt', 'A')] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Layers' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		const worker = (await h.session('worker')).caller;
		await rejects(h.call('issue/setChecks', { issueId, checks: [] }, worker), 'forbidden');
		await rejects(h.call('issue/setChecks', { issueId, taskId: 'a', checks: [{ argv: ['true'] }] }, worker), 'forbidden');
		await h.call('issue/setChecks', { issueId, checks: [fileCheck('issue', './a.txt', 'A'), fileCheck('workspace', 'a.txt', 'A')] });
		const set = await h.call('issue/setChecks', { issueId, taskId: 'a', checks: [fileCheck('task', 'b.txt', 'B')] });
		assert.deepEqual(set.checks.map((c) => [c.name, c.timeoutSeconds]), [['task', 600]]);
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'A\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.deepEqual(task.verification?.checks.map((c) => [c.name, c.state]), [['workspace', 'passed'], ['issue', 'passed'], ['task', 'failed']],
			'the same command set twice runs once, at its first place');
		assert.equal(task.verification?.label, 'Checks failed: task (exit 1)');
		assert.equal(task.status, 'pending_acceptance');
	});

	it('integration runs the issue\'s checks on the integrated commit before the branch moves: a failure changes nothing and names the check; --skip-checks is recorded', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace);
		const branch = git(h.workspace, 'rev-parse', '--abbrev-ref', 'HEAD');
		const before = git(h.workspace, 'rev-parse', 'HEAD');
		const issueId = (await h.call('issue/create', { title: 'Integrate checked' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'bad\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('issue/get', { issueId })).tasks[0]?.status, 'completed', 'no checks yet: accepted automatically');
		// The developer adds a check afterwards: the integration runs it on the integrated commit.
		await h.call('issue/setChecks', { issueId, checks: [fileCheck('content', 'a.txt', 'good')] });
		const error = await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');
		assert.match(error.message, /the check content failed on the integrated commit [0-9a-f]{7} \(exit 1\)\. The last lines of its output:\nsaw bad at [0-9a-f]{40}\nNothing was changed/);
		assert.equal(git(h.workspace, 'rev-parse', 'HEAD'), before, 'the branch did not move');
		assert.equal(git(h.workspace, 'status', '--porcelain'), '', 'no working tree was touched');
		assert.equal(git(h.workspace, 'worktree', 'list', '--porcelain').includes('tutti-integrate-'), false, 'the scratch tree is gone');

		const skipped = await h.call('issue/integrate', { issueId, skipChecks: true });
		assert.equal(skipped.checks?.status, 'skipped');
		assert.equal(skipped.checks?.label, 'Checks skipped by the developer (--skip-checks)');
		assert.equal(git(h.workspace, 'rev-parse', branch), skipped.integratedCommit);
		assert.equal(h.store.read((r) => deliveryRepository.issueDelivery(r, issueId))?.integratedChecks, 'skipped', 'the choice is recorded');
		assert.equal((await h.call('issue/get', { issueId })).integrationChecks?.label, 'Checks skipped by the developer (--skip-checks)', '`issue get` shows it');
	});

	it('integration with passing checks moves the branch and says the checks passed at the integrated commit', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], checks: [fileCheck('content', 'a.txt', 'good')] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Integrate passing' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'good\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		const integrated = await h.call('issue/integrate', { issueId });
		assert.equal(integrated.checks?.status, 'passed');
		assert.equal(integrated.checks?.label, `Checks passed at ${integrated.integratedCommit.slice(0, 7)} (1 check)`);
		assert.equal(integrated.checks?.checks[0]?.outputTail, `saw good at ${integrated.integratedCommit}`, 'they ran at the integrated commit');
		assert.equal(git(h.workspace, 'rev-parse', 'HEAD'), integrated.integratedCommit);
		assert.equal(h.store.read((r) => deliveryRepository.issueDelivery(r, issueId))?.integratedChecks, 'passed');
	});

	it('integration onto a branch that moved since the tasks were verified: the checks run on the merge; one that breaks changes nothing and says both', async () => {
		// Passes when the API the task's file uses is the one api.txt offers (as every task's own checks saw it).
		const script = "const fs = require('fs'); const api = fs.readFileSync('api.txt', 'utf8').trim();"
			+ " const used = fs.existsSync('uses.txt') ? fs.readFileSync('uses.txt', 'utf8').trim() : api;"
			+ " console.log('api ' + api + ', used ' + used); process.exit(api === used ? 0 : 1);";
		const { issueId, base } = await openWithTask([{ name: 'api', argv: [process.execPath, '-e', script] }],
			{ files: { 'README.md': 'hello\n', '.gitignore': '.tutti/\n', 'api.txt': 'v1\n' } });
		await reportSuccess(0, 'uses.txt', 'v1');
		const task = (await h.call('issue/get', { issueId })).tasks[0]!;
		assert.equal(task.verification?.status, 'passed', 'the task\'s own checks passed on the branch as it saw it');
		assert.equal(task.status, 'completed');

		// Meanwhile the developer changes the API on main (another file: no conflict for git).
		writeFileSync(join(h.workspace, 'api.txt'), 'v2\n');
		git(h.workspace, 'commit', '-q', '-am', 'API v2');
		const moved = git(h.workspace, 'rev-parse', 'HEAD');
		const error = await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');
		const movedText = `main moved since the tasks were verified (${base.slice(0, 7)} → ${moved.slice(0, 7)}); the checks ran on the merge`;
		assert.ok(error.message.includes(`${movedText}: the check api failed on the integrated commit `), error.message);
		assert.match(error.message, /\(exit 1\)\. The last lines of its output:\napi v2, used v1\nNothing was changed: main stays where it was/);
		assert.deepEqual(error.details['branchMoved'], { from: base, to: moved, label: movedText });
		assert.equal(git(h.workspace, 'rev-parse', 'HEAD'), moved, 'the branch did not move');
		assert.equal(git(h.workspace, 'status', '--porcelain'), '', 'no working tree was touched');

		// The developer puts the API back (the branch moves again): the merge passes, and the answer still says it moved.
		writeFileSync(join(h.workspace, 'api.txt'), 'v1\n');
		git(h.workspace, 'commit', '-q', '-am', 'API v1 again');
		const tip = git(h.workspace, 'rev-parse', 'HEAD');
		const integrated = await h.call('issue/integrate', { issueId });
		assert.equal(integrated.checks?.status, 'passed');
		assert.equal(integrated.checks?.label,
			`Checks passed at ${integrated.integratedCommit.slice(0, 7)} (1 check); main moved since the tasks were verified (${base.slice(0, 7)} → ${tip.slice(0, 7)}); the checks ran on the merge`);
		assert.deepEqual(integrated.checks?.branchMoved?.to, tip);
		assert.equal(git(h.workspace, 'rev-parse', 'HEAD'), integrated.integratedCommit);
		// `issue get` shows what ran at the integrated commit, as integrate answered it.
		const shown = (await h.call('issue/get', { issueId })).integrationChecks;
		assert.deepEqual(shown, integrated.checks);
		assert.equal(shown?.checks[0]?.outputTail, 'api v1, used v1');
	});

	it('a rework makes the old verification stale: the checks run again at the new result, and only that answer counts', async () => {
		// Passes unless greeting.txt says bye; says what it saw and where.
		const script = "const fs = require('fs'); const text = fs.readFileSync('greeting.txt', 'utf8').trim();"
			+ " console.log(text + ' at ' + process.env.TUTTI_CHECK_COMMIT); process.exit(text === 'bye' ? 1 : 0);";
		const { issueId } = await openWithTask([{ name: 'greeting', argv: [process.execPath, '-e', script] }], { autoAccept: false });
		const first = await reportSuccess(0, 'greeting.txt', 'hi');
		const a = git(first.cwd, 'rev-parse', 'HEAD');
		let task = (await h.call('issue/get', { issueId })).tasks[0]!;
		assert.deepEqual([task.status, task.verification?.status, task.verification?.commit, task.verification?.stale], ['pending_acceptance', 'passed', a, false]);

		await h.call('review/requestChanges', { issueId, taskId: 'a', note: 'Say bye instead.' });
		await h.idle();
		const second = await reportSuccess(1, 'greeting.txt', 'bye');
		const b = git(second.cwd, 'rev-parse', 'HEAD');
		assert.notEqual(b, a);

		const old = (await h.call('run/get', { runId: first.runId })).verification;
		assert.deepEqual([old?.status, old?.commit, old?.stale], ['passed', a, true], 'the answer at A stays in the history, stale: the tree moved on');
		task = (await h.call('issue/get', { issueId })).tasks[0]!;
		assert.equal(task.latestRunId, second.runId);
		assert.deepEqual([task.verification?.status, task.verification?.commit, task.verification?.stale], ['failed', b, false], 'the checks ran again at B');
		assert.equal(task.verification?.checks[0]?.outputTail, `bye at ${b}`);
		assert.equal(task.status, 'pending_acceptance');
		await h.call('review/accept', { issueId, taskId: 'a' });
		task = (await h.call('issue/get', { issueId })).tasks[0]!;
		assert.deepEqual([task.acceptance?.commit, task.acceptance?.checks], [b, 'failed'], 'the acceptance records B\'s answer, not A\'s pass');
	});
});
