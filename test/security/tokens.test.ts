// Security: who may call the Host. Every agent session has its own token; a worker's token never acts as the source
// session of a managed issue; developer actions need the user credential; a token of another workspace's Host is
// refused; and the user credential never reaches an agent process's environment.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	type HostHandle, type ManagedIssue, expectError, managedIssue, manualIssue, openSession, requestId, startHost, standardTargets, taskSpec,
} from '../integration/harness.js';
import { addManualTask, envOf, rawPost, recordOf, recorderTarget, settledRunOf, userCredentialOf } from './securityKit.js';

describe('security: tokens and developer actions', function () {
	let host: HostHandle;
	let other: HostHandle;
	let records: string;
	let issue: ManagedIssue;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-tok-'));
		const config = (gates: string): { agentTargets: ReturnType<typeof standardTargets>; maxParallelRuns: number } =>
			({ agentTargets: [...standardTargets(gates), recorderTarget('rec', records)], maxParallelRuns: 4 });
		[host, other] = await Promise.all([startHost({ config }), startHost({ config })]);
		issue = await managedIssue(host, 'Token checks');
	});

	after(async function () {
		await Promise.all([host?.dispose(), other?.dispose()]);
		rmSync(records, { recursive: true, force: true });
	});

	it('every agent session gets its own token, distinct from the user credential', async function () {
		const sessions = await Promise.all([openSession(host, 'worker'), openSession(host, 'worker'), openSession(host, 'source')]);
		const tokens = [...sessions.map((s) => s.token), issue.source.token, userCredentialOf(host)];
		assert.equal(new Set(tokens).size, tokens.length, 'no two sessions (nor the developer) share a token');
		for (const token of tokens) { assert.ok(token.length >= 32, 'tokens are long random strings'); }
	});

	it("a worker's token cannot act as the source session (wrong_source_session)", async function () {
		const worker = await openSession(host, 'worker');
		expectError(await issue.getRaw(worker.token), 'wrong_source_session');
		const snapshot = await issue.get();
		const fence = { checkpointId: snapshot.activeCheckpoint?.checkpointId ?? 'none', revision: snapshot.execution.graphRevision, token: worker.token };
		const attempts = await Promise.all([
			issue.mutate([{ kind: 'add', task: taskSpec('w1') }], fence), issue.schedule(['w1'], fence), issue.acknowledge(fence),
			issue.complete(fence), issue.stop('hijack', fence), issue.resume(worker.token),
		]);
		for (const attempt of attempts) { expectError(attempt, 'wrong_source_session'); }
		const after = await issue.get();
		assert.equal(after.execution.graphRevision, snapshot.execution.graphRevision, 'nothing changed');
		assert.equal(after.tasks.length, snapshot.tasks.length);
	});

	it("the token a Run's agent receives is a worker's: refused as the source, refused for developer actions", async function () {
		await issue.addTasks(taskSpec('r1', 'rec'));
		await issue.scheduleOk(['r1']);
		const run = await settledRunOf(host, issue.issueId, 'r1');
		assert.equal(run.status, 'completed', run.errorMessage);
		const env = envOf(recordOf(records, 'r1')!);
		const runToken = env.get('TUTTI_SESSION_TOKEN');
		assert.ok(runToken, 'the agent got a session token');
		assert.notEqual(runToken, issue.source.token, 'the worker does not get the source session token');
		assert.notEqual(env.get('TUTTI_SESSION_ID'), issue.source.sessionId);
		// Once the Run is over its token may be revoked (unauthenticated); while it is live it is a worker's.
		expectError(await issue.getRaw(runToken), ['wrong_source_session', 'unauthenticated']);
		expectError(await host.cli(['session', 'open', '--role', 'worker', '--json'], { token: runToken }), ['forbidden', 'unauthenticated']);
	});

	it('developer actions are refused to agent tokens (worker and source) with forbidden', async function () {
		const worker = await openSession(host, 'worker');
		const manual = await manualIssue(host, 'Developer actions');
		// [CLI words, method, params]: the CLI path for the worker's token, the raw socket for the source's.
		const actions: [string[], string, Record<string, unknown>][] = [
			[['issue', 'pause', '--issue-id', manual], 'issue/pause', { issueId: manual }],
			[['issue', 'resume', '--issue-id', manual], 'issue/resume', { issueId: manual }],
			[['issue', 'stop', '--issue-id', manual], 'issue/stop', { issueId: manual }],
			[['run', 'stop', '--run-id', 'run-any'], 'run/stop', { runId: 'run-any' }],
			[['run', 'send', '--run-id', 'run-any', '--text', 'hello'], 'run/send', { runId: 'run-any', text: 'hello' }],
			[['run', 'resume-queue', '--run-id', 'run-any'], 'run/resume-queue', { runId: 'run-any' }],
			[['session', 'open', '--role', 'worker'], 'session/open', { role: 'worker' }],
			[['session', 'stop', '--session-id', issue.source.sessionId], 'session/stop', { sessionId: issue.source.sessionId }],
			[['review', 'accept', '--issue-id', manual, '--task-id', 't'], 'review/accept', { issueId: manual, taskId: 't' }],
			[['review', 'request-changes', '--issue-id', manual, '--task-id', 't', '--note', 'redo'], 'review/requestChanges', { issueId: manual, taskId: 't', note: 'redo' }],
			[['goal', 'confirm', '--issue-id', issue.issueId], 'goal/confirm', { issueId: issue.issueId }],
			[['goal', 'request-changes', '--issue-id', issue.issueId, '--note', 'redo'], 'goal/requestChanges', { issueId: issue.issueId, note: 'redo' }],
			[['worktree', 'remove', '--issue-id', manual, '--task-id', 't'], 'worktree/remove', { issueId: manual, taskId: 't' }],
			[['finish', '--issue-id', issue.issueId], 'issue/finish', { issueId: issue.issueId }],
			[['finish', '--issue-id', issue.issueId, '--remove-worktrees'], 'issue/finish', { issueId: issue.issueId, removeWorktrees: true }],
			[['issue', 'integrate', '--issue-id', manual], 'issue/integrate', { issueId: manual }],
			[['issue', 'integrate', '--issue-id', manual, '--into', 'main', '--accepted-only'], 'issue/integrate', { issueId: manual, into: 'main', acceptedOnly: true }],
			[['issue', 'integrate', '--issue-id', manual, '--push', '--squash'], 'issue/integrate', { issueId: manual, push: true, squash: 'task' }],
			[['issue', 'integrate', '--issue-id', manual, '--push', 'origin', '--squash', 'issue'], 'issue/integrate', { issueId: manual, push: 'origin', squash: 'issue' }],
			[['finish', '--issue-id', issue.issueId, '--without-integrating'], 'issue/finish', { issueId: issue.issueId, withoutIntegrating: true }],
			[['worktree', 'prune'], 'worktree/prune', {}],
			[['worktree', 'prune', '--issue-id', manual], 'worktree/prune', { issueId: manual }],
			[['approval', 'answer', '--approval-id', 'approval-any', '--allow'], 'approval/answer', { approvalId: 'approval-any', allow: true }],
			[['approval', 'answer', '--approval-id', 'approval-any', '--allow', '--for-task'], 'approval/answer', { approvalId: 'approval-any', allow: true, forTask: true }],
			[['approval', 'answer', '--approval-id', 'approval-any', '--deny', '--message', 'no'], 'approval/answer', { approvalId: 'approval-any', deny: true, message: 'no' }],
		];
		for (let i = 0; i < actions.length; i += 3) {
			const results = await Promise.all(actions.slice(i, i + 3).map(([words]) => host.cli([...words, '--json'], { token: worker.token })));
			for (const result of results) { expectError(result, 'forbidden'); }
		}
		for (const [, method, params] of actions) {
			const reply = await rawPost(host.socket, method, issue.source.token, params);
			assert.match(reply.body, /"reasonCode":"forbidden"/, `${method} with the source token: ${reply.body}`);
			assert.equal(reply.status, 403, `${method}: ${reply.body}`);
		}
		const plan = await issue.get();
		assert.equal(plan.execution.status === 'archived', false, 'the source session was not stopped');
	});

	it("a token of another workspace's Host is refused (tokens swapped both ways)", async function () {
		const mine = await openSession(host, 'source');
		const theirs = await openSession(other, 'source');
		for (const [target, token] of [[other, mine.token], [host, theirs.token], [other, userCredentialOf(host)], [host, userCredentialOf(other)]] as const) {
			const reply = await rawPost(target.socket, 'issue/list', token, {});
			assert.equal(reply.status, 401, `a foreign token is unauthenticated: ${reply.body}`);
			assert.match(reply.body, /"reasonCode":"unauthenticated"/);
		}
		expectError(await other.cli(['plan', 'issue', 'create', '--title', 'x', '--content', 'y', '--request-id', requestId(), '--json'], { token: mine.token }), 'unauthenticated');
		// The genuine credentials still work, so the refusals above are about the token, not the request.
		assert.equal((await rawPost(other.socket, 'issue/list', userCredentialOf(other), {})).status, 200);
		assert.equal((await rawPost(host.socket, 'issue/list', undefined, {})).status, 401, 'no token at all is unauthenticated');
		assert.equal((await rawPost(host.socket, 'issue/list', 'x'.repeat(64), {})).status, 401, 'a made-up token is unauthenticated');
	});

	it("the user credential never appears in an agent process's environment", async function () {
		const credential = userCredentialOf(host);
		const manual = await manualIssue(host, 'Agent environment');
		await addManualTask(host, manual, 'env1', ['--agent-target-id', 'rec', '--content', 'print your environment']);
		const run = await settledRunOf(host, manual, 'env1');
		assert.equal(run.status, 'completed', run.errorMessage);
		const record = recordOf(records, 'env1')!;
		assert.ok(record.environ.length > 3, 'the environment was recorded from /proc/self/environ');
		for (const entry of record.environ) {
			assert.ok(!entry.includes(credential), `the user credential leaked into ${entry.slice(0, entry.indexOf('='))}`);
		}
		const env = envOf(record);
		const tutti = [...env.keys()].filter((k) => k.startsWith('TUTTI_')).sort();
		assert.deepEqual(tutti, ['TUTTI_IPC_HOOK', 'TUTTI_ISSUE_ID', 'TUTTI_RUN_ID', 'TUTTI_SESSION_ID', 'TUTTI_SESSION_TOKEN', 'TUTTI_TASK_ID'],
			'an agent gets exactly its own TUTTI_* variables');
		assert.notEqual(env.get('TUTTI_SESSION_TOKEN'), credential);
		for (const arg of record.argv) { assert.ok(!arg.includes(credential), 'nor in its arguments'); }
	});
});
