// Security: the repository's git hooks never run from Tutti's bookkeeping. A repository (or its tooling: husky sets
// core.hooksPath to a folder of the tree) can install hooks; Tutti's own git calls — making a task's worktree, its
// result commit, the merge of its parents, moving the developer's branch in `tutti issue integrate` — run with hooks
// off. Only the developer's setting `integrateRunsHooks` turns them on, for the integration only.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { expectOk, manualIssue } from '../integration/harness.js';
import { addManualTask, settledRunOf } from './securityKit.js';
import { git, type GitWorkspace, configFor, gitWorkspace, shTarget } from './gitWorkspaceKit.js';

const hookNames = ['post-checkout', 'pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-merge-commit', 'post-merge', 'post-rewrite', 'reference-transaction'];

/** Hooks in `dir` that append their name to `log` (and never fail). */
function installHooks(dir: string, log: string): void {
	mkdirSync(dir, { recursive: true });
	for (const name of hookNames) {
		const file = join(dir, name);
		writeFileSync(file, `#!/bin/sh\necho "${name} $PWD" >> '${log}'\nexit 0\n`);
		chmodSync(file, 0o755);
	}
}

function ran(log: string): string[] {
	return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') : [];
}

const writer = shTarget('iso', 'echo "$TUTTI_TASK_ID" > "$TUTTI_TASK_ID.txt"');

interface Integrated { workspaceMoved: boolean; integratedCommit: string }

describe('security: git hooks of the repository', function () {
	this.timeout(120_000);
	let ws: GitWorkspace | undefined;
	afterEach(async () => { await ws?.dispose(); ws = undefined; });

	/** Tasks a and b, then c on both (its tree starts from the merge of theirs), all accepted automatically. */
	async function diamond(issueId: string): Promise<void> {
		const host = ws!.host;
		await addManualTask(host, issueId, 'a', ['--agent-target-id', 'iso']);
		await addManualTask(host, issueId, 'b', ['--agent-target-id', 'iso']);
		await addManualTask(host, issueId, 'c', ['--agent-target-id', 'iso', '--depends-on', 'a', '--depends-on', 'b']);
		for (const taskId of ['a', 'b', 'c']) {
			const run = await settledRunOf(host, issueId, taskId);
			assert.equal(run.status, 'completed', `${taskId}: ${run.errorMessage}`);
			assert.notEqual(run.resultCommit, run.baseCommit, `${taskId} has a result commit`);
		}
	}

	for (const where of ['core.hooksPath in the tree', '.git/hooks'] as const) {
		it(`hooks in ${where}: none runs for worktrees, result commits, parent merges or the integration`, async () => {
			let log = '';
			ws = await gitWorkspace('tutti-sec-hooks-', { 'README.md': 'hello\n' }, { agentTargets: [writer] }, (workspace) => {
				log = join(workspace, '..', 'hooks-ran.log');
				if (where === '.git/hooks') {
					installHooks(join(workspace, '.git', 'hooks'), log);
				} else {
					installHooks(join(workspace, 'githooks'), log);
					// An fsmonitor program in the tree, named relative to it: a hook by another name.
					writeFileSync(join(workspace, 'githooks', 'fsmonitor'), `#!/bin/sh\necho "fsmonitor $PWD" >> '${log}'\nexit 1\n`);
					chmodSync(join(workspace, 'githooks', 'fsmonitor'), 0o755);
					git(workspace, 'add', 'githooks');
					git(workspace, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'hooks');
					git(workspace, 'config', 'core.hooksPath', 'githooks');
					git(workspace, 'config', 'core.fsmonitor', 'githooks/fsmonitor');
				}
			});
			// The hooks work: a git call of the developer's runs them.
			git(ws.workspace, 'checkout', '-q', 'main');
			assert.ok(ran(log).some((l) => l.startsWith('post-checkout')), `the installed hooks run for the developer's own git: ${ran(log).join('; ')}`);
			if (where !== '.git/hooks') {
				git(ws.workspace, 'status', '--porcelain');
				assert.ok(ran(log).some((l) => l.startsWith('fsmonitor')), `the fsmonitor program runs for the developer's own git status: ${ran(log).join('; ')}`);
			}
			writeFileSync(log, '');
			const issueId = await manualIssue(ws.host, 'Hooks', true);
			await diamond(issueId);
			assert.deepEqual(ran(log), [], 'no hook (nor fsmonitor) ran while Tutti made trees, result commits and the merge of parents');
			const integrated = expectOk<Integrated>(await ws.host.cli(['issue', 'integrate', '--issue-id', issueId, '--json'], { asUser: true }));
			assert.equal(integrated.workspaceMoved, true);
			assert.equal(git(ws.workspace, 'rev-parse', 'HEAD'), integrated.integratedCommit);
			assert.deepEqual(ran(log), [], 'no hook ran while the integration moved main in the developer\'s checkout');
		});
	}

	it('the developer\'s setting integrateRunsHooks runs the hooks for the integration (and only there)', async () => {
		let log = '';
		ws = await gitWorkspace('tutti-sec-hooks-on-', { 'README.md': 'hello\n' }, { agentTargets: [writer], integrateRunsHooks: true }, (workspace) => {
			log = join(workspace, '..', 'hooks-ran.log');
			installHooks(join(workspace, '.git', 'hooks'), log);
		});
		const issueId = await manualIssue(ws.host, 'Hooks on', true);
		await addManualTask(ws.host, issueId, 'a', ['--agent-target-id', 'iso']);
		assert.equal((await settledRunOf(ws.host, issueId, 'a')).status, 'completed');
		assert.deepEqual(ran(log), [], 'the setting is for the integration only: the task\'s tree and result commit ran none');
		expectOk(await ws.host.cli(['issue', 'integrate', '--issue-id', issueId, '--json'], { asUser: true }));
		const names = ran(log).map((l) => l.split(' ')[0]);
		assert.ok(names.includes('post-merge'), `post-merge ran in the developer's checkout: ${names.join(', ')}`);
		assert.ok(ran(log).every((l) => l.endsWith(` ${ws!.workspace}`)), `every hook ran in the developer's checkout: ${ran(log).join('; ')}`);
		// Off again (the default): the next integration runs none.
		writeFileSync(log, '');
		await ws.host.applyConfig(configFor({ agentTargets: [writer] }));
		// The changed config.json paused the issue as the Host applied it (configChange.test.ts): the developer resumes it.
		expectOk(await ws.host.cli(['issue', 'resume', '--issue-id', issueId, '--json'], { asUser: true }));
		await addManualTask(ws.host, issueId, 'b', ['--agent-target-id', 'iso']);
		assert.equal((await settledRunOf(ws.host, issueId, 'b')).status, 'completed');
		expectOk(await ws.host.cli(['issue', 'integrate', '--issue-id', issueId, '--json'], { asUser: true }));
		assert.deepEqual(ran(log), []);
	});
});
