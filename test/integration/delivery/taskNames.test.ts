// Branch and tree names per issue, with real git, a real Host and the real CLI: the same task id in two issues gets
// `tutti/<issue>/<task>` in `.tutti/worktrees/<issue>/<task>` in each, both run and both integrate; a task id git
// cannot use as a branch or folder is refused when the task is added (`issue task add`, `plan issue mutate`), with
// the rule, and nothing is added.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import {
	expectError, expectOk, type HostHandle, issueGet, managedIssue, manualIssue, startHost, taskSpec,
} from '../harness.js';
import { addManualTask, settledRunOf } from '../../security/securityKit.js';
import { initRepo, sh } from './gitRepoKit.js';

/** Writes `<issue>.txt` (its issue's own file) in its tree: two issues' results never touch the same path. */
const writer = { id: 'iso', adapter: 'command', argv: ['sh', '-c', 'echo "$TUTTI_TASK_ID of $TUTTI_ISSUE_ID" > "$TUTTI_ISSUE_ID.txt"'], isolation: 'worktree' };

describe('task names: the same task id in two issues, and ids git cannot use (real git, real Host)', function () {
	this.timeout(120_000);
	let root: string;
	let workspace: string;
	let host: HostHandle;

	before(async () => {
		root = mkdtempSync(join(tmpdir(), 'tutti-names-'));
		workspace = join(root, 'ws');
		mkdirSync(workspace);
		initRepo(workspace);
		host = await startHost({ workspace, config: { agentTargets: [writer, { id: 'ok', adapter: 'command', argv: ['true'] }], maxParallelRuns: 4 } as never });
	});
	after(async () => {
		await host?.dispose();
		rmSync(root, { recursive: true, force: true });
	});

	it('task `build` in two issues: each gets its own tree and branch, both run, both integrate into main', async () => {
		const first = await manualIssue(host, 'First', true);
		const second = await manualIssue(host, 'Second', true);
		await addManualTask(host, first, 'build', ['--agent-target-id', 'iso']);
		await addManualTask(host, second, 'build', ['--agent-target-id', 'iso']);
		const runs = [await settledRunOf(host, first, 'build'), await settledRunOf(host, second, 'build')];
		for (const [issueId, run] of [[first, runs[0]!], [second, runs[1]!]] as const) {
			assert.equal(run.status, 'completed', `${issueId}: ${run.errorMessage}`);
			assert.equal(run.executionDirectory, join('.tutti', 'worktrees', issueId, 'build'));
			const tree = join(workspace, '.tutti', 'worktrees', issueId, 'build');
			assert.equal(sh(tree, 'rev-parse', '--abbrev-ref', 'HEAD'), `tutti/${issueId}/build`);
			assert.equal(sh(workspace, 'rev-parse', `refs/heads/tutti/${issueId}/build`), run.resultCommit, 'the branch holds the result');
			assert.equal(readFileSync(join(tree, `${issueId}.txt`), 'utf8'), `build of ${issueId}\n`);
		}
		assert.notEqual(realpathSync(join(workspace, '.tutti', 'worktrees', first, 'build')), realpathSync(join(workspace, '.tutti', 'worktrees', second, 'build')));

		for (const issueId of [first, second]) {
			const integrated = expectOk<{ mergedTaskIds: string[] }>(await host.cli(['issue', 'integrate', '--issue-id', issueId, '--json'], { asUser: true }));
			assert.deepEqual(integrated.mergedTaskIds, ['build']);
		}
		assert.equal(sh(workspace, 'show', `main:${first}.txt`), `build of ${first}`);
		assert.equal(sh(workspace, 'show', `main:${second}.txt`), `build of ${second}`);
	});

	it('a task id git cannot use is refused at `issue task add`, naming the rule; nothing is added', async () => {
		const issueId = await manualIssue(host, 'Bad ids', true);
		for (const bad of ['has space', 'sub/dir', '-rf', 'a..b', 'x.lock']) {
			const refused = expectError(await host.cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', bad, '--title', 'T', '--agent-target-id', 'ok', '--json'], { asUser: true }),
				'invalid_input', 2);
			assert.match(refused.message, /cannot name a git branch and worktree folder: use letters, digits, '\.', '_' and '-'/, bad);
			assert.match(refused.hint, /--help/);
		}
		assert.deepEqual((await issueGet(host, issueId)).tasks, []);
		await addManualTask(host, issueId, 'fix-login.2', ['--agent-target-id', 'ok']);
		assert.deepEqual((await issueGet(host, issueId)).tasks.map((t) => t.taskId), ['fix-login.2']);
	});

	it('a task id git cannot use is refused at `plan issue mutate`, all or nothing', async () => {
		const managed = await managedIssue(host, 'Managed bad ids');
		const refused = expectError(await managed.mutate([
			{ kind: 'add', task: taskSpec('fine', 'ok') },
			{ kind: 'add', task: taskSpec('no/slash', 'ok') },
		]), 'invalid_input', 2);
		assert.match(refused.message, /operation 2 \(add\): task id "no\/slash" cannot name a git branch and worktree folder/);
		assert.deepEqual((await managed.get()).tasks, [], 'all or nothing: not even the fine one');
	});
});
