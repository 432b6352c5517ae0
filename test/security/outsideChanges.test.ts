// Security: work that leaves its tree is never hidden. A worktree agent can still reach the developer's checkout
// (`cd ../../..`, `git -C`) or move another task's branch; Tutti records the checkout and the branches before each
// Run and lists what changed outside the Run's own tree and branch after it (`outsideChanges` in `tutti run get
// --json`, the outcome label, the attention label "changed files outside its worktree: …"). Such a Run is never
// accepted automatically and nothing is undone. Another live Run's own branch and the developer's own integration
// are not counted against a Run.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { expectOk, issueGet, manualIssue, runGet, waitFor } from '../integration/harness.js';
import { addManualTask, settledRunOf } from './securityKit.js';
import { git, type GitWorkspace, gitWorkspace, shTarget } from './gitWorkspaceKit.js';

/**
 * Leaves the developer's checkout, commits there, dirties a tracked file, moves the branch of task `first` and
 * plants an alias and a hook in the repository's .git.
 */
const evil = shTarget('evil', [
	'echo mine > own.txt',
	'cd ../../../..',
	'echo evil >> README.md',
	'git commit -qam evil',
	'echo dirty >> NOTES.md',
	'git update-ref "refs/heads/tutti/$TUTTI_ISSUE_ID/first" HEAD~1',
	// What would run code in the developer's next git command: an alias in .git/config, a hook.
	"git config alias.st '!true'",
	"printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/post-commit",
].join(' && '));
const good = shTarget('good', 'echo "$TUTTI_TASK_ID" > "$TUTTI_TASK_ID.txt"');
/** Dirties a tracked file of the checkout, then removes its own tree: no result commit can be made. */
const vanish = shTarget('vanish', 'echo mine > own.txt && cd ../../../.. && echo gone >> NOTES.md && rm -rf ".tutti/worktrees/$TUTTI_ISSUE_ID/$TUTTI_TASK_ID"');

/** Waits for `<gates>/<task>.go`, then runs `then` (the agent's side of the test is in its process). */
function gatedTarget(id: string, gates: string, then: string[]): Record<string, unknown> {
	return shTarget(id, [
		'touch "$GATES/$TUTTI_TASK_ID.started"',
		'while [ ! -e "$GATES/$TUTTI_TASK_ID.go" ]; do sleep 0.02; done',
		...then,
	].join(' && '), { GATES: gates });
}

/** Commits its own work in its own tree (its own branch moves while it runs). */
const ownCommit = ['echo "$TUTTI_TASK_ID" > "$TUTTI_TASK_ID.txt"', 'git add -A', 'git commit -qm "own work of $TUTTI_TASK_ID"'];

