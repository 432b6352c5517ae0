// Conformance: pause/resume (both resume forms), plan issue stop, the tutti_issue_managed guard, and caller
// authority (source session, worker tokens, developer actions), all through the real CLI.
import { strict as assert } from 'node:assert';
import {
	expectError, expectOk, fenceOf, issueGet, managedIssue, methods, openSession, requestId, shareHost, taskIn, taskSpec, waitFor,
	runGet, type HostHandle,
} from '../harness.js';

const agentRejections = ['forbidden', 'unauthenticated'] as const;

describe('conformance: pause, stop and authority', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('pause keeps the checkpoint; only the source session resumes its own pause, through either CLI form', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'));
		const before = await issue.get();
		// The source's own pause (a developer's pause is the developer's to lift: test/security/pauseAuthority.test.ts).
		const pause = (): Promise<unknown> => issue.cli(['plan', 'issue', 'pause', '--issue-id', issue.issueId, '--json']).then(expectOk);

		await pause();
		const paused = await issue.get();
		assert.equal(paused.dispatchPaused, true);
		assert.ok(!paused.allowedActions.includes('schedule'), `paused: no schedule (${paused.allowedActions})`);
		assert.ok(paused.allowedActions.includes('resume'), `paused: resume is advertised (${paused.allowedActions})`);
		assert.equal(paused.activeCheckpoint?.checkpointId, before.activeCheckpoint?.checkpointId, 'pause mints no checkpoint');
		assert.equal(paused.execution.graphRevision, before.execution.graphRevision, 'pause mints no revision');
		const blocked = expectError(await issue.schedule(['a'], fenceOf(paused)), 'dispatch_paused', 1);
		assert.match(blocked.hint, /plan issue resume/);

		const other = await openSession(host, 'source');
		expectError(await issue.resume(other.token), 'wrong_source_session', 1);
		const worker = await openSession(host, 'worker');
		expectError(await issue.resume(worker.token));
		assert.equal((await issue.get()).dispatchPaused, true, 'a rejected resume leaves the issue paused');

		const resumed = methods['plan/resume'].result.parse(expectOk(await issue.resume()));
		assert.equal(resumed.dispatchPaused, false);
		assert.equal(resumed.activeCheckpoint?.checkpointId, before.activeCheckpoint?.checkpointId, 'resume continues from the same checkpoint');
		assert.equal(resumed.execution.graphRevision, before.execution.graphRevision);
		assert.ok(resumed.allowedActions.includes('schedule') && !resumed.allowedActions.includes('resume'));
		assert.equal(methods['plan/resume'].result.parse(expectOk(await issue.resume())).dispatchPaused, false, 'resume is idempotent');

		// The compat form routes to the same source-scoped resume; mixed updates stay rejected.
		await pause();
		expectError(await issue.cli(['issue', 'update', '--issue-id', issue.issueId, '--dispatch-paused=false', '--title', 'New', '--json']), 'tutti_issue_managed', 1);
		expectError(await host.cli(['issue', 'update', '--issue-id', issue.issueId, '--dispatch-paused=false', '--json'], { token: other.token }));
		assert.equal((await issue.get()).dispatchPaused, true);
		expectOk(await issue.cli(['issue', 'update', '--issue-id', issue.issueId, '--dispatch-paused=false', '--json']));
		assert.equal((await issue.get()).dispatchPaused, false);

		// The developer's own resume.
		await pause();
		expectOk(await host.cli(['issue', 'resume', '--issue-id', issue.issueId, '--as-user', '--json']));
		const again = await issue.get();
		assert.equal(again.dispatchPaused, false);
		await issue.scheduleOk(['a'], fenceOf(again));
	});

	it('plan issue stop fences, archives, cancels Runs and replays after the first stop', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('x'));
		await issue.scheduleOk(['a', 'x']);
		await issue.waitGateStarted('a');
		const s = await issue.waitActive('task_settled', 'x');
		const runA = taskIn(s, 'a').latestRunId;
		const fence = fenceOf(s);

		expectError(await issue.stop('wrong revision', { ...fence, revision: fence.revision! + 1 }), 'inactive_checkpoint', 1);
		expectError(await issue.stop('wrong checkpoint', { ...fence, checkpointId: `${fence.checkpointId}:nope` }), 'inactive_checkpoint', 1);
		const other = await openSession(host, 'source');
		expectError(await issue.stop('wrong source', { ...fence, token: other.token }), ['inactive_checkpoint', 'wrong_source_session'], 1);

		const rid = requestId('stop');
		const first = methods['plan/stop'].result.parse(expectOk(await issue.stop('goal abandoned', { ...fence, requestId: rid })));
		assert.equal(first.issueId, issue.issueId);
		assert.equal(first.reason, 'goal abandoned');
		assert.equal(first.replayed, false);
		const replay = methods['plan/stop'].result.parse(expectOk(await issue.stop('goal abandoned', { ...fence, requestId: rid })));
		assert.equal(replay.replayed, true, 'stop replays after the first stop canceled the checkpoint');
		assert.equal(replay.operationId, first.operationId);
		expectError(await issue.stop('another reason', { ...fence, requestId: rid }), 'request_id_conflict', 1);

		const archived = await issue.waitSnapshot((x) => x.execution.status === 'archived', 'the archive to finish');
		assert.equal(archived.activeCheckpoint, null);
		assert.deepEqual(archived.allowedActions, []);
		const run = await waitFor(async () => {
			const r = await runGet(host, runA);
			return r.status !== 'running' ? r : undefined;
		}, { what: 'the running Run to be stopped by the archive' });
		assert.notEqual(run.outcome, 'success');
		expectError(await issue.mutate([{ kind: 'add', task: taskSpec('late') }], fence));
		expectError(await issue.stop('again', fence));
	});

	it("the developer's session stop ends the worker Runs as their cancellation: \"Interrupted after … — you stopped this\"", async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'));
		const { runIds: [runId] } = await issue.scheduleOk(['a']);
		await issue.waitGateStarted('a');

		const stopped = methods['session/stop'].result.parse(expectOk(await host.cli(
			['session', 'stop', '--session-id', issue.source.sessionId, '--as-user', '--json'])));
		assert.deepEqual(stopped.archivedExecutionIds, [issue.created.executionId]);
		const run = await waitFor(async () => {
			const r = await runGet(host, runId!);
			return r.outcome !== null ? r : undefined;
		}, { what: 'the worker Run to settle after the session stop' });
		assert.equal(run.outcome, 'cancellation', `settled as ${run.status}: ${run.outcomeLabel}`);
		assert.equal(run.status, 'canceled');
		assert.match(run.outcomeLabel ?? '', /^Interrupted after .+ — you stopped this$/);
		assert.deepEqual(run.stopNotes.map((n) => [n.reason, n.answer]), [['person', 'took']]);
		const board = await issueGet(host, issue.issueId);
		assert.equal(board.tasks.find((t) => t.taskId === 'a')?.status, 'canceled');
	});

	it('every generic writer on a managed issue returns tutti_issue_managed (incl. issue task delete)', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'));
		const before = await issue.get();
		const id = issue.issueId;
		const writers = [
			['issue', 'update', '--issue-id', id, '--title', 'Renamed'],
			['issue', 'update', '--issue-id', id, '--dispatch-paused=true'],
			['issue', 'task', 'add', '--issue-id', id, '--title', 'Extra', '--agent-target-id', 'ok'],
			['issue', 'task', 'update', '--issue-id', id, '--task-id', 'a', '--title', 'Renamed'],
			['issue', 'task', 'delete', '--issue-id', id, '--task-id', 'a'],
		];
		const results = await Promise.all(writers.flatMap((args) => [
			issue.cli([...args, '--json']),
			host.cli([...args, '--json'], { asUser: true }),
		]));
		for (const result of results) {
			const error = expectError(result, 'tutti_issue_managed', 1);
			assert.match(error.hint, /plan issue/, `the hint names the managed path: ${error.hint}`);
		}
		const after = await issue.get();
		assert.equal(after.execution.graphRevision, before.execution.graphRevision);
		assert.deepEqual(after.tasks.map((t) => [t.taskId, t.title]), [['a', 'Task a']]);
		assert.equal(after.dispatchPaused, false);
	});

	it('another source session gets wrong_source_session; a worker token cannot act as the source', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'));
		const s = await issue.get();
		const other = await openSession(host, 'source');
		expectError(await issue.getRaw(other.token), 'wrong_source_session', 1);
		expectError(await issue.mutate([{ kind: 'add', task: taskSpec('b') }], fenceOf(s, { token: other.token })), 'wrong_source_session', 1);
		expectError(await issue.schedule(['a'], fenceOf(s, { token: other.token })), 'wrong_source_session', 1);

		const worker = await openSession(host, 'worker');
		const asSource = ['wrong_source_session', 'forbidden'] as const;
		expectError(await issue.getRaw(worker.token), asSource, 1);
		expectError(await issue.schedule(['a'], fenceOf(s, { token: worker.token })), asSource, 1);
		expectError(await issue.mutate([{ kind: 'add', task: taskSpec('b') }], fenceOf(s, { token: worker.token })), asSource, 1);
		const after = await issue.get();
		assert.equal(after.execution.graphRevision, s.execution.graphRevision);
		assert.equal(taskIn(after, 'a').status, 'not_started');
	});

	it('agent tokens cannot perform developer actions', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'));
		const worker = await openSession(host, 'worker');
		for (const token of [issue.source.token, worker.token]) {
			expectError(await host.cli(['issue', 'pause', '--issue-id', issue.issueId, '--json'], { token }), agentRejections, 1);
			expectError(await host.cli(['issue', 'resume', '--issue-id', issue.issueId, '--json'], { token }), agentRejections, 1);
			expectError(await host.cli(['session', 'open', '--role', 'source', '--json'], { token }), agentRejections, 1);
		}
		assert.equal((await issue.get()).dispatchPaused, false);
		const { runIds: [runId] } = await issue.scheduleOk(['a']);
		expectError(await host.cli(['run', 'stop', '--run-id', runId!, '--json'], { token: issue.source.token }), agentRejections, 1);
		assert.equal((await runGet(host, runId!)).status, 'running', "an agent's stop attempt does nothing");
		// No token at all: nothing but a structured error.
		expectError(await host.cli(['plan', 'issue', 'get', '--issue-id', issue.issueId, '--json']), agentRejections, 1);
	});

	it('agent list shows the configured command targets; issue get reads a managed issue', async function () {
		const list = methods['agent/list'].result.parse(expectOk(await host.cli(['agent', 'list', '--json'], { asUser: true })));
		assert.deepEqual(list.agentTargets.map((t) => t.id).sort(), ['fail', 'gate', 'gate2', 'ok']);
		assert.ok(list.agentTargets.every((t) => t.adapter === 'command'));
		const issue = await managedIssue(host);
		const board = await issueGet(host, issue.issueId);
		assert.equal(board.planningSource, 'tutti');
		assert.equal(board.sourceSessionId, issue.source.sessionId);
	});
});
