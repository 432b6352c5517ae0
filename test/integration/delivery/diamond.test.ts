// The task graph is a graph of commits (real git; the Run processes are scripted and write their files into the
// tree they were given): A; B after A; C; D after B and C. Every dependent sees its parents' files, D starts from a
// merge commit holding B's and C's work, each Run's result is a commit with Tutti trailers, acceptance binds to it,
// and one integration puts all four files on the base branch with the developer's own files exactly as they were.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commitResult } from '../../../src/host/delivery/resultCommit.js';
import type { HostConfig } from '../../../src/host/config.js';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The harness workspace as a git repository on `main` with one commit holding `files` (and .tutti/ ignored). */
function commitWorkspace(workspace: string, files: Record<string, string>): void {
	git(workspace, 'init', '-q', '-b', 'main');
	git(workspace, 'config', 'user.name', 'Dev One');
	git(workspace, 'config', 'user.email', 'dev@example.test');
	for (const [path, text] of Object.entries({ ...files, '.gitignore': '.tutti/\n' })) { writeFileSync(join(workspace, path), text); }
	git(workspace, 'add', '-A');
	git(workspace, 'commit', '-q', '-m', 'initial');
}

describe('a diamond of worktree tasks builds on its parents and integrates (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(config: Partial<HostConfig> = {}): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], ...config } });
		commitWorkspace(h.workspace, { 'README.md': 'hello\n' });
		return (await h.call('issue/create', { title: 'Diamond' })).issueId;
	}

	/** Waits for the launch of `taskId`, writes `files` into its tree as its agent would, and ends it with `exitCode`. */
	async function work(taskId: string, files: Record<string, string>, exitCode = 0): Promise<{ cwd: string; runId: string }> {
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(launch, `task ${taskId} was launched (logs: ${h.logs.join(' | ')})`);
		for (const [path, text] of Object.entries(files)) { writeFileSync(join(launch.cwd, path), text); }
		h.runs.exit(launch.runId, { exitCode });
		await h.idle();
		return { cwd: launch.cwd, runId: launch.runId };
	}

	it('A; B after A; C; D after B and C: dependents see their parents, D starts from their merge, integrate lands all four', async () => {
		const issueId = await open();
		const add = (taskId: string, dependencyTaskIds: string[] = []): Promise<unknown> =>
			h.call('task/add', { issueId, taskId, title: `Write ${taskId}.txt`, agentTargetId: 'iso', dependencyTaskIds, autoAccept: true });
		await add('a'); await add('b', ['a']); await add('c'); await add('d', ['b', 'c']);
		const base = git(h.workspace, 'rev-parse', 'HEAD');

		const a = await work('a', { 'a.txt': 'A\n' });
		const aRun = await h.call('run/get', { runId: a.runId });
		assert.equal(aRun.status, 'completed');
		assert.equal(aRun.inWorktree, true);
		assert.equal(aRun.baseCommit, base);
		assert.notEqual(aRun.resultCommit, base);
		assert.deepEqual(aRun.changedFiles, [{ path: 'a.txt', added: 1, deleted: 0, binary: false }]);
		assert.equal(git(h.workspace, 'log', '-1', '--format=%s%n%(trailers:key=Tutti-Task,valueonly)', aRun.resultCommit), 'Write a.txt\na');

		const b = await work('b', { 'b.txt': 'B\n' });
		assert.equal(readFileSync(join(b.cwd, 'a.txt'), 'utf8'), 'A\n', "B's tree has A's file");
		assert.equal((await h.call('run/get', { runId: b.runId })).baseCommit, aRun.resultCommit, 'B starts from A\'s accepted commit');
		const c = await work('c', { 'c.txt': 'C\n' });
		assert.equal(existsSync(join(c.cwd, 'a.txt')), false, 'C has no parent: it starts from the issue base');

		const d = await work('d', { 'd.txt': 'D\n' });
		for (const f of ['a.txt', 'b.txt', 'c.txt']) { assert.ok(existsSync(join(d.cwd, f)), `D's tree has ${f}`); }
		const dRun = await h.call('run/get', { runId: d.runId });
		const bResult = (await h.call('run/get', { runId: b.runId })).resultCommit;
		const cResult = (await h.call('run/get', { runId: c.runId })).resultCommit;
		assert.deepEqual(git(h.workspace, 'log', '-1', '--format=%P', dRun.baseCommit).split(' '), [bResult, cResult]);
		assert.equal(git(h.workspace, 'log', '-1', '--format=%s', dRun.baseCommit), 'Merge parents of d: b, c');

		const issue = await h.call('issue/get', { issueId });
		assert.equal(issue.baseCommit, base);
		assert.equal(issue.baseBranch, 'main');
		for (const t of issue.tasks) { assert.equal(t.acceptedCommit, t.resultCommit, `${t.taskId}: acceptance bound to its result`); }

		// The developer's own work in progress: an uncommitted tracked edit elsewhere would refuse; untracked files stay.
		writeFileSync(join(h.workspace, 'notes.local'), 'mine\n');
		const integrated = await h.call('issue/integrate', { issueId });
		assert.equal(integrated.into, 'main');
		assert.deepEqual(integrated.mergedTaskIds, ['a', 'b', 'c', 'd']);
		assert.equal(integrated.fastForward, true, "D's result contains every other accepted commit");
		assert.equal(git(h.workspace, 'rev-parse', 'main'), integrated.integratedCommit);
		for (const f of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) { assert.ok(existsSync(join(h.workspace, f)), `${f} is on main`); }
		assert.equal(readFileSync(join(h.workspace, 'notes.local'), 'utf8'), 'mine\n');
		assert.equal(git(h.workspace, 'status', '--porcelain'), '?? notes.local');
		assert.equal((await h.call('issue/get', { issueId })).integratedCommit, integrated.integratedCommit);
	});
});

