// Security: the developer reads from their own terminal without `--as-user` (`issue list`, `issue get`, `run get`,
// `run log`), and nothing else opens. With no session token in the environment the CLI sends the user credential for
// those four reads only: every write without a principal is still `unauthenticated` and changes nothing; a session
// token, even a dead or made-up one, always speaks for itself (never a fallback to the credential); and the Host itself
// still answers a request without a token with 401.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'mocha';
import { developerReadMethods } from '../../src/cli/commandTable.js';
import { expectError, expectOk, issueGet, manualIssue, methods, waitFor } from '../integration/harness.js';
import { type GitWorkspace, gitWorkspace, shTarget } from './gitWorkspaceKit.js';
import { addManualTask, rawPost, settledRunOf } from './securityKit.js';

describe('security: reads without --as-user open no write', function () {
	this.timeout(120_000);
	let ws: GitWorkspace;
	let issueId: string;
	let runId: string;
	/** No session token and no --as-user: the developer's own terminal. */
	const bare = { env: { TUTTI_SESSION_TOKEN: undefined } };

	before(async () => {
		ws = await gitWorkspace('tutti-sec-reads-', { 'README.md': 'hello\n' }, () => ({ agentTargets: [shTarget('good', 'echo "written by $TUTTI_TASK_ID"; echo done > "$TUTTI_TASK_ID.txt"')] }));
		issueId = await manualIssue(ws.host, 'Read from the terminal', false);
		await addManualTask(ws.host, issueId, 'a', ['--agent-target-id', 'good']);
		runId = (await settledRunOf(ws.host, issueId, 'a')).runId;
		await waitFor(async () => (await issueGet(ws.host, issueId)).tasks[0]?.status === 'pending_acceptance', { what: 'task a to await acceptance' });
	});

	after(async () => { await ws.dispose(); });

	it('issue list, issue get, run get and run log answer without --as-user and without a session token', async () => {
		const listed = methods['issue/list'].result.parse(expectOk(await ws.host.cli(['issue', 'list', '--json'], bare)));
		assert.deepEqual(listed.issues.map((i) => i.issueId), [issueId]);
		const got = methods['issue/get'].result.parse(expectOk(await ws.host.cli(['issue', 'get', '--issue-id', issueId, '--task-id', 'a', '--json'], bare)));
		assert.deepEqual(got.tasks.map((t) => [t.taskId, t.status]), [['a', 'pending_acceptance']]);
		const run = methods['run/get'].result.parse(expectOk(await ws.host.cli(['run', 'get', '--run-id', runId, '--json'], bare)));
		assert.equal(run.taskId, 'a');
		const log = await ws.host.cli(['run', 'log', '--run-id', runId], bare);
		assert.equal(log.code, 0, log.stderr);
		assert.match(log.stdout, /written by a/);
	});

	it('a write without a principal is unauthenticated and changes nothing (accept, request changes, pause, add, create, stop)', async () => {
		const writes: string[][] = [
			['review', 'accept', '--issue-id', issueId, '--task-id', 'a', '--json'],
			['review', 'request-changes', '--issue-id', issueId, '--task-id', 'a', '--note', 'again', '--json'],
			['issue', 'pause', '--issue-id', issueId, '--json'],
			['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'b', '--title', 'Task b', '--json'],
			['issue', 'create', '--title', 'Not mine to create', '--json'],
			['run', 'stop', '--run-id', runId, '--json'],
			['issue', 'integrate', '--issue-id', issueId, '--json'],
		];
		for (const args of writes) {
			expectError(await ws.host.cli(args, bare), 'unauthenticated', 1);
		}
		const listed = methods['issue/list'].result.parse(expectOk(await ws.host.cli(['issue', 'list', '--json'], { asUser: true })));
		assert.deepEqual(listed.issues.map((i) => [i.issueId, i.dispatchPaused]), [[issueId, false]], 'no issue created, none paused');
		const after = await issueGet(ws.host, issueId);
		assert.deepEqual(after.tasks.map((t) => [t.taskId, t.status, t.acceptedCommit]), [['a', 'pending_acceptance', '']], 'no task added, none accepted or reworked');
	});

	it('a session token speaks for itself: a made-up one reads nothing (no fallback to the user credential)', async () => {
		expectError(await ws.host.cli(['issue', 'list', '--json'], { token: 'made-up-token' }), 'unauthenticated', 1);
		expectError(await ws.host.cli(['run', 'log', '--run-id', runId, '--json'], { token: 'made-up-token' }), 'unauthenticated', 1);
	});

	it('the Host still refuses a request without a token (the CLI sends the credential; the socket opens nothing new)', async () => {
		const reply = await rawPost(ws.host.socket, 'issue/list', undefined, {});
		assert.equal(reply.status, 401);
	});

	it('the CLI reads as the developer for exactly these four reads (a write added here turns this red)', () => {
		assert.deepEqual([...developerReadMethods].sort(), ['issue/get', 'issue/list', 'run/get', 'run/log']);
	});
});