describe('security: work that leaves its tree', function () {
	this.timeout(120_000);
	let ws: GitWorkspace | undefined;
	afterEach(async () => { await ws?.dispose(); ws = undefined; });

	function gatesOf(): string {
		return join(ws!.root, 'gates');
	}

	async function open(): Promise<string> {
		ws = await gitWorkspace('tutti-sec-outside-', { 'README.md': 'hello\n', 'NOTES.md': 'notes\n' },
			(root) => ({ agentTargets: [evil, good, vanish, gatedTarget('gated', join(root, 'gates'), ownCommit),
				gatedTarget('gated-evil', join(root, 'gates'), ['echo later >> ../../../../NOTES.md'])] }));
		mkdirSync(gatesOf(), { recursive: true });
		return manualIssue(ws.host, 'Outside', true);
	}

	it('a Run that commits in the developer\'s checkout, dirties a tracked file there and moves another task\'s branch: listed, not auto-accepted, needs the developer, left as it is', async () => {
		const issueId = await open();
		const host = ws!.host;
		await addManualTask(host, issueId, 'first', ['--agent-target-id', 'good']);
		const first = await settledRunOf(host, issueId, 'first');
		assert.deepEqual(first.outsideChanges, [], 'a well-behaved Run changed nothing outside');
		assert.equal((await issueGet(host, issueId)).tasks.find((t) => t.taskId === 'first')!.status, 'completed', 'and is accepted automatically');
		const initial = git(ws!.workspace, 'rev-parse', 'HEAD');

		await addManualTask(host, issueId, 'bad', ['--agent-target-id', 'evil']);
		const bad = await settledRunOf(host, issueId, 'bad');
		assert.equal(bad.status, 'completed', bad.errorMessage);
		const expected = ['HEAD', '.git/config', '.git/hooks/post-commit', 'NOTES.md', 'refs/heads/main', `refs/heads/tutti/${issueId}/first`];
		assert.deepEqual(bad.outsideChanges, expected);
		const raw = expectOk<{ outsideChanges: string[]; outcomeLabel: string }>(await host.cli(['run', 'get', '--run-id', bad.runId, '--json'], { asUser: true }));
		assert.deepEqual(raw.outsideChanges, expected, 'tutti run get --json shows them');
		const listed = 'HEAD, .git/config, .git/hooks/post-commit, NOTES.md, refs/heads/main and 1 more';
		assert.ok(raw.outcomeLabel.endsWith(` — changed files outside its worktree: ${listed}`), raw.outcomeLabel);

		const issue = await issueGet(host, issueId);
		const task = issue.tasks.find((t) => t.taskId === 'bad')!;
		assert.equal(task.status, 'pending_acceptance', 'never accepted automatically, although the issue auto-accepts');
		assert.equal(task.acceptanceState, 'agent_claimed');
		assert.equal(issue.attention.state, 'needs_you');
		assert.ok(issue.attention.label.includes(`task bad changed files outside its worktree: ${listed}`), issue.attention.label);
		assert.equal(task.attention?.state, 'needs_you');
		assert.equal(task.attention?.label, `Changed files outside its worktree: ${listed}`);
		assert.equal(issue.attention.runs.find((r) => r.runId === bad.runId)?.label, task.attention?.label);

		// Nothing was undone: the commit, the dirty file and the moved branch are as the agent left them.
		assert.equal(git(ws!.workspace, 'log', '-1', '--format=%s'), 'evil');
		assert.equal(git(ws!.workspace, 'rev-parse', 'HEAD~1'), initial);
		assert.equal(readFileSync(join(ws!.workspace, 'README.md'), 'utf8'), 'hello\nevil\n');
		assert.equal(readFileSync(join(ws!.workspace, 'NOTES.md'), 'utf8'), 'notes\ndirty\n');
		assert.equal(git(ws!.workspace, 'rev-parse', `refs/heads/tutti/${issueId}/first`), initial, 'the moved branch stays where the agent put it');
		assert.equal(git(ws!.workspace, 'config', '--get', 'alias.st'), '!true');
		assert.ok(existsSync(join(ws!.workspace, '.git', 'hooks', 'post-commit')));

		// The developer accepts after looking: the task is done, the attention goes.
		expectOk(await host.cli(['review', 'accept', '--issue-id', issueId, '--task-id', 'bad', '--json'], { asUser: true }));
		const after = await issueGet(host, issueId);
		assert.ok(!after.attention.label.includes('outside its worktree'), after.attention.label);
	});

	it('parallel Runs: another live Run\'s own commits and the developer\'s integration moving main are not this Run\'s outside changes', async () => {
		const issueId = await open();
		const host = ws!.host;
		const gates = gatesOf();
		await addManualTask(host, issueId, 'done1', ['--agent-target-id', 'good']);
		assert.equal((await settledRunOf(host, issueId, 'done1')).status, 'completed');
		await addManualTask(host, issueId, 'long', ['--agent-target-id', 'gated']);
		await addManualTask(host, issueId, 'short', ['--agent-target-id', 'gated']);
		await waitFor(() => existsSync(join(gates, 'long.started')) && existsSync(join(gates, 'short.started')), { what: 'both gated Runs started', timeoutMs: 20_000 });
		// `short` commits in its own tree and ends (its branch moves twice) while `long` runs.
		writeFileSync(join(gates, 'short.go'), '');
		const short = await settledRunOf(host, issueId, 'short');
		assert.deepEqual(short.outsideChanges, [], 'long\'s branch did not move while short ran');
		// The developer integrates (main and the checkout move) while `long` runs.
		const integrated = expectOk<{ workspaceMoved: boolean; integratedCommit: string }>(
			await host.cli(['issue', 'integrate', '--issue-id', issueId, '--accepted-only', '--json'], { asUser: true }));
		assert.equal(integrated.workspaceMoved, true);
		writeFileSync(join(gates, 'long.go'), '');
		const long = await settledRunOf(host, issueId, 'long');
		assert.equal(long.status, 'completed', long.errorMessage);
		assert.deepEqual(long.outsideChanges, [], 'short\'s own branch and the developer\'s integration are not long\'s changes');
		assert.equal((await issueGet(host, issueId)).tasks.find((t) => t.taskId === 'long')!.status, 'completed', 'accepted automatically');
		assert.equal((await runGet(host, long.runId)).outsideChanges.length, 0);
	});

	it('a Run live across a Host kill -9 keeps what it was compared with: its outside change after the restart is listed', async () => {
		const issueId = await open();
		const host = ws!.host;
		await addManualTask(host, issueId, 'across', ['--agent-target-id', 'gated-evil']);
		await waitFor(() => existsSync(join(gatesOf(), 'across.started')), { what: 'the gated Run started', timeoutMs: 20_000 });
		await host.kill9();
		await host.start();
		writeFileSync(join(gatesOf(), 'across.go'), '');
		const run = await settledRunOf(host, issueId, 'across');
		assert.deepEqual(run.outsideChanges, ['NOTES.md']);
		assert.equal((await issueGet(host, issueId)).tasks.find((t) => t.taskId === 'across')!.status, 'pending_acceptance');
		assert.equal(readFileSync(join(ws!.workspace, 'NOTES.md'), 'utf8'), 'notes\nlater\n');
	});

	it('a Run whose result cannot be committed (it removed its own tree) still shows what it changed outside, and needs the developer', async () => {
		const issueId = await open();
		const host = ws!.host;
		await addManualTask(host, issueId, 'gone', ['--agent-target-id', 'vanish']);
		const run = await settledRunOf(host, issueId, 'gone');
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage, /its result could not be committed/);
		assert.deepEqual(run.outsideChanges, ['NOTES.md']);
		const issue = await issueGet(host, issueId);
		assert.equal(issue.tasks.find((t) => t.taskId === 'gone')!.attention?.label, 'Changed files outside its worktree: NOTES.md');
		assert.ok(issue.attention.label.includes('task gone changed files outside its worktree: NOTES.md'), issue.attention.label);
	});
});
