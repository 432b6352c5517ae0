// `issue/changes` (Open Combined Diff, real git): two parallel worktree tasks, accepted, shown as one diff from the
// issue's base commit to their accepted commits combined — the files both changed, with +/− counts — while no ref,
// working tree or task moves; the issue's controls offer it before Integrate; tasks whose work conflicts are
// answered with the paths and the tasks; before any acceptance it says why there is nothing to show.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { snapshotTree } from './gitRepoKit.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe('issue/changes: the whole issue as one diff (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		git(h.workspace, 'init', '-q', '-b', 'main');
		git(h.workspace, 'config', 'user.name', 'Dev One');
		git(h.workspace, 'config', 'user.email', 'dev@example.test');
		writeFileSync(join(h.workspace, 'README.md'), 'hello\n');
		writeFileSync(join(h.workspace, '.gitignore'), '.tutti/\n');
		git(h.workspace, 'add', '-A');
		git(h.workspace, 'commit', '-q', '-m', 'initial');
		const { issueId } = await h.call('issue/create', { title: 'Two files', autoAccept: false });
		return issueId;
	}

	/** Runs a task to pending acceptance, writing `files` into its tree as its agent would. */
	async function work(issueId: string, taskId: string, files: Record<string, string>): Promise<void> {
		await h.call('task/add', { issueId, taskId, title: `Write ${taskId}`, agentTargetId: 'iso' });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(launch, `task ${taskId} was launched (logs: ${h.logs.join(' | ')})`);
		for (const [path, text] of Object.entries(files)) { writeFileSync(join(launch.cwd, path), text); }
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
	}

	it('combines the accepted commits of parallel tasks, moving nothing; offered before Integrate', async () => {
		const issueId = await open();
		const base = git(h.workspace, 'rev-parse', 'HEAD');
		await work(issueId, 'a', { 'a.txt': 'A\nA2\n' });
		await work(issueId, 'c', { 'c.txt': 'C\n', 'README.md': 'hello\nmore\n' });
		const before = await h.call('issue/changes', { issueId });
		assert.deepEqual([before.files, before.combinedCommit, before.note], [[], '', 'no task of "Two files" is accepted with a commit yet']);
		assert.equal((await h.call('issue/get', { issueId })).controls.combinedChanges, false);

		await h.call('review/accept', { issueId, taskId: 'a' });
		await h.call('review/accept', { issueId, taskId: 'c' });
		const refs = git(h.workspace, 'for-each-ref', '--format=%(refname) %(objectname)');
		const tree = snapshotTree(h.workspace, ['.tutti']);
		const issueBefore = await h.call('issue/get', { issueId });
		const changes = await h.call('issue/changes', { issueId });

		assert.equal(changes.baseCommit, base);
		assert.deepEqual(changes.taskIds, ['a', 'c']);
		assert.deepEqual(changes.files, [
			{ path: 'README.md', added: 1, deleted: 0, binary: false },
			{ path: 'a.txt', added: 2, deleted: 0, binary: false },
			{ path: 'c.txt', added: 1, deleted: 0, binary: false },
		]);
		assert.equal(git(h.workspace, 'show', `${changes.combinedCommit}:a.txt`), 'A\nA2');
		assert.equal(git(h.workspace, 'show', `${changes.combinedCommit}:c.txt`), 'C');
		assert.equal(changes.note, '');
		assert.equal(git(h.workspace, 'for-each-ref', '--format=%(refname) %(objectname)'), refs, 'no ref moved');
		assert.equal(snapshotTree(h.workspace, ['.tutti']), tree, 'the workspace is untouched');
		const issueAfter = await h.call('issue/get', { issueId });
		assert.deepEqual(issueAfter.tasks, issueBefore.tasks, 'no task changed');
		assert.deepEqual([issueAfter.controls.integrate, issueAfter.controls.combinedChanges], [true, true], 'offered before Integrate');
		assert.deepEqual(await h.call('issue/changes', { issueId }), changes, 'the same combination again');
	});

	it('answers tasks whose accepted work conflicts with the paths and the tasks, no diff', async () => {
		const issueId = await open();
		await work(issueId, 'a', { 'README.md': 'from a\n' });
		await work(issueId, 'b', { 'README.md': 'from b\n' });
		await h.call('review/accept', { issueId, taskId: 'a' });
		await h.call('review/accept', { issueId, taskId: 'b' });
		const changes = await h.call('issue/changes', { issueId });
		assert.deepEqual([changes.files, changes.combinedCommit, changes.conflictPaths], [[], '', ['README.md']]);
		assert.equal(changes.note, 'the accepted work of "Two files" does not combine: task a and task b conflict in README.md');
	});

	it('says why there is nothing to show for an issue whose tasks ran in the shared folder', async () => {
		h = await ServiceHarness.open();
		const { issueId } = await h.call('issue/create', { title: 'Shared folder' });
		const changes = await h.call('issue/changes', { issueId });
		assert.deepEqual([changes.baseCommit, changes.files, changes.note], ['', [], 'no task of "Shared folder" worked in a git worktree, so it has no commits to show (tasks in the shared folder changed it directly)']);
	});
});