describe('parents that conflict never start an agent on a broken tree in silence (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(onMergeConflict: 'fail' | 'agent'): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree', onMergeConflict })] } });
		commitWorkspace(h.workspace, { 'shared.txt': 'base\n' });
		const issueId = (await h.call('issue/create', { title: 'Conflicting parents' })).issueId;
		for (const [taskId, deps] of [['a', []], ['b', []], ['d', ['a', 'b']]] as const) {
			await h.call('task/add', { issueId, taskId, title: `Task ${taskId}`, agentTargetId: 'iso', dependencyTaskIds: [...deps], autoAccept: true });
		}
		// A and B both rewrite shared.txt.
		for (const taskId of ['a', 'b']) {
			await h.idle();
			const launch = h.runs.launches.find((l) => l.taskId === taskId)!;
			writeFileSync(join(launch.cwd, 'shared.txt'), `${taskId}\n`);
			h.runs.exit(launch.runId, { exitCode: 0 });
		}
		await h.idle();
		return issueId;
	}

	it('"fail": the Run fails before launch naming both tasks and every conflicting path', async () => {
		const issueId = await open('fail');
		assert.equal(h.runs.launches.some((l) => l.taskId === 'd'), false, 'no agent started on the broken tree');
		const d = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'd')!;
		assert.equal(d.status, 'failed');
		const run = await h.call('run/get', { runId: d.latestRunId });
		assert.equal(run.outcomeLabel, 'Could not start: merging a and b conflicts in shared.txt');
		assert.match(run.errorMessage, /shared\.txt/);
	});

	it('"agent": the tree is left in the conflicted merge, the prompt names the paths, and an unresolved merge fails the Run', async () => {
		const issueId = await open('agent');
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'd');
		assert.ok(launch, 'the agent starts to resolve the conflict');
		assert.match(readFileSync(join(launch.cwd, 'shared.txt'), 'utf8'), /^<<<<<<< /m, 'the tree holds the conflicted merge');
		assert.match(launch.stdinText, /conflicts with a in:\n {2}- shared\.txt/);
		assert.match(launch.stdinText, /git add/);
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: launch.runId });
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage, /merge of its parents unresolved in shared\.txt/);
		assert.equal((await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'd')!.status, 'failed');
	});
});

describe('a result commit survives a Host that dies between the commit and its record (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('exactly one result commit, and it is the one recorded', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace, { 'README.md': 'hello\n' });
		const issueId = (await h.call('issue/create', { title: 'Crash point' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'a')!;
		const base = git(launch.cwd, 'rev-parse', 'HEAD');
		writeFileSync(join(launch.cwd, 'a.txt'), 'A\n');
		// The previous Host committed the result and died before recording it: the tree is clean at that commit.
		const crashed = await commitResult({
			treePath: launch.cwd, title: 'Write a.txt', issueId, taskId: 'a', runId: launch.runId, identity: { name: 'T', email: 't@example.com' },
		});
		assert.ok(crashed.kind === 'committed' && crashed.createdCommit);
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: launch.runId });
		assert.equal(run.resultCommit, crashed.commit);
		assert.equal(git(launch.cwd, 'rev-list', '--count', `${base}..HEAD`), '1', 'one result commit, not two');
		assert.deepEqual(run.changedFiles.map((f) => f.path), ['a.txt']);
	});
});

describe('a Run whose tree git cannot commit in still settles (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('its tree removed by hand: the Run settles failed, saying its result could not be committed (never "completed" with nothing to show)', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace, { 'README.md': 'hello\n' });
		const issueId = (await h.call('issue/create', { title: 'Tree gone' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'a')!;
		rmSync(launch.cwd, { recursive: true, force: true });
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: launch.runId });
		assert.equal(run.status, 'failed', `settled (logs: ${h.logs.join(' | ')})`);
		assert.match(run.errorMessage, /^its result could not be committed: /);
		assert.equal(run.resultCommit, '');
		assert.ok(h.logs.some((l) => /recording the result commit of run .* failed/.test(l)));
	});
});

describe('an exit seen twice records one result before either settles (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it("the runner's exit event and the supervisor's run/report at once: the auto-acceptance binds to the result commit", async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace, { 'README.md': 'hello\n' });
		const issueId = (await h.call('issue/create', { title: 'Twice' })).issueId;
		for (let i = 0; i < 4; i += 1) {
			await h.call('task/add', { issueId, taskId: `t${i}`, title: `Write t${i}.txt`, agentTargetId: 'iso', autoAccept: true });
		}
		await h.idle();
		const launches = h.runs.launches.filter((l) => l.taskId.startsWith('t'));
		assert.equal(launches.length, 4);
		for (const launch of launches) { writeFileSync(join(launch.cwd, `${launch.taskId}.txt`), 'x\n'); }
		await Promise.all(launches.map(async (launch) => {
			h.runs.exit(launch.runId, { exitCode: 0 });
			await h.call('run/report', { runId: launch.runId, event: 'exited' });
		}));
		await h.idle();
		for (const task of (await h.call('issue/get', { issueId })).tasks) {
			assert.equal(task.status, 'completed');
			assert.notEqual(task.resultCommit, '', `${task.taskId} has its result commit`);
			assert.equal(task.acceptedCommit, task.resultCommit, `${task.taskId}: the acceptance is bound to it`);
		}
	});
});
