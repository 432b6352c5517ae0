// Done means delivered (real git): an issue whose accepted work is only on task branches needs the developer (ready
// to integrate) until it is integrated or finished without integrating; `--push` sends the integration to a real bare
// repository on disk and a failed push keeps it; `--squash` writes one commit per task or one for the issue; Finish
// and `tutti worktree prune` remove only trees without uncommitted changes and branches whose work is merged.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commandTarget, rejects, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { pushBranch } from '../../../src/host/delivery/push.js';
import { initRepo } from './gitRepoKit.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe('done means delivered (real git)', function () {
	this.timeout(120_000);
	let h: ServiceHarness;
	const scratch: string[] = [];
	afterEach(async () => {
		await h.close();
		for (const dir of scratch.splice(0)) { rmSync(dir, { recursive: true, force: true }); }
	});

	async function open(): Promise<void> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace);
	}

	/** A manual issue whose tasks (each writing `<task>.txt`, in the order given, `deps` before it) are done and accepted. */
	async function doneIssue(title: string, tasks: readonly { id: string; deps?: string[]; title?: string }[]): Promise<string> {
		const issueId = (await h.call('issue/create', { title })).issueId;
		for (const t of tasks) {
			await h.call('task/add', { issueId, taskId: t.id, title: t.title ?? `Write ${t.id}.txt`, agentTargetId: 'iso', dependencyTaskIds: t.deps ?? [], autoAccept: true });
		}
		for (const t of tasks) {
			await h.idle();
			const launch = h.runs.launches.find((l) => l.taskId === t.id);
			assert.ok(launch, `task ${t.id} was launched (logs: ${h.logs.join(' | ')})`);
			writeFileSync(join(launch.cwd, `${t.id}.txt`), `${t.id}\n`);
			h.runs.exit(launch.runId, { exitCode: 0 });
		}
		await h.idle();
		return issueId;
	}

	/** A bare repository on disk as `origin`, with main pushed and set as main's upstream. */
	function bareOrigin(): string {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-remote-'));
		scratch.push(dir);
		const bare = join(dir, 'origin.git');
		mkdirSync(bare);
		git(bare, 'init', '-q', '--bare', '-b', 'main');
		git(h.workspace, 'remote', 'add', 'origin', bare);
		git(h.workspace, 'push', '-q', '-u', 'origin', 'main');
		return bare;
	}

	it('Ready to integrate needs you until integrate; then Done · integrated', async () => {
		await open();
		const issueId = await doneIssue('Deliver', [{ id: 'a' }]);
		const ready = await h.call('issue/get', { issueId });
		assert.equal(ready.status, 'completed');
		assert.equal(ready.delivery, 'ready_to_integrate');
		assert.equal(ready.attention.state, 'needs_you');
		assert.equal(ready.attention.label, 'Needs you: ready to integrate');
		assert.equal(ready.controls.integrate, true);
		await h.call('issue/integrate', { issueId });
		const done = await h.call('issue/get', { issueId });
		assert.equal(done.delivery, 'integrated');
		assert.equal(done.attention.state, 'done');
		assert.equal(done.attention.label, 'Done · integrated into main');
	});

	it('Finish is refused while accepted work is not integrated; --without-integrating records it and the issue reads "not integrated"', async () => {
		await open();
		const issueId = await doneIssue('Abandon', [{ id: 'a' }]);
		const refused = await rejects(h.call('issue/finish', { issueId }), 'not_integrated');
		assert.match(refused.message, /\(1 task: a\)/);
		assert.equal((await h.call('issue/get', { issueId })).delivery, 'ready_to_integrate', 'nothing was recorded');
		const tip = git(h.workspace, 'rev-parse', `tutti/${issueId}/a`);

		const finished = await h.call('issue/finish', { issueId, withoutIntegrating: true });
		assert.equal(finished.notIntegrated, true);
		assert.equal(finished.replayed, false);
		const issue = await h.call('issue/get', { issueId });
		assert.equal(issue.delivery, 'not_integrated');
		assert.equal(issue.attention.state, 'done');
		assert.equal(issue.attention.label, 'Done · not integrated');
		// The offer: the clean tree can go (with its disk), the branch holding the only copy of the work stays, named.
		const tree = finished.cleanup.items.find((i) => i.kind === 'tree')!;
		assert.equal(tree.state, 'removable');
		assert.equal(tree.name, join(h.workspace, '.tutti', 'worktrees', issueId, 'a'));
		assert.ok(tree.bytes > 0);
		const branch = finished.cleanup.items.find((i) => i.kind === 'branch')!;
		assert.deepEqual({ state: branch.state, name: branch.name }, { state: 'kept', name: `tutti/${issueId}/a` });
		assert.equal(branch.reason, 'not merged into main (1 commit only on it)');
		assert.match(finished.cleanup.summary, /^Removing 1 worktree frees \d/);
		assert.ok(existsSync(tree.name), 'an offer removes nothing');
		const again = await h.call('issue/finish', { issueId, removeWorktrees: true });
		assert.equal(again.replayed, true);
		assert.equal(again.notIntegrated, true);
		assert.equal(existsSync(tree.name), false);
		assert.equal(git(h.workspace, 'rev-parse', `tutti/${issueId}/a`), tip, 'the unmerged branch keeps the work');
	});

	it('--push with no name pushes to the upstream of a real bare repository', async () => {
		await open();
		const bare = bareOrigin();
		const issueId = await doneIssue('Pushed', [{ id: 'a' }]);
		const integrated = await h.call('issue/integrate', { issueId, push: true });
		assert.deepEqual(integrated.pushed, { remote: 'origin', branch: 'main' });
		assert.equal(git(bare, 'rev-parse', 'main'), integrated.integratedCommit);
		assert.equal(git(h.workspace, 'rev-parse', 'main'), integrated.integratedCommit);
	});

	it('a rejected push keeps the local integration, records it, and says what to do', async () => {
		await open();
		const bare = bareOrigin();
		// Someone else pushed to origin/main meanwhile: a non-forced push is rejected.
		const other = join(scratch[0]!, 'other');
		git(scratch[0]!, 'clone', '-q', bare, other);
		git(other, 'config', 'user.name', 'Other'); git(other, 'config', 'user.email', 'other@example.test');
		writeFileSync(join(other, 'theirs.txt'), 'theirs\n');
		git(other, 'add', '-A'); git(other, 'commit', '-q', '-m', 'theirs'); git(other, 'push', '-q', 'origin', 'main');
		const theirs = git(other, 'rev-parse', 'HEAD');
		const issueId = await doneIssue('Rejected', [{ id: 'a' }]);
		const failed = await rejects(h.call('issue/integrate', { issueId, push: 'origin' }), 'push_failed');
		assert.match(failed.message, /this integration stays/);
		assert.match(failed.message, /rejected|fetch first|non-fast-forward/);
		assert.match(failed.hint, /git push origin main:main/);
		const local = git(h.workspace, 'rev-parse', 'main');
		assert.equal(readFileSync(join(h.workspace, 'a.txt'), 'utf8'), 'a\n', 'the integration is on the local branch');
		assert.equal(git(bare, 'rev-parse', 'main'), theirs, 'the remote is as it was');
		const issue = await h.call('issue/get', { issueId });
		assert.equal(issue.integratedCommit, local);
		assert.equal(issue.delivery, 'integrated');
		// What the hint says: pull the remote's commits, integrate with --push again.
		git(h.workspace, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
		const again = await h.call('issue/integrate', { issueId, push: 'origin' });
		assert.deepEqual(again.pushed, { remote: 'origin', branch: 'main' });
		assert.equal(git(bare, 'rev-parse', 'main'), git(h.workspace, 'rev-parse', 'main'));
		assert.equal(git(bare, 'merge-base', '--is-ancestor', theirs, 'main'), '');
	});

	it('a push the remote never answers is stopped at its bound, says so, and leaves the remote as it was', async () => {
		await open();
		const bare = bareOrigin();
		const before = git(bare, 'rev-parse', 'main');
		// The remote hangs in its pre-receive hook until the test lets it go (at most 30 s, so nothing outlives the test).
		const release = join(scratch[0]!, 'release');
		writeFileSync(join(bare, 'hooks', 'pre-receive'), `#!/bin/sh\ni=0\nwhile [ ! -f '${release}' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\nexit 1\n`, { mode: 0o755 });
		writeFileSync(join(h.workspace, 'next.txt'), 'next\n');
		git(h.workspace, 'add', 'next.txt');
		git(h.workspace, 'commit', '-qm', 'next');
		try {
			const failure = await pushBranch(h.workspace, 'main', { remote: 'origin', remoteRef: 'refs/heads/main' }, false, 1_000);
			assert.match(failure, /git did not finish within 1 s and was stopped/);
		} finally {
			writeFileSync(release, '');
		}
		assert.equal(git(bare, 'rev-parse', 'main'), before, 'the remote did not move');
		assert.notEqual(git(h.workspace, 'rev-parse', 'main'), before, 'the local branch keeps its commit');
	});

	it('--push to a remote that does not exist changes nothing', async () => {
		await open();
		const issueId = await doneIssue('No remote', [{ id: 'a' }]);
		const before = git(h.workspace, 'rev-parse', 'main');
		const refused = await rejects(h.call('issue/integrate', { issueId, push: 'nowhere' }), 'invalid_input');
		assert.match(refused.message, /no remote named 'nowhere'.*Nothing was changed/s);
		const bare = await rejects(h.call('issue/integrate', { issueId, push: true }), 'invalid_input');
		assert.match(bare.message, /has no upstream/);
		assert.equal(git(h.workspace, 'rev-parse', 'main'), before);
		assert.equal((await h.call('issue/get', { issueId })).delivery, 'ready_to_integrate');
	});

	it('--squash task: one commit per task, parents first, titled by the task; the tree is what a merge gives', async () => {
		await open();
		const base = git(h.workspace, 'rev-parse', 'main');
		// b was added first and depends on z: the squash puts z's commit first (neither id nor creation order would).
		const issueId = (await h.call('issue/create', { title: 'Squashed', dispatchPaused: true })).issueId;
		await h.call('task/add', { issueId, taskId: 'b', title: 'Write b.txt', agentTargetId: 'iso', autoAccept: true });
		await h.call('task/add', { issueId, taskId: 'z', title: 'Write z.txt', agentTargetId: 'iso', autoAccept: true });
		await h.call('task/update', { issueId, taskId: 'b', dependencyTaskIds: ['z'] });
		await h.call('issue/resume', { issueId });
		for (const id of ['z', 'b']) {
			await h.idle();
			const launch = h.runs.launches.find((l) => l.taskId === id)!;
			writeFileSync(join(launch.cwd, `${id}.txt`), `${id}\n`);
			// Two commits of the task's own history (an attempt and its fix) become one.
			git(launch.cwd, 'add', '-A'); git(launch.cwd, 'commit', '-q', '-m', 'attempt');
			writeFileSync(join(launch.cwd, `${id}.txt`), `${id} fixed\n`);
			h.runs.exit(launch.runId, { exitCode: 0 });
		}
		await h.idle();
		const integrated = await h.call('issue/integrate', { issueId, squash: 'task' });
		assert.equal(integrated.squash, 'task');
		assert.equal(git(h.workspace, 'log', '--format=%s', `${base}..main`), 'Write b.txt\nWrite z.txt', 'newest first: z, then b');
		assert.equal(git(h.workspace, 'rev-list', '--merges', '--count', `${base}..main`), '0');
		assert.equal(git(h.workspace, 'log', '-1', '--format=%(trailers:key=Tutti-Task,valueonly)', 'main'), 'b');
		assert.equal(readFileSync(join(h.workspace, 'z.txt'), 'utf8'), 'z fixed\n');
		assert.equal(readFileSync(join(h.workspace, 'b.txt'), 'utf8'), 'b fixed\n');
		assert.equal(git(h.workspace, 'show', '--format=', '--name-only', 'main~1'), 'z.txt', "the first commit holds only z's work");
		assert.equal(git(h.workspace, 'show', '--format=', '--name-only', 'main'), 'b.txt');
	});

	it('--squash issue: one commit for the issue, titled by it and listing its tasks', async () => {
		await open();
		const base = git(h.workspace, 'rev-parse', 'main');
		const issueId = await doneIssue('Ship the thing', [{ id: 'a' }, { id: 'b', deps: ['a'] }]);
		const integrated = await h.call('issue/integrate', { issueId, squash: 'issue' });
		assert.equal(git(h.workspace, 'rev-list', '--count', `${base}..main`), '1');
		assert.equal(git(h.workspace, 'rev-parse', 'main~1'), base);
		assert.equal(git(h.workspace, 'log', '-1', '--format=%B', 'main'), `Ship the thing\n\n- Write a.txt (a)\n- Write b.txt (b)\n\nTutti-Issue: ${issueId}`);
		assert.equal(integrated.fastForward, true);
		// Squashed branches count as merged: Finish removes their trees and branches.
		const finished = await h.call('issue/finish', { issueId, removeWorktrees: true });
		assert.deepEqual(finished.cleanup.items.map((i) => `${i.kind} ${i.state}`), ['tree removed', 'tree removed', 'branch removed', 'branch removed']);
		assert.equal(git(h.workspace, 'branch', '--list', 'tutti/*'), '');
	});

	it('prune removes what is safe in finished issues and names each thing it keeps', async () => {
		await open();
		const integrated = await doneIssue('Integrated', [{ id: 'i1' }, { id: 'i2' }]);
		await h.call('issue/integrate', { issueId: integrated });
		await h.call('issue/finish', { issueId: integrated });
		const dirty = await doneIssue('Dirty', [{ id: 'd1' }]);
		await h.call('issue/integrate', { issueId: dirty });
		writeFileSync(join(h.workspace, '.tutti', 'worktrees', dirty, 'd1', 'scratch.txt'), 'work in progress\n');
		const waiting = await doneIssue('Waiting', [{ id: 'w1' }]);
		const abandoned = await doneIssue('Abandoned', [{ id: 'n1' }]);
		await h.call('issue/finish', { issueId: abandoned, withoutIntegrating: true });

		const refused = await rejects(h.call('worktree/prune', { issueId: waiting }), 'invalid_input');
		assert.match(refused.message, /is not finished/);
		const pruned = await h.call('worktree/prune', {});
		const byIssue = new Map(pruned.issues.map((i) => [i.issueId, i.items.map((x) => `${x.kind} ${x.name.replace(h.workspace, '~')} ${x.state}${x.reason ? `: ${x.reason}` : ''}`)] as const));
		assert.deepEqual(byIssue.get(integrated), [`tree ~/.tutti/worktrees/${integrated}/i1 removed`, `tree ~/.tutti/worktrees/${integrated}/i2 removed`, `branch tutti/${integrated}/i1 removed`, `branch tutti/${integrated}/i2 removed`]);
		assert.deepEqual(byIssue.get(dirty), [`tree ~/.tutti/worktrees/${dirty}/d1 kept: it has uncommitted changes (?? scratch.txt)`, `branch tutti/${dirty}/d1 kept: its worktree is kept`]);
		assert.deepEqual(byIssue.get(abandoned), [`tree ~/.tutti/worktrees/${abandoned}/n1 removed`, `branch tutti/${abandoned}/n1 kept: not merged into main (1 commit only on it)`]);
		assert.equal(byIssue.has(waiting), false, 'an issue ready to integrate keeps its trees');
		assert.ok(existsSync(join(h.workspace, '.tutti', 'worktrees', waiting, 'w1')));
		assert.equal(git(h.workspace, 'branch', '--list', '--format=%(refname:short)', 'tutti/*'), [`tutti/${dirty}/d1`, `tutti/${abandoned}/n1`, `tutti/${waiting}/w1`].sort().join('\n'));
		assert.match(pruned.summary, /^Removed 3 worktrees and 2 merged branches of 3 finished issues, freeing .+; kept 3 items \(each named with its reason\)\.$/);
		assert.equal(readFileSync(join(h.workspace, '.tutti', 'worktrees', dirty, 'd1', 'scratch.txt'), 'utf8'), 'work in progress\n');
	});
});
