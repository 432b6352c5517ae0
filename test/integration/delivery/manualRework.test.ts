// Request changes is a rework, for manual issues too (real git, a real store, scripted Runs): the task runs again in
// its own tree as a new attempt whose prompt carries the developer's note; it reads "changes requested", then
// "running", never "failed"; the earlier attempt stays in its history and integrate takes the accepted attempt.
// Retry (and Edit and retry) share the mechanism for a failed task.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commandTarget, rejects, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import { shellWords } from '../../unit/cli/shellWords.js';
import { initRepo } from './gitRepoKit.js';
import { git, printed, runPrinted } from './printedCommands.js';

describe('request changes on a manual issue is a rework (real git)', function () {
	this.timeout(90_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('a new Run of the same task in the same tree gets the note; "changes requested", then running, never failed; integrate takes the accepted attempt', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Greeting' })).issueId;
		await h.call('task/add', { issueId, taskId: 'greet', title: 'Write greeting.txt', content: 'Write a greeting into greeting.txt.', agentTargetId: 'iso', autoAccept: false });
		await h.idle();
		const first = h.runs.launches.find((l) => l.taskId === 'greet')!;
		writeFileSync(join(first.cwd, 'greeting.txt'), 'hi\n');
		h.runs.exit(first.runId, { exitCode: 0 });
		await h.idle();
		const firstResult = (await h.call('run/get', { runId: first.runId })).resultCommit;

		// Paused, so the state between the decision and the new Run can be read.
		await h.call('issue/pause', { issueId });
		const note = 'Say hello, not hi.\n\n[greeting.txt:1] use the full word';
		const decision = await h.call('review/requestChanges', { issueId, taskId: 'greet', note });
		assert.deepEqual([decision.taskStatus, decision.rework?.attempt], ['not_started', 2]);
		let issue = await h.call('issue/get', { issueId });
		let task = issue.tasks[0]!;
		assert.deepEqual([task.status, task.rework?.kind, task.rework?.runId, task.rework?.note, task.attempt], ['not_started', 'changes_requested', '', note, 1]);
		assert.equal(task.attention?.label, 'Paused · changes requested');
		assert.deepEqual(task.attempts, {
			number: 2, of: 2, label: 'Attempt 2 of 2', earlier: ['Attempt 1 — changes requested: Say hello, not hi.'], stateLabel: 'Changes requested', line: '',
		}, 'the Host numbers the new attempt and names the first by the decision that ended it');
		assert.equal(issue.counts.failed, 0, 'a review decision is not a failure');
		assert.deepEqual([task.controls.edit, task.controls.delete], [true, false], 'waiting for its next attempt: edited, never deleted (its Runs are history)');
		await assert.rejects(h.call('task/delete', { issueId, taskId: 'greet' }), /cannot be deleted/, 'the Host refuses the Delete the panel no longer offers');
		await h.call('issue/resume', { issueId });
		await h.idle();
		task = (await h.call('issue/get', { issueId, taskId: 'greet' })).tasks[0]!;
		const second = h.runs.launches.filter((l) => l.taskId === 'greet')[1]!;
		assert.ok(second, 'a new Run started');
		assert.deepEqual([task.status, task.attempt, task.rework?.runId, task.latestRunId], ['running', 2, second.runId, second.runId]);
		assert.deepEqual([task.attempts?.label, task.attempts?.stateLabel], ['Attempt 2 of 2', ''], 'running its second attempt: no longer waiting for it');
		assert.equal(second.cwd, first.cwd, 'in the same tree');
		assert.equal(readFileSync(join(second.cwd, 'greeting.txt'), 'utf8'), 'hi\n', 'the earlier attempt\'s work is there');
		assert.ok(second.stdinText.startsWith(`This is attempt 2 of this task. The developer reviewed the result of the previous attempt (Run ${first.runId}) and requested changes:\n> Say hello, not hi.\n>\n> [greeting.txt:1] use the full word\n`), second.stdinText);
		assert.ok(second.stdinText.endsWith('Write a greeting into greeting.txt.'), 'the task follows');
		assert.equal((await h.call('run/get', { runId: second.runId })).baseCommit, firstResult, 'the new attempt starts from the first one\'s result');

		writeFileSync(join(second.cwd, 'greeting.txt'), 'hello\n');
		h.runs.exit(second.runId, { exitCode: 0 });
		await h.idle();
		issue = await h.call('issue/get', { issueId });
		assert.equal(issue.tasks[0]!.status, 'pending_acceptance');
		const runs = (await h.call('run/list', { issueId })).runs;
		assert.deepEqual(runs.map((r) => [r.runId, r.status]), [[first.runId, 'completed'], [second.runId, 'completed']], 'the earlier attempt stays in the history');
		await h.call('review/accept', { issueId, taskId: 'greet' });
		const accepted = (await h.call('issue/get', { issueId, taskId: 'greet' })).tasks[0]!;
		assert.equal(accepted.acceptedCommit, (await h.call('run/get', { runId: second.runId })).resultCommit, 'the accepted attempt');
		await h.call('issue/integrate', { issueId });
		assert.equal(readFileSync(join(h.workspace, 'greeting.txt'), 'utf8'), 'hello\n');
		assert.equal(git(h.workspace, 'log', '-1', '--format=%s'), 'Write greeting.txt');
	});

	it('Retry and Edit and retry: a failed task runs again in its tree with the note and its edits; refused where it does not apply', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' }), commandTarget('iso2', { isolation: 'worktree' })] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Retry' })).issueId;
		await h.call('task/add', { issueId, taskId: 'build', title: 'Build', content: 'Build it.', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const first = h.runs.launches.find((l) => l.taskId === 'build')!;
		writeFileSync(join(first.cwd, 'half.txt'), 'half\n');
		h.runs.exit(first.runId, { exitCode: 3 });
		await h.idle();
		let task = (await h.call('issue/get', { issueId, taskId: 'build' })).tasks[0]!;
		assert.deepEqual([task.status, task.controls.retry, task.controls.updateFromBase], ['failed', true, false]);

		const pending = await rejects(h.call('task/retry', { issueId, taskId: 'nope' }), 'task_not_found');
		assert.ok(pending.hint.length > 0);
		// Integrate names the retry for the failed task; that command as printed, with the edits added (Edit and retry).
		const blocked = await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');
		const retryArgv = shellWords(printed(blocked.hint, 'tutti task retry'));
		const parsedRetry = parseCommandLine([...retryArgv.slice(1), '--note', 'The disk was full; try again.', '--content', 'Build it with the new flags.', '--agent-target-id', 'iso2']);
		assert.ok(parsedRetry.kind === 'call' && parsedRetry.asUser && parsedRetry.method === 'task/retry', JSON.stringify(parsedRetry));
		const retried = await h.call('task/retry', parsedRetry.params as { issueId: string; taskId: string });
		assert.equal(retried.taskId, 'build');
		assert.deepEqual([retried.attempt, retried.task.status, retried.task.content, retried.task.agentTargetId], [2, 'not_started', 'Build it with the new flags.', 'iso2']);
		await h.idle();
		const second = h.runs.launches.filter((l) => l.taskId === 'build')[1]!;
		assert.equal(second.cwd, first.cwd, 'the same tree');
		assert.equal(second.target.id, 'iso2', 'the edit took');
		assert.match(second.stdinText, new RegExp(`^This is attempt 2 of this task: the previous attempt \\(Run ${first.runId}\\) ended failed: .*, and the developer runs it again\\.\\nThe developer says:\\n> The disk was full; try again\\.\\n`));
		assert.ok(second.stdinText.endsWith('Build it with the new flags.'));
		h.runs.exit(second.runId, { exitCode: 0 });
		await h.idle();
		task = (await h.call('issue/get', { issueId, taskId: 'build' })).tasks[0]!;
		assert.deepEqual([task.status, task.attempt, task.controls.retry], ['completed', 2, false]);
		const notFailed = await rejects(h.call('task/retry', { issueId, taskId: 'build' }), 'invalid_input');
		assert.match(notFailed.message, /task build is completed; only a failed or canceled task is retried/);
		// Its hint's way, run as printed: the branch did not move, so the update answers "up to date" and starts nothing.
		const upToDate = await runPrinted(h, notFailed.hint, 'tutti task update-from-base') as { upToDate: boolean };
		assert.equal(upToDate.upToDate, true);
		await rejects(h.call('task/delete', { issueId, taskId: 'build' }), 'task_not_started');
	});

	it('Retry is refused on a managed issue: its failures are the source agent\'s to rework', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		const issue = await h.managedIssue();
		const refused = await rejects(h.call('task/retry', { issueId: issue.issueId, taskId: 'any' }), 'tutti_issue_managed');
		assert.match(refused.message, /a failed or canceled task is its source agent's to rework/);
	});
});
