// Acceptance binds to a commit (real git): when an accepted task's branch moves (someone commits in its tree by hand),
// the task is pending acceptance again with the reason "changed after acceptance" before any dependent starts from
// it; its result becomes the new HEAD; accepted again, the dependent starts from the new commit and sees its file.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { initRepo } from './gitRepoKit.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function commitWorkspace(workspace: string): void {
	initRepo(workspace);
}

describe('an acceptance reopens when the task branch moves after it (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('a commit by hand in A\'s tree: B does not start, A is pending acceptance "changed after acceptance"; accepted again, B starts from the new commit', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Moved after acceptance' })).issueId;
		// A; C; B after A and C. C keeps running while the developer accepts A and then commits in A's tree.
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: false });
		await h.call('task/add', { issueId, taskId: 'c', title: 'Write c.txt', agentTargetId: 'iso', autoAccept: true });
		await h.call('task/add', { issueId, taskId: 'b', title: 'Write b.txt', agentTargetId: 'iso', dependencyTaskIds: ['a', 'c'], autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		const c = h.runs.launches.find((l) => l.taskId === 'c')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'A\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		await h.call('review/accept', { issueId, taskId: 'a' });
		await h.idle();
		const accepted = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(accepted.status, 'completed');
		assert.notEqual(accepted.acceptedCommit, '');

		// Someone commits in A's tree after the acceptance.
		writeFileSync(join(a.cwd, 'later.txt'), 'added by hand\n');
		git(a.cwd, 'add', 'later.txt');
		git(a.cwd, 'commit', '-q', '-m', 'a fix by hand');
		const moved = git(a.cwd, 'rev-parse', 'HEAD');

		// C ends: B's parents are both settled, yet B must not start from A's stale acceptance.
		writeFileSync(join(c.cwd, 'c.txt'), 'C\n');
		h.runs.exit(c.runId, { exitCode: 0 });
		await h.idle();
		assert.equal(h.runs.launches.some((l) => l.taskId === 'b'), false, 'B did not start');
		let issue = await h.call('issue/get', { issueId });
		const reopened = issue.tasks.find((t) => t.taskId === 'a')!;
		const b = issue.tasks.find((t) => t.taskId === 'b')!;
		assert.equal(reopened.status, 'pending_acceptance');
		assert.equal(reopened.reopenedReason, 'changed after acceptance');
		assert.equal(reopened.acceptedCommit, '', 'the acceptance no longer binds');
		assert.equal(reopened.resultCommit, moved, 'the result is the branch\'s new HEAD');
		assert.equal(b.status, 'not_started');
		assert.equal(b.latestRunId, '', 'no Run was consumed');
		const aRun = await h.call('run/get', { runId: a.runId });
		assert.equal(aRun.resultCommit, moved, 'Open Changes shows the new work');
		assert.deepEqual(aRun.changedFiles.map((f) => f.path).sort(), ['a.txt', 'later.txt']);

		// Accepted again: the acceptance binds to the new commit and B starts from it.
		await h.call('review/accept', { issueId, taskId: 'a' });
		await h.idle();
		issue = await h.call('issue/get', { issueId });
		const again = issue.tasks.find((t) => t.taskId === 'a')!;
		assert.equal(again.status, 'completed');
		assert.equal(again.acceptedCommit, moved);
		assert.equal(again.reopenedReason, '');
		const bLaunch = h.runs.launches.find((l) => l.taskId === 'b');
		assert.ok(bLaunch, `B started after the new acceptance (logs: ${h.logs.join(' | ')})`);
		assert.equal(readFileSync(join(bLaunch.cwd, 'later.txt'), 'utf8'), 'added by hand\n', 'B sees the commit made after the first acceptance');
		assert.ok(existsSync(join(bLaunch.cwd, 'c.txt')));
		const bBase = (await h.call('run/get', { runId: bLaunch.runId })).baseCommit;
		assert.equal(git(h.workspace, 'merge-base', '--is-ancestor', moved, bBase), '', 'B\'s base contains A\'s new HEAD');
	});

	it('an accepted branch that did not move starts its dependent as before (no reopening)', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Unmoved' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.call('task/add', { issueId, taskId: 'b', title: 'Write b.txt', agentTargetId: 'iso', dependencyTaskIds: ['a'], autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'A\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		const b = h.runs.launches.find((l) => l.taskId === 'b');
		assert.ok(b, 'B started');
		const aTask = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'a')!;
		assert.equal(aTask.status, 'completed');
		assert.equal(aTask.reopenedReason, '');
	});

	it('the Integrate control is offered while accepted work is not integrated, and not after', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		commitWorkspace(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Integrate control' })).issueId;
		assert.equal((await h.call('issue/get', { issueId })).controls.integrate, false, 'nothing accepted yet');
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const a = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(a.cwd, 'a.txt'), 'A\n');
		h.runs.exit(a.runId, { exitCode: 0 });
		await h.idle();
		const before = await h.call('issue/get', { issueId });
		assert.equal(before.status, 'completed');
		assert.equal(before.controls.integrate, true, 'a completed issue with accepted work offers Integrate');
		const integrated = await h.call('issue/integrate', { issueId });
		const after = await h.call('issue/get', { issueId });
		assert.equal(after.controls.integrate, false);
		assert.equal(after.integratedCommit, integrated.integratedCommit);
		assert.equal(after.integratedInto, 'main');
	});
});
