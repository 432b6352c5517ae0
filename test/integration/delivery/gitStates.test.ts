// Git in every state (real git, real worktrees; the Run processes are scripted): the developer's repository detached,
// mid-merge, mid-rebase, with a lock file a crashed git left, a task's tree and branch removed by hand, or no longer
// a repository at all. Each case ends in a clear refusal or a recovery that names what to do, and the developer's
// files, index and HEAD are exactly as they were (snapshotTree before and after).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { DomainError } from '../../../src/core/errors.js';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { waitFor } from '../../waitFor.js';
import { initRepo, sh, snapshotTree as snapshotDir, write } from './gitRepoKit.js';

/** The developer's side of the workspace: files, index, HEAD and status, without Tutti's own .tutti folder. */
const snapshotTree = (ws: string): string => snapshotDir(ws, ['.tutti']);

describe('git in every state (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	/** A Host (its folder under `dir` when given) over a git workspace on `main` holding README.md and notes.md. */
	async function open(dir?: string): Promise<void> {
		h = await ServiceHarness.open({ ...(dir !== undefined ? { dir } : {}), config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace, { '.gitignore': '.tutti/\n', 'README.md': 'hello\n', 'notes.md': 'v1\n' });
	}

	/** The developer's own work in progress: an untracked file (never touched by Tutti). */
	function developerWork(): void {
		write(h.workspace, 'scratch.txt', 'mine, untracked\n');
	}

	async function issueWithTask(files: Record<string, string>, taskId = 'a'): Promise<{ issueId: string; runId: string; cwd: string }> {
		const { issueId } = await h.call('issue/create', { title: 'Git states' });
		await h.call('task/add', { issueId, taskId, title: `Task ${taskId}`, agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(launch, `task ${taskId} was launched (logs: ${h.logs.join(' | ')})`);
		for (const [path, text] of Object.entries(files)) { writeFileSync(join(launch.cwd, path), text); }
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
		return { issueId, runId: launch.runId, cwd: launch.cwd };
	}

	async function refusal(promise: Promise<unknown>): Promise<DomainError> {
		try {
			await promise;
		} catch (e) {
			return e as DomainError;
		}
		assert.fail('expected a refusal');
	}

	it('detached HEAD: tasks run from the detached commit, integrate without --into is refused naming --into, with --into it lands', async () => {
		await open();
		const head = sh(h.workspace, 'rev-parse', 'HEAD');
		sh(h.workspace, 'checkout', '-q', '--detach');
		developerWork();
		const { issueId, runId } = await issueWithTask({ 'a.txt': 'A\n' });
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.baseCommit], ['completed', head]);
		const before = snapshotTree(h.workspace);
		const e = await refusal(h.call('issue/integrate', { issueId }));
		assert.equal(e.reasonCode, 'invalid_input');
		assert.match(e.message, /detached HEAD/);
		assert.match(`${e.message} ${e.hint}`, /--into/, 'the refusal says how to go on');
		assert.equal(snapshotTree(h.workspace), before);
		const done = await h.call('issue/integrate', { issueId, into: 'main' });
		assert.equal(sh(h.workspace, 'rev-parse', 'main'), done.integratedCommit);
		assert.equal(sh(h.workspace, 'show', 'main:a.txt'), 'A');
		assert.equal(snapshotTree(h.workspace), before, 'the detached workspace itself did not move');
	});

	for (const [what, enter, abortHint] of [
		['a merge', (ws: string): void => {
			sh(ws, 'checkout', '-q', '-b', 'side');
			write(ws, 'notes.md', 'side\n');
			sh(ws, 'commit', '-q', '-am', 'side');
			sh(ws, 'checkout', '-q', 'main');
			write(ws, 'notes.md', 'main\n');
			sh(ws, 'commit', '-q', '-am', 'main');
			assert.throws(() => sh(ws, 'merge', 'side'));
		}, /a merge is in progress/],
	] as const) {
		it(`${what} in progress in the workspace: tasks still run in their trees; integrate into the branch there is refused naming how to finish it, nothing touched`, async () => {
			await open();
			enter(h.workspace);
			developerWork();
			const before = snapshotTree(h.workspace);
			const { issueId, runId } = await issueWithTask({ 'a.txt': 'A\n' });
			assert.equal((await h.call('run/get', { runId })).status, 'completed');
			const into = what === 'a merge' ? 'main' : 'side';
			const branchBefore = sh(h.workspace, 'rev-parse', into);
			const e = await refusal(h.call('issue/integrate', { issueId, into }));
			assert.equal(e.reasonCode, 'workspace_busy');
			assert.match(e.message, abortHint);
			assert.match(e.hint, /finish or abort the merge or rebase/);
			assert.equal(sh(h.workspace, 'rev-parse', into), branchBefore, 'the branch did not move');
			assert.equal(snapshotTree(h.workspace), before, 'files, index and HEAD untouched');
		});
	}

	it('a rebase of the target branch in progress (HEAD detached meanwhile): integrate into it is refused, the branch does not move, nothing touched', async () => {
		await open();
		const ws = h.workspace;
		sh(ws, 'checkout', '-q', '-b', 'side');
		write(ws, 'notes.md', 'side\n');
		sh(ws, 'commit', '-q', '-am', 'side');
		const { issueId } = await issueWithTask({ 'a.txt': 'A\n' });
		sh(ws, 'checkout', '-q', 'main');
		write(ws, 'notes.md', 'main\n');
		sh(ws, 'commit', '-q', '-am', 'main');
		sh(ws, 'checkout', '-q', 'side');
		assert.throws(() => sh(ws, 'rebase', 'main'), Error, 'the rebase stops on its conflict');
		developerWork();
		const before = snapshotTree(ws);
		const side = sh(ws, 'rev-parse', 'side');
		const e = await refusal(h.call('issue/integrate', { issueId }));
		assert.equal(e.reasonCode, 'workspace_busy');
		assert.match(e.message, /a rebase of side is in progress/);
		assert.equal(sh(ws, 'rev-parse', 'side'), side, 'the branch being rebased did not move under the rebase');
		assert.equal(snapshotTree(ws), before);
	});

	it('a lock file left by a crashed git: integrate is refused naming the lock file, the branch and the files untouched', async () => {
		await open();
		developerWork();
		const { issueId } = await issueWithTask({ 'a.txt': 'A\n' });
		writeFileSync(join(h.workspace, '.git', 'index.lock'), '');
		const before = snapshotTree(h.workspace);
		const main = sh(h.workspace, 'rev-parse', 'main');
		const e = await refusal(h.call('issue/integrate', { issueId }));
		assert.match(`${e.message} ${e.hint}`, /index\.lock/);
		assert.match(`${e.message} ${e.hint}`, /no git (command )?is running|remove|delete/i);
		assert.equal(sh(h.workspace, 'rev-parse', 'main'), main, 'the branch did not move');
		rmSync(join(h.workspace, '.git', 'index.lock'));
		assert.equal(snapshotTree(h.workspace), before);
		const done = await h.call('issue/integrate', { issueId });
		assert.equal(sh(h.workspace, 'rev-parse', 'HEAD'), done.integratedCommit, 'once the lock is gone it integrates');
	});

	it('a task tree and its branch removed by hand: a dependent still starts from the task\'s accepted commit, the developer\'s files untouched', async () => {
		await open();
		const { issueId, runId, cwd } = await issueWithTask({ 'a.txt': 'A\n' });
		const first = await h.call('run/get', { runId });
		assert.notEqual(first.resultCommit, '');
		const branch = sh(cwd, 'rev-parse', '--abbrev-ref', 'HEAD');
		rmSync(cwd, { recursive: true, force: true });
		sh(h.workspace, 'worktree', 'prune');
		sh(h.workspace, 'branch', '-D', branch);
		developerWork();
		const before = snapshotTree(h.workspace);
		await h.call('task/add', { issueId, taskId: 'b', title: 'Task b', agentTargetId: 'iso', dependencyTaskIds: ['a'] });
		await h.idle();
		const b = h.runs.launches.find((l) => l.taskId === 'b');
		assert.ok(b, `b was launched (logs: ${h.logs.join(' | ')})`);
		const run = await h.call('run/get', { runId: b.runId });
		assert.equal(run.status, 'running', `${run.outcomeLabel ?? ''} ${run.errorMessage}`);
		assert.equal(run.baseCommit, first.resultCommit, 'b starts from a\'s accepted commit though a\'s branch is gone');
		assert.equal(existsSync(join(b.cwd, 'a.txt')), true);
		assert.equal(snapshotTree(h.workspace), before, 'the developer\'s files untouched');
	});

	it('the workspace is no longer a git repository: a worktree task refuses to start naming `git init`; integrate refuses; nothing else changes', async () => {
		await open();
		const { issueId } = await issueWithTask({ 'a.txt': 'A\n' });
		rmSync(join(h.workspace, '.git'), { recursive: true, force: true });
		await h.call('task/add', { issueId, taskId: 'b', title: 'Task b', agentTargetId: 'iso' });
		await h.idle();
		const b = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === 'b')!;
		const run = b.latestRunId ? await h.call('run/get', { runId: b.latestRunId }) : null;
		assert.ok(run, 'the launch was recorded as a Run that could not start');
		assert.equal(run.status, 'failed');
		assert.match(run.outcomeLabel ?? '', /^Could not start/);
		assert.match(run.errorMessage, /git init/);
		const e = await refusal(h.call('issue/integrate', { issueId, acceptedOnly: true }));
		assert.match(e.message, /is not a git repository any more/);
	});

	describe('a full disk (the workspace on a small tmpfs; needs root to mount it)', () => {
		let mount = '';
		beforeEach(function () {
			mount = mkdtempSync(join(tmpdir(), 'tutti-fulldisk-'));
			try {
				execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount], { stdio: 'ignore' });
			} catch {
				rmSync(mount, { recursive: true, force: true });
				mount = '';
				console.warn('      (skipped: mounting a tmpfs needs root, and this process may not mount)');
				this.skip();
			}
		});
		afterEach(async () => {
			if (mount === '') { return; }
			try { rmSync(join(mount, 'ballast'), { force: true }); } catch { /* already gone */ }
			await h.close();
			execFileSync('umount', ['-l', mount]);
			rmSync(mount, { recursive: true, force: true });
		});

		/** Fills the disk to its last byte with a ballast file; `free()` removes it. */
		function fill(): () => void {
			const ballast = join(mount, 'ballast');
			try { execFileSync('dd', ['if=/dev/zero', `of=${ballast}`, 'bs=4k'], { stdio: 'ignore' }); } catch { /* dd ends with ENOSPC */ }
			return () => rmSync(ballast, { force: true });
		}

		async function openOnMount(): Promise<void> {
			await open(join(mount, 'h'));
			developerWork();
		}

		it('during a result commit: the Run fails saying the disk is full, its work stays in its tree, the developer\'s files untouched', async () => {
			await openOnMount();
			const { issueId } = await h.call('issue/create', { title: 'Full disk' });
			await h.call('task/add', { issueId, taskId: 'a', title: 'Task a', agentTargetId: 'iso' });
			await h.idle();
			const launch = h.runs.launches.find((l) => l.taskId === 'a')!;
			writeFileSync(join(launch.cwd, 'work.txt'), 'y'.repeat(100_000));
			const before = snapshotTree(h.workspace);
			const free = fill();
			h.runs.exit(launch.runId, { exitCode: 0 });
			await h.idle();
			free();
			const run = await waitFor(async () => {
				const r = await h.call('run/get', { runId: launch.runId });
				return r.status === 'running' ? undefined : r;
			}, { what: 'the Run to settle', timeoutMs: 30_000, detail: () => `logs: ${h.logs.join(' | ')}` });
			assert.equal(run.status, 'failed');
			assert.equal(run.resultCommit, '');
			assert.match(run.errorMessage, /its result could not be committed: the disk is full: free some space/);
			assert.equal(readFileSync(join(launch.cwd, 'work.txt'), 'utf8').length, 100_000, 'the work is still in its tree');
			assert.equal(snapshotTree(h.workspace), before, 'the developer\'s files untouched');
		});

		it('during a worktree creation: the Run could not start, saying so, once the store can write again; the developer\'s files untouched', async () => {
			await openOnMount();
			const { issueId } = await h.call('issue/create', { title: 'Full disk' });
			const before = snapshotTree(h.workspace);
			const free = fill();
			let added = true;
			await h.call('task/add', { issueId, taskId: 'a', title: 'Task a', agentTargetId: 'iso' }).catch((e: DomainError) => {
				added = false;
				assert.equal(e.reasonCode, 'store_unavailable', e.message);
			});
			await h.idle();
			free();
			if (!added) { return; } // The store refused the write itself, cleanly: nothing else to check.
			// Either the tree could not be made (the Run fails, saying why), or the launch's own record was refused
			// (nothing of it saved): then the Run is launched once the store can write again, and never stays stuck.
			const run = await waitFor(async () => {
				const runId = (await h.call('issue/get', { issueId })).tasks[0]?.latestRunId ?? '';
				const r = runId === '' ? undefined : await h.call('run/get', { runId });
				return r && (r.status !== 'running' || h.runs.launches.some((l) => l.runId === r.runId)) ? r : undefined;
			}, { what: 'the Run to settle or to be launched again', timeoutMs: 30_000, detail: () => `logs: ${h.logs.join(' | ')}` });
			if (run.status === 'running') {
				assert.ok(h.logs.some((line) => line.includes(`launching again after the write failure: ${run.runId}`)), h.logs.join(' | '));
				assert.equal(h.runs.launches.filter((l) => l.runId === run.runId).length, 1, 'launched once');
				assert.equal(snapshotTree(h.workspace), before, 'the developer\'s files untouched');
				return;
			}
			assert.equal(run.status, 'failed');
			assert.match(run.outcomeLabel ?? '', /^Could not start/);
			assert.match(run.errorMessage, /No space left|disk is full|ENOSPC|Out of diskspace/i);
			assert.equal(snapshotTree(h.workspace), before, 'the developer\'s files untouched');
		});
	});
});
