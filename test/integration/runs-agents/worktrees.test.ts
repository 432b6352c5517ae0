// Worktree isolation with real git (the Run processes are scripted): a task of an `"isolation":"worktree"` target
// runs in `.tutti/worktrees/<issueId>/<taskId>` on `tutti/<issueId>/<taskId>` from the issue's base commit (a tree
// recorded under the older per-task names keeps them); a rework goes back to the same tree; removal refuses
// uncommitted changes; a non-git workspace gets a clear error.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { DomainError } from '../../../src/core/errors.js';
import { WorktreeManager } from '../../../src/host/worktrees/worktreeManager.js';
import { WorktreeService } from '../../../src/host/services/worktreeService.js';
import { taskRepository } from '../../../src/store/repositories/taskRepository.js';
import { commandTarget, ServiceHarness, user } from '../../unit/host/services/serviceHarness.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function commitAll(cwd: string, message: string): string {
	git(cwd, 'add', '-A');
	git(cwd, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', message);
	return git(cwd, 'rev-parse', 'HEAD');
}

describe('worktree isolation (real git)', function () {
	this.timeout(30_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(withGit = true): Promise<{ issueId: string; base: string }> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' }), commandTarget('ok')] } });
		let base = '';
		if (withGit) {
			git(h.workspace, 'init', '-q');
			writeFileSync(join(h.workspace, 'README.md'), 'hello\n');
			base = commitAll(h.workspace, 'initial');
		}
		return { issueId: (await h.call('issue/create', { title: 'isolated' })).issueId, base };
	}

	async function launchedCwd(taskId: string): Promise<string> {
		await h.idle();
		const spec = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(spec, `task ${taskId} was launched (logs: ${h.logs.join(' | ')})`);
		return spec.cwd;
	}

	it('creates .tutti/worktrees/<issueId>/<taskId> on tutti/<issueId>/<taskId> from the issue base commit and records it on the Run', async () => {
		const { issueId, base } = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		const cwd = await launchedCwd('a');
		assert.equal(cwd, realpathSync(join(h.workspace, '.tutti', 'worktrees', issueId, 'a')));
		assert.equal(git(cwd, 'rev-parse', '--abbrev-ref', 'HEAD'), `tutti/${issueId}/a`);
		assert.equal(git(cwd, 'rev-parse', 'HEAD'), base);
		const run = await h.call('run/get', { runId: h.runs.launches[0]!.runId });
		assert.equal(run.executionDirectory, join('.tutti', 'worktrees', issueId, 'a'));

		// The main tree moves on; a later task of the same issue still starts from the issue's base commit.
		writeFileSync(join(h.workspace, 'later.txt'), 'later\n');
		const later = commitAll(h.workspace, 'later');
		assert.notEqual(later, base);
		await h.call('task/add', { issueId, taskId: 'b', title: 'b', agentTargetId: 'iso' });
		assert.equal(git(await launchedCwd('b'), 'rev-parse', 'HEAD'), base);
		assert.equal(git(h.workspace, 'status', '--porcelain'), '', 'the trees stay out of the main status (.tutti is ignored)');
	});

	it('a rework (a task superseding the first) goes back to the same tree, with its work in it', async () => {
		const { issueId } = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		const first = await launchedCwd('a');
		writeFileSync(join(first, 'work.txt'), 'half done\n');
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 1 });
		await h.idle();

		await h.call('issue/pause', { issueId });
		await h.call('task/add', { issueId, taskId: 'a-rework', title: 'a again', agentTargetId: 'iso' });
		await h.store.transaction((tx) => {
			const old = taskRepository.get(tx, issueId, 'a')!;
			taskRepository.update(tx, { ...old, supersededAtUnixMs: h.clock.now(), supersededByTaskId: 'a-rework' });
		});
		await h.call('issue/resume', { issueId });
		const second = await launchedCwd('a-rework');
		assert.equal(second, first);
		assert.equal(readFileSync(join(second, 'work.txt'), 'utf8'), 'half done\n');
		assert.equal(existsSync(join(h.workspace, '.tutti', 'worktrees', issueId, 'a-rework')), false);

		// A resume of the same task (e.g. its launch retried after a restart) reuses the tree too.
		const again = await new WorktreeManager(h.workspace).ensure(issueId, ['a'], 'iso');
		assert.deepEqual([again.absolutePath, again.created], [join(h.workspace, '.tutti', 'worktrees', issueId, 'a'), false]);
	});

	it('removal refuses uncommitted changes and a running Run; after a commit the tree goes and its branch stays', async () => {
		const { issueId } = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		const cwd = await launchedCwd('a');
		const service = new WorktreeService({ store: h.store, worktrees: new WorktreeManager(h.workspace) });
		const runId = h.runs.launches[0]!.runId;

		const busy = await service.remove({ issueId, taskId: 'a' }, user).then(() => null, (e: unknown) => e);
		assert.ok(busy instanceof DomainError && /still running/.test(busy.message), String(busy));
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();

		writeFileSync(join(cwd, 'new.txt'), 'uncommitted\n');
		const dirty = await service.remove({ issueId, taskId: 'a' }, user).then(() => null, (e: unknown) => e);
		assert.ok(dirty instanceof DomainError, String(dirty));
		assert.equal(dirty.reasonCode, 'invalid_input');
		assert.match(dirty.message, /uncommitted changes \(\?\? new\.txt\)/);
		assert.match(dirty.hint, /tutti worktree remove --issue-id .* --task-id a --as-user/);
		assert.ok(existsSync(join(cwd, 'new.txt')), 'nothing was dropped');

		const committed = commitAll(cwd, 'agent work');
		const removed = await service.remove({ issueId, taskId: 'a' }, user);
		assert.deepEqual([removed.removed, removed.branch], [true, `tutti/${issueId}/a`]);
		assert.equal(existsSync(cwd), false);
		assert.equal(git(h.workspace, 'rev-parse', `refs/heads/tutti/${issueId}/a`), committed, 'the branch keeps the work');

		const forbidden = await service.remove({ issueId, taskId: 'a' }, { kind: 'session', sessionId: 's', role: 'worker' }).then(() => null, (e: unknown) => e);
		assert.ok(forbidden instanceof DomainError && forbidden.reasonCode === 'forbidden');
	});

	it('the same task id in another issue gets its own tree and branch; a tree deleted by hand comes back on its branch with its commits', async () => {
		const { issueId } = await open();
		const manager = new WorktreeManager(h.workspace);
		const tree = await manager.ensure(issueId, ['a'], 'iso');
		assert.equal(tree.created, true);
		const other = await manager.ensure('other-issue', ['a'], 'iso');
		assert.deepEqual([other.created, other.relativePath, other.branch], [true, join('.tutti', 'worktrees', 'other-issue', 'a'), 'tutti/other-issue/a']);
		assert.notEqual(other.absolutePath, tree.absolutePath);

		writeFileSync(join(tree.absolutePath, 'kept.txt'), 'kept\n');
		const committed = commitAll(tree.absolutePath, 'work');
		rmSync(tree.absolutePath, { recursive: true, force: true });
		const back = await manager.ensure(issueId, ['a'], 'iso');
		assert.deepEqual([back.absolutePath, back.created], [tree.absolutePath, true]);
		assert.equal(git(back.absolutePath, 'rev-parse', 'HEAD'), committed);
		assert.equal(readFileSync(join(back.absolutePath, 'kept.txt'), 'utf8'), 'kept\n');
	});

	it('a tree recorded under the older names (.tutti/worktrees/<taskId> on tutti/<taskId>) keeps them: reused, removed and made again there', async () => {
		const { issueId, base } = await open();
		// What an older Tutti left: the tree and branch named by the task alone, and its bookkeeping by task id.
		const legacy = join(h.workspace, '.tutti', 'worktrees', 'a');
		git(h.workspace, 'worktree', 'add', '-q', '-b', 'tutti/a', legacy, base);
		writeFileSync(join(h.workspace, '.tutti', 'worktrees.json'), JSON.stringify({ bases: { [issueId]: base }, owners: { a: issueId }, prepared: {} }));
		writeFileSync(join(legacy, 'old.txt'), 'old work\n');
		const committed = commitAll(legacy, 'old work');

		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		assert.equal(await launchedCwd('a'), realpathSync(legacy), 'the launch goes to the tree under its recorded name');
		const run = await h.call('run/get', { runId: h.runs.launches[0]!.runId });
		assert.equal(run.executionDirectory, join('.tutti', 'worktrees', 'a'));
		assert.equal(existsSync(join(h.workspace, '.tutti', 'worktrees', issueId)), false, 'no tree under the new names');
		h.runs.exit(run.runId, { exitCode: 0 });
		await h.idle();

		const manager = new WorktreeManager(h.workspace);
		const service = new WorktreeService({ store: h.store, worktrees: manager });
		const removed = await service.remove({ issueId, taskId: 'a' }, user);
		assert.deepEqual([removed.path, removed.branch], [legacy, 'tutti/a']);
		const back = await manager.ensure(issueId, ['a'], 'iso');
		assert.deepEqual([back.absolutePath, back.branch, back.created], [legacy, 'tutti/a', true], 'made again with the names it was made with');
		assert.equal(git(back.absolutePath, 'rev-parse', 'HEAD'), committed);
		// The bookkeeping is now written in the new shape, with the old names.
		const state = JSON.parse(readFileSync(join(h.workspace, '.tutti', 'worktrees.json'), 'utf8')) as { trees: { path: string; branch: string }[] };
		assert.deepEqual(state.trees.map((t) => [t.path, t.branch]), [[join('.tutti', 'worktrees', 'a'), 'tutti/a']]);
	});

	it('a non-git workspace fails the Run with a clear error for that setting, before any process starts', async () => {
		const { issueId } = await open(false);
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 0);
		const task = (await h.call('issue/get', { issueId })).tasks[0]!;
		const run = await h.call('run/get', { runId: task.latestRunId });
		assert.equal(run.outcome, 'failure');
		assert.match(run.errorMessage, /uses "isolation":"worktree", but the workspace .* is not a git repository/);
		assert.match(run.errorMessage, /git init/);
	});
});
