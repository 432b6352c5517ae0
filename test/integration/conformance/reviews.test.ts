// Conformance: developer confirmation through the CLI against a real Host — only the developer accepts or
// requests changes, agents' commands never accept, a request for changes reaches the source agent as a checkpoint
// carrying the note and the rework path applies, and Goal Review waits for the developer unless turned off.
import { strict as assert } from 'node:assert';
import {
	expectError, expectOk, fenceOf, type HostConfig, type HostHandle, ManagedIssue, managedIssue, methods, openSession, requestId, shareHost, standardTargets, taskIn,
	taskSpec,
} from '../harness.js';
import { shellWords } from '../../unit/cli/shellWords.js';

describe('conformance: developer confirmation (reviews and Goal Review)', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	function review(issue: ManagedIssue, verb: 'accept' | 'request-changes', taskId: string, extra: string[] = [], token?: string): ReturnType<HostHandle['cli']> {
		return host.cli(['review', verb, '--issue-id', issue.issueId, '--task-id', taskId, ...extra, '--json'], token ? { token } : { asUser: true });
	}

	it('an agent token cannot accept or request changes (forbidden); acknowledge no longer accepts; the developer\'s accept unblocks the dependent', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'), taskSpec('c', 'gate'), taskSpec('b', 'ok', ['a']));
		await issue.scheduleOk(['a', 'c']);
		issue.openGate('a', 0);
		const settled = await issue.waitActive('task_settled', 'a');
		assert.equal(taskIn(settled, 'a').status, 'pending_acceptance');
		assert.equal(taskIn(settled, 'b').blockerReason, 'dependency_unsatisfied', 'no projection of the settled subject');

		const worker = await openSession(host, 'worker');
		for (const token of [issue.source.token, worker.token]) {
			expectError(await review(issue, 'accept', 'a', [], token), 'forbidden', 1);
			expectError(await review(issue, 'request-changes', 'a', ['--note', 'redo'], token), 'forbidden', 1);
		}
		await issue.acknowledgeOk(fenceOf(settled)); // c still runs
		const acked = await issue.get();
		assert.equal(taskIn(acked, 'a').status, 'pending_acceptance', 'acknowledge no longer accepts an autoAccept=false task');
		assert.equal(taskIn(acked, 'a').acceptanceState, 'agent_claimed');

		issue.openGate('c', 0);
		const atC = await issue.waitActive('task_settled', 'c');
		assert.deepEqual(atC.readyTaskIds, [], 'b waits for the developer');
		expectError(await issue.schedule(['b'], fenceOf(atC)), 'dependency_unsatisfied', 1);
		// Only the developer can move now (a and c are in review, b waits on a): resume, the Stop hook and the wait all
		// name the bounded wait for the review of the checkpoint's subject (never a snapshot read that moves nothing).
		const awaitC = `tutti await-review --issue-id ${issue.issueId} --task-id c`;
		const resumed = expectOk<{ next?: string; state?: string }>(await issue.cli(['agent', 'resume']));
		assert.deepEqual([resumed.state, resumed.next], ['awaiting_review', awaitC]);
		const hook = await issue.cli(['hook', 'stop'], { input: '{"hook_event_name":"Stop","stop_hook_active":false}' });
		assert.ok((JSON.parse(hook.stdout) as { reason: string }).reason.endsWith(`Run this now: ${awaitC}`), hook.stdout);
		const shortWait = { env: { TUTTI_AWAIT_TIMEOUT_MS: '300', TUTTI_KEEPALIVE_MS: '100' } };
		const waited = JSON.parse((await issue.cli(['await-review', '--issue-id', issue.issueId, '--task-id', 'c'], shortWait)).stdout) as { state: string; next: string };
		assert.deepEqual([waited.state, waited.next], ['waiting', awaitC]);

		const accepted = methods['review/accept'].result.parse(expectOk(await review(issue, 'accept', 'a', ['--note', 'Ship it.'])));
		assert.deepEqual([accepted.decision, accepted.taskStatus, accepted.acceptanceState, accepted.replayed], ['accepted', 'completed', 'user_accepted', false]);
		const handedOver = await issue.get();
		assert.deepEqual([handedOver.activeCheckpoint?.checkpointId, handedOver.activeCheckpoint?.kind, handedOver.activeCheckpoint?.note], [accepted.checkpointId, 'task_accepted', 'Ship it.'],
			'the acceptance is the source agent\'s checkpoint at once');
		assert.match(handedOver.activeWake?.prompt ?? '', /The developer accepted the result of task a/);
		const routed = JSON.parse((await issue.cli(['await-review', '--issue-id', issue.issueId, '--task-id', 'c'], shortWait)).stdout) as { state: string; next: string; advance_allowed: boolean };
		assert.deepEqual([routed.state, routed.advance_allowed, routed.next], ['checkpoint', true, `tutti plan issue get --issue-id ${issue.issueId} --json`],
			'a wait on the other review returns as soon as the agent has a step to take');
		assert.equal(accepted.handBackCommand, `tutti agent resume --session-id ${issue.source.sessionId}`,
			'no agent is waiting, so the decision names the exact command that hands the source session back');
		const replay = methods['review/accept'].result.parse(expectOk(await review(issue, 'accept', 'a')));
		assert.equal(replay.replayed, true);
		const unblocked = await issue.get();
		assert.deepEqual(unblocked.readyTaskIds, ['b']);
		const r = await issue.scheduleOk(['b'], fenceOf(unblocked));
		assert.equal(r.runIds.length, 1);
	});

	it('request changes needs a note, yields a changes_requested checkpoint carrying it, and the rework schedules a replacement', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'), taskSpec('b', 'ok', ['a']));
		await issue.scheduleOk(['a']);
		const settled = await issue.waitActive('task_settled', 'a');
		expectError(await review(issue, 'request-changes', 'a'), undefined, 2);
		expectError(await review(issue, 'request-changes', 'a', ['--note', '   ']), 'invalid_input', 2);
		assert.equal(taskIn(await issue.get(), 'a').status, 'pending_acceptance', 'a refused request changes nothing');

		const note = 'Also handle the empty input';
		const changed = methods['review/requestChanges'].result.parse(expectOk(await review(issue, 'request-changes', 'a', ['--note', note])));
		assert.equal(changed.taskStatus, 'failed');
		const active = await issue.get();
		assert.equal(taskIn(active, 'a').attempts?.stateLabel, 'Changes requested', 'drawn as the decision it is, not as a failure');
		const cp = active.checkpoints.find((c) => c.checkpointId === changed.checkpointId)!;
		assert.deepEqual([cp.kind, cp.status, cp.subjectTaskId, cp.note], ['changes_requested', 'active', 'a', note], 'b waited on a: active at once');
		assert.ok(!active.checkpoints.some((c) => c.checkpointId === settled.activeCheckpoint?.checkpointId), 'the settlement it answered is closed');
		assert.equal(active.activeCheckpoint?.note, note);
		assert.ok(active.activeWake?.prompt.includes(`> ${note}`), 'the wake prompt carries the note');
		assert.match(active.recoveryHint, /sent back by the developer/);

		const m = await issue.mutateOk([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', content: `Do a. ${note}.` } }], fenceOf(active));
		// The rework is done: what is owed now is the replacement's schedule at that checkpoint, not the old rejection —
		// from resume, from the Stop hook and from a wait on the old task's review alike.
		const owedSchedule = `tutti plan issue schedule --issue-id ${issue.issueId} --checkpoint-id ${m.checkpointId} --expected-graph-revision ${m.graphRevision} `
			+ `--task-ids-json '["a2"]' --request-id cp${cp.sequence}-r${m.graphRevision}-schedule --json`;
		const resumed = expectOk<{ next?: string; state?: string; note?: string }>(await issue.cli(['agent', 'resume']));
		assert.deepEqual([resumed.state, resumed.next, resumed.note], ['checkpoint', owedSchedule, undefined], 'resume owes the replacement\'s schedule');
		const hook = JSON.parse((await issue.cli(['hook', 'stop'], { input: '{"hook_event_name":"Stop","stop_hook_active":false}' })).stdout) as { decision: string; reason: string };
		assert.equal(hook.decision, 'block');
		assert.ok(hook.reason.endsWith(`Run this now: ${owedSchedule}`), hook.reason);
		assert.doesNotMatch(hook.reason, /requested changes on task a/, 'not the old rejection');
		const waited = JSON.parse((await issue.cli(['await-review', '--issue-id', issue.issueId, '--task-id', 'a'], { env: { TUTTI_AWAIT_TIMEOUT_MS: '300', TUTTI_KEEPALIVE_MS: '100' } })).stdout) as { state: string; next: string };
		assert.equal(waited.next, owedSchedule, 'await-review owes the replacement\'s schedule');
		// The owed command, run as printed, is accepted.
		const replacement = expectOk<{ runIds: string[] }>(await issue.cli(shellWords(owedSchedule).slice(1)));
		assert.equal(replacement.runIds.length, 1);
		const reworked = await issue.get();
		assert.deepEqual(taskIn(reworked, 'b').dependencyTaskIds, ['a2']);
		// The replacement continues the count; the replaced task is one line: how that attempt ended.
		assert.deepEqual([taskIn(reworked, 'a').attempts?.line, taskIn(reworked, 'a').attempts?.stateLabel], [`Attempt 1 — changes requested: ${note}`, '']);
		assert.deepEqual([taskIn(reworked, 'a2').attempts?.label, taskIn(reworked, 'a2').attempts?.earlier], ['Attempt 2 of 2', [`Attempt 1 — changes requested: ${note}`]]);
	});

	it('Goal Review: complete waits for the developer; goal request-changes returns a checkpoint with the note; goal confirm completes', async function () {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a'));
		await issue.scheduleOk(['a']);
		const settled = await issue.waitActive('task_settled', 'a');
		await issue.acknowledgeOk(fenceOf(settled));
		const review1 = await issue.get();
		expectError(await issue.complete(fenceOf(review1)), 'acceptance_pending', 1);
		expectOk(await review(issue, 'accept', 'a'));

		const done = await issue.completeOk(fenceOf(review1));
		assert.equal(done.executionStatus, 'pending_goal_review');
		const waiting = await issue.get();
		assert.deepEqual([waiting.execution.status, waiting.activeCheckpoint, waiting.allowedActions], ['pending_goal_review', null, []]);
		expectError(await issue.cli(['goal', 'confirm', '--issue-id', issue.issueId, '--json']), 'forbidden', 1);
		expectError(await host.cli(['goal', 'request-changes', '--issue-id', issue.issueId, '--note', '', '--as-user', '--json']), 'invalid_input', 2);

		const note = 'Cover the logout flow too';
		const back = methods['goal/requestChanges'].result.parse(expectOk(
			await host.cli(['goal', 'request-changes', '--issue-id', issue.issueId, '--note', note, '--as-user', '--json'])));
		assert.equal(back.executionStatus, 'awaiting_main');
		const returned = await issue.get();
		assert.deepEqual([returned.activeCheckpoint?.kind, returned.activeCheckpoint?.note], ['goal_changes_requested', note]);

		const m = await issue.mutateOk([{ kind: 'add', task: taskSpec('logout') }], fenceOf(returned));
		await issue.scheduleOk(['logout'], { checkpointId: m.checkpointId, revision: m.graphRevision });
		const settled2 = await issue.waitActive('task_settled', 'logout');
		expectOk(await review(issue, 'accept', 'logout'));
		await issue.acknowledgeOk(fenceOf(settled2));
		const review2 = await issue.get();
		assert.equal(review2.activeCheckpoint?.kind, 'all_tasks_terminal', 'the Goal Review boundary is rearmed');
		assert.equal((await issue.completeOk(fenceOf(review2))).executionStatus, 'pending_goal_review');
		const confirmed = await issue.confirmGoalOk();
		assert.deepEqual([confirmed.status, confirmed.executionStatus], ['confirmed', 'completed']);
		assert.equal((await issue.confirmGoalOk()).replayed, true);
		assert.equal((await issue.get()).execution.status, 'completed');
	});

});

