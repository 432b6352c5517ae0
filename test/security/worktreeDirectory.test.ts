// Security (issue 20, item 1: the execution directory): a task's directory never widens where its agent works. In a
// task worktree the directory is joined to the tree, and a symlink the repository ships there (`escape -> ../../../..`)
// must not move the agent — and with it a codex sandbox's writable root — into the developer's checkout: the Run
// could not start, and no agent process was launched. A directory inside the tree still works.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { initRepo } from '../integration/delivery/gitRepoKit.js';
import { commandTarget, ServiceHarness } from '../unit/host/services/serviceHarness.js';

describe('security: a task directory stays inside its worktree', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it("a symlink in the repository that leads out of the task's tree is refused at launch; a folder in the tree is used", async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace, { '.gitignore': '.tutti/\n', 'README.md': 'hello\n' });
		mkdirSync(join(h.workspace, 'sub'));
		writeFileSync(join(h.workspace, 'sub', 'keep.txt'), 'x\n');
		symlinkSync('../../../..', join(h.workspace, 'escape'));
		execFileSync('git', ['add', '-A'], { cwd: h.workspace });
		execFileSync('git', ['commit', '-q', '-m', 'ship a symlink'], { cwd: h.workspace });
		const { issueId } = await h.call('issue/create', { title: 'Directories', autoAccept: true });
		const worker = await h.session('worker');
		await h.call('task/add', { issueId, taskId: 'out', title: 'Out', agentTargetId: 'iso', executionDirectory: 'escape' }, worker.caller);
		await h.call('task/add', { issueId, taskId: 'in', title: 'In', agentTargetId: 'iso', executionDirectory: 'sub' }, worker.caller);
		await h.idle();
		const tasks = (await h.call('issue/get', { issueId })).tasks;
		const out = await h.call('run/get', { runId: tasks.find((t) => t.taskId === 'out')!.latestRunId });
		assert.equal(out.status, 'failed', out.errorMessage);
		assert.ok(out.errorMessage.includes(`executionDirectory '.tutti/worktrees/${issueId}/out/escape' leads outside the task's worktree .tutti/worktrees/${issueId}/out through a symbolic link`), out.errorMessage);
		assert.deepEqual(h.runs.launches.map((l) => l.taskId), ['in'], 'no agent was started in the developer\'s checkout');
		assert.equal(h.runs.launches[0]!.cwd, realpathSync(join(h.workspace, '.tutti', 'worktrees', issueId, 'in', 'sub')));
	});
});
