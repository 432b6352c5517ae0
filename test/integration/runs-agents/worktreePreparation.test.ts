// A worktree that can build (real git; the Run processes are scripted): worktreeCopy brings the developer's
// untracked and ignored set-up files into each new tree (never .tutti/), worktreeSetup runs there before the agent
// starts, once per tree, and a failing setup fails the Run before launch with its exit code and output.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import type { HostConfig } from '../../../src/host/config.js';
import { taskRepository } from '../../../src/store/repositories/taskRepository.js';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe('worktree preparation: worktreeCopy and worktreeSetup (real git)', function () {
	this.timeout(30_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(config: Partial<HostConfig>): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], ...config } });
		git(h.workspace, 'init', '-q');
		writeFileSync(join(h.workspace, '.gitignore'), '.env\nnode_modules/\n');
		writeFileSync(join(h.workspace, 'README.md'), 'hello\n');
		git(h.workspace, 'add', '-A');
		git(h.workspace, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'initial');
		// The developer's untracked set-up: an ignored .env, an untracked local note, a file of Tutti's own.
		writeFileSync(join(h.workspace, '.env'), 'TOKEN=local\n');
		writeFileSync(join(h.workspace, 'notes.local'), 'mine\n');
		mkdirSync(join(h.workspace, 'node_modules', 'dep'), { recursive: true });
		writeFileSync(join(h.workspace, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
		issueOf = (await h.call('issue/create', { title: 'prepared trees' })).issueId;
		return issueOf;
	}
	let issueOf = '';

	const tree = (taskId: string): string => join(h.workspace, '.tutti', 'worktrees', issueOf, taskId);

	it('copies the matching untracked and ignored files and runs the setup in the new tree before launch, once per tree', async () => {
		const issueId = await open({
			worktreeCopy: ['.env', 'node_modules/**', '**/*.json'],
			worktreeSetup: ['sh', '-c', 'test -f .env && echo "setup ran" && echo x >> ../../../setup-runs.txt'],
		});
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 1, `launched (logs: ${h.logs.join(' | ')})`);
		assert.equal(readFileSync(join(tree('a'), '.env'), 'utf8'), 'TOKEN=local\n');
		assert.equal(readFileSync(join(tree('a'), 'node_modules', 'dep', 'index.js'), 'utf8'), 'module.exports = 1;\n');
		assert.equal(existsSync(join(tree('a'), 'notes.local')), false, 'only what matches is copied');
		assert.equal(existsSync(join(tree('a'), '.tutti')), false, 'nothing of .tutti/ (its config.json matches **/*.json)');
		assert.equal(readFileSync(join(h.workspace, '.tutti', 'setup-runs.txt'), 'utf8'), 'x\n');

		// A rework goes back to the same tree: no second copy or setup.
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 1 });
		await h.idle();
		await h.call('issue/pause', { issueId });
		await h.call('task/add', { issueId, taskId: 'a2', title: 'a again', agentTargetId: 'iso' });
		await h.store.transaction((tx) => {
			const old = taskRepository.get(tx, issueId, 'a')!;
			taskRepository.update(tx, { ...old, supersededAtUnixMs: h.clock.now(), supersededByTaskId: 'a2' });
		});
		await h.call('issue/resume', { issueId });
		await h.idle();
		assert.equal(h.runs.launches.length, 2);
		assert.equal(readFileSync(join(h.workspace, '.tutti', 'setup-runs.txt'), 'utf8'), 'x\n', 'setup ran once for the tree');
	});

	it('fails the Run before launch when the setup fails, with its exit code and the tail of its output', async () => {
		const issueId = await open({ worktreeSetup: ['sh', '-c', 'echo installing; echo "boom: no registry" >&2; exit 3'] });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 0, 'no agent started');
		const runs = await h.call('run/list', { issueId });
		const run = await h.call('run/get', { runId: runs.runs[0]!.runId });
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage, /worktree setup failed \(exit 3\)/);
		assert.match(run.errorMessage, /boom: no registry/);
	});

	it('fails the Run when the setup outlives its timeout', async () => {
		const issueId = await open({ worktreeSetup: ['sh', '-c', 'exec sleep 30'], worktreeSetupTimeoutSeconds: 1 });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		const runs = await h.call('run/list', { issueId });
		const run = await h.call('run/get', { runId: runs.runs[0]!.runId });
		assert.match(run.errorMessage, /worktree setup failed \(timed out after 1 s\)/);
		assert.equal(h.runs.launches.length, 0);
	});
});
