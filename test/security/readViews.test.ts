// Security: the two views the Agents view and Open Combined Diff read (`turn/list`, `issue/changes`) are reads open
// to every agent token, and they grant nothing. A live worker of one issue reads the whole list of agents (with the
// Stop the developer may press on its own Run) and the combined diff of another issue's accepted work; its Stop is
// still refused `forbidden`, and reading the combined diff moves no ref, no working tree, no task and no acceptance.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import { expectError, expectOk, issueGet, manualIssue, methods, waitFor } from '../integration/harness.js';
import { snapshotTree } from '../integration/delivery/gitRepoKit.js';
import { git, type GitWorkspace, gitWorkspace, shTarget } from './gitWorkspaceKit.js';
import { addManualTask, envOf, holderTarget, recordOf, releaseHolder } from './securityKit.js';

describe('security: the agents list and the combined diff are reads that grant nothing', function () {
	this.timeout(120_000);
	let ws: GitWorkspace;
	let holders: string;
	let reviewed: string;
	let workerToken: string;
	let workerIssue: string;

	before(async () => {
		ws = await gitWorkspace('tutti-sec-views-', { 'README.md': 'hello\n' }, (root) => ({
			agentTargets: [shTarget('good', 'echo "$TUTTI_TASK_ID" > "$TUTTI_TASK_ID.txt"'), holderTarget('held', join(root, 'holders'))],
		}));
		holders = join(ws.root, 'holders');
		mkdirSync(holders, { recursive: true });
		reviewed = await manualIssue(ws.host, 'Reviewed by the developer', false);
		for (const taskId of ['a', 'b']) { await addManualTask(ws.host, reviewed, taskId, ['--agent-target-id', 'good']); }
		await waitFor(async () => (await issueGet(ws.host, reviewed)).tasks.every((t) => t.status === 'pending_acceptance'), { what: 'both tasks to await acceptance' });
		for (const taskId of ['a', 'b']) { expectOk(await ws.host.cli(['review', 'accept', '--issue-id', reviewed, '--task-id', taskId, '--as-user', '--json'])); }
		workerIssue = await manualIssue(ws.host, 'A live worker', false);
		await addManualTask(ws.host, workerIssue, 'w', ['--agent-target-id', 'held']);
		const record = await waitFor(() => recordOf(holders, 'w'), { what: 'the held worker to start' });
		workerToken = envOf(record).get('TUTTI_SESSION_TOKEN') ?? '';
		assert.match(workerToken, /\S/);
	});

	after(async () => {
		releaseHolder(holders, 'w');
		await ws.dispose();
	});

	it("a worker reads every agent at work, its own Run's Stop included, and is still refused that Stop", async () => {
		const listed = methods['turn/list'].result.parse(expectOk(await ws.host.cli(['turn', 'list', '--json'], { token: workerToken }))).turns;
		const own = listed.find((t) => t.issueId === workerIssue);
		assert.ok(own, JSON.stringify(listed));
		assert.deepEqual([own.role, own.state, own.controls.stopRun], ['worker', 'working', true], 'it reads what the developer may press');
		expectError(await ws.host.cli(['run', 'stop', '--run-id', own.runId, '--json'], { token: workerToken }), 'forbidden');
		const after = methods['turn/list'].result.parse(expectOk(await ws.host.cli(['turn', 'list', '--json'], { asUser: true }))).turns;
		assert.equal(after.find((t) => t.key === own.key)?.state, 'working', 'the Run goes on');
	});

	it("a worker of one issue reads another issue's combined diff, and nothing moves: refs, trees, tasks, acceptances", async () => {
		const refs = git(ws.workspace, 'for-each-ref', '--format=%(refname) %(objectname)');
		const tree = snapshotTree(ws.workspace, ['.tutti']);
		const before = await issueGet(ws.host, reviewed);
		const changes = methods['issue/changes'].result.parse(expectOk(await ws.host.cli(['issue', 'changes', '--issue-id', reviewed, '--json'], { token: workerToken })));
		assert.deepEqual(changes.files.map((f) => f.path), ['a.txt', 'b.txt']);
		assert.equal(git(ws.workspace, 'for-each-ref', '--format=%(refname) %(objectname)'), refs, 'no ref moved (the developer\'s branch included)');
		assert.equal(snapshotTree(ws.workspace, ['.tutti']), tree, 'the checkout is untouched');
		const after = await issueGet(ws.host, reviewed);
		assert.deepEqual(after.tasks.map((t) => [t.taskId, t.status, t.acceptanceState, t.acceptedCommit]), before.tasks.map((t) => [t.taskId, t.status, t.acceptanceState, t.acceptedCommit]));
		assert.deepEqual([after.controls.integrate, after.integratedCommit], [true, ''], 'still the developer\'s to integrate');
		expectError(await ws.host.cli(['issue', 'integrate', '--issue-id', reviewed, '--json'], { token: workerToken }), 'forbidden');
	});
});