describe('conformance: developer confirmation switched off by the developer', function () {
	this.timeout(60_000);
	let host: HostHandle;
	// Only the developer's settings switch the confirmation off (an agent's --developer-confirmation=false is refused).
	shareHost((h) => { host = h; }, { config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 4, developerConfirmation: false, autoAcceptDefault: true }) as HostConfig });

	it('with developer confirmation off and auto-accept on (the developer\'s settings), complete completes directly', async function () {
		const source = await openSession(host, 'source');
		const created = methods['plan/create'].result.parse(expectOk(await host.cli(['plan', 'issue', 'create', '--title', 'Unattended',
			'--content', 'Go', '--request-id', requestId('create'), '--json'], { token: source.token })));
		host.track(created.issueId);
		const issue = new ManagedIssue(host, created.issueId, source, created);
		await issue.addTasks(taskSpec('a'));
		await issue.scheduleOk(['a']);
		const settled = await issue.waitActive('task_settled', 'a');
		assert.equal(taskIn(settled, 'a').acceptanceState, 'auto_checked', 'autoAccept=true tasks are accepted as before');
		await issue.acknowledgeOk(fenceOf(settled));
		const done = await issue.completeOk(fenceOf(await issue.get()));
		assert.equal(done.executionStatus, 'completed');
		assert.equal((await issue.get()).execution.status, 'completed');
	});
});
