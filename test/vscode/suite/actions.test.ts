// The actions every surface shares, run as commands with arguments (as the board and the panel call them):
// New Issue (manual and managed), Pause/Resume/Stop, Export, and the review actions that this version may lack.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import type { NewIssueResult } from '../../../src/extension/commands/issueActions.js';
import { ownerReady, tutti, waitFor } from './suiteKit.js';

describe('actions (commands with arguments)', () => {
	let scratch: string;
	before(async () => {
		await ownerReady();
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-suite-actions-'));
	});
	after(() => fs.rmSync(scratch, { recursive: true, force: true }));

	it('New Issue (manual) creates the issue, and the board state shows it', async () => {
		const { services } = await tutti();
		const result = await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Board issue', content: 'From the suite' });
		assert.equal(result?.managed, false);
		const issue = await services.client().call('issue/get', { issueId: result!.issueId });
		assert.equal(issue.content, 'From the suite');
		await waitFor('the issue in the board state', () => services.changes.current?.issues.find((i) => i.issueId === result!.issueId));
	});

	it('Pause, Resume and Stop change the issue in the store', async () => {
		const { services } = await tutti();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'To pause', content: '' }))!;
		await vscode.commands.executeCommand(commandIds.pauseIssue, issueId);
		assert.equal((await services.client().call('issue/get', { issueId })).dispatchPaused, true);
		await vscode.commands.executeCommand(commandIds.resumeIssue, { issueId });
		assert.equal((await services.client().call('issue/get', { issueId })).dispatchPaused, false);
		await vscode.commands.executeCommand(commandIds.stopIssue, { issueId, confirmed: true });
		assert.equal((await services.client().call('issue/get', { issueId })).dispatchPaused, true, 'Stop pauses dispatch');
	});

	it('New Issue (managed, own agent) creates the plan with a source session and opens a terminal whose `tutti` acts as that session', async () => {
		const { services } = await tutti();
		const result = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'managed', title: 'Managed from the suite', content: 'Plan it', agentTargetId: null }))!;
		assert.equal(result.managed, true);
		const plan = await services.client().call('plan/get', { issueId: result.issueId });
		assert.equal(plan.execution.status, 'awaiting_schedule');
		const issue = await services.client().call('issue/get', { issueId: result.issueId });
		assert.equal(issue.sourceSessionId, result.sourceSessionId);
		const terminal = await waitFor('the agent terminal, named by the issue\'s title', () => vscode.window.terminals.find((t) => t.name === 'Tutti agent · Managed from the suite'));
		const env = (terminal.creationOptions as vscode.TerminalOptions).env ?? {};
		assert.equal(env['TUTTI_SESSION_ID'], result.sourceSessionId);
		assert.equal(env['TUTTI_ISSUE_ID'], result.issueId);
		assert.ok(env['TUTTI_SESSION_TOKEN']);
		// The developer's agent in that terminal drives the plan as the source session.
		const cp = plan.activeCheckpoint!;
		const ops = JSON.stringify([{ kind: 'add', task: { taskId: 'first', title: 'First task', agentTargetId: 'sh' } }]);
		const out = path.join(scratch, 'mutate.json');
		terminal.sendText(`tutti plan issue mutate --issue-id "$TUTTI_ISSUE_ID" --checkpoint-id '${cp.checkpointId}' --expected-graph-revision ${plan.execution.graphRevision} --operations-json '${ops}' --request-id suite-1 --json > '${out}' 2>&1`);
		const mutated = await waitFor('the mutate reply', () => {
			const text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
			return text.includes('}') ? text : undefined;
		});
		assert.match(mutated, /"addedTaskIds":\["first"\]/, mutated);
		await waitFor('the new task in the board state', () => services.changes.current?.issues.find((i) => i.issueId === result.issueId && i.taskCount === 1));
	});

	it('Export Issue writes JSON and Markdown', async () => {
		const { services } = await tutti();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Exported | issue', content: 'Goal text' }))!;
		const json = path.join(scratch, 'issue.json');
		const md = path.join(scratch, 'issue.md');
		await vscode.commands.executeCommand(commandIds.exportIssue, { issueId, format: 'json', uri: json });
		await vscode.commands.executeCommand(commandIds.exportIssue, { issueId, format: 'markdown', uri: md });
		const parsed = JSON.parse(fs.readFileSync(json, 'utf8')) as { format: string; issue: { issueId: string } };
		assert.equal(parsed.format, 'tutti-issue-export');
		assert.equal(parsed.issue.issueId, issueId);
		assert.match(fs.readFileSync(md, 'utf8'), /^# Exported \| issue\n[\s\S]*## Goal\n\nGoal text/);
		assert.ok(services.workspace);
	});

	it('Accept Task and Request Changes decide tasks waiting in pending_acceptance (positional arguments, as the panel sends them)', async () => {
		const { services } = await tutti();
		const client = services.client();
		const issue = await client.call('issue/create', { title: 'Needs review', autoAccept: false });
		const first = await client.call('task/add', { issueId: issue.issueId, title: 'Accept me', agentTargetId: 'sh' });
		const second = await client.call('task/add', { issueId: issue.issueId, title: 'Change me', agentTargetId: 'sh' });
		await waitFor('both tasks waiting for acceptance, and the issue needing the developer on the board', () =>
			services.changes.current?.issues.find((i) => i.issueId === issue.issueId && i.counts.pendingAcceptance === 2), 30_000);
		await vscode.commands.executeCommand(commandIds.acceptTask, issue.issueId, first.taskId);
		await vscode.commands.executeCommand(commandIds.requestChanges, issue.issueId, second.taskId, 'Handle the empty input too');
		const tasks = (await client.call('issue/get', { issueId: issue.issueId })).tasks;
		const accepted = tasks.find((t) => t.taskId === first.taskId)!;
		const changed = tasks.find((t) => t.taskId === second.taskId)!;
		assert.deepEqual([accepted.status, accepted.acceptanceState], ['completed', 'user_accepted']);
		// On a manual issue a change request is a new attempt of the same task with the note, never a failure.
		assert.notEqual(changed.status, 'failed', 'a change request is not a failure');
		assert.deepEqual([changed.rework?.kind, changed.rework?.note, changed.rework?.attempt], ['changes_requested', 'Handle the empty input too', 2], 'a change request starts the next attempt with the note');
	});

	it('Comments on a task\'s diff: the thread button records them for that task, Request Changes sends and clears them', async () => {
		const { services } = await tutti();
		const client = services.client();
		const issue = await client.call('issue/create', { title: 'Diff comments', autoAccept: false });
		const task = await client.call('task/add', { issueId: issue.issueId, title: 'Comment me', agentTargetId: 'sh' });
		await waitFor('the task waiting for acceptance', async () =>
			(await client.call('issue/get', { issueId: issue.issueId })).tasks[0]?.status === 'pending_acceptance' ? true : undefined, 30_000);
		const file = vscode.Uri.file(path.join(services.workspace!, 'src', 'sum.ts'));
		const other = vscode.comments.createCommentController('suite.threads', 'suite threads');
		try {
			const outside = other.createCommentThread(file, new vscode.Range(2, 0, 2, 0), []);
			await vscode.commands.executeCommand(commandIds.addReviewComment, { thread: outside, text: 'Not in a diff' });
			assert.deepEqual(services.reviewComments.of(task.taskId), [], 'a file outside every opened diff takes no comment');
			services.reviewComments.openReview(task.taskId, ['src/sum.ts']);
			const thread = other.createCommentThread(file, new vscode.Range(2, 0, 2, 0), []);
			await vscode.commands.executeCommand(commandIds.addReviewComment, { thread, text: 'Handle the empty list' });
			assert.deepEqual(services.reviewComments.of(task.taskId).map((c) => [c.path, c.line, c.text]), [['src/sum.ts', 3, 'Handle the empty list']]);
			assert.equal(thread.comments.length, 1, 'the thread shows the comment');
			await vscode.commands.executeCommand(commandIds.requestChanges, issue.issueId, task.taskId, 'Please fix');
			assert.equal((await client.call('issue/get', { issueId: issue.issueId })).tasks[0]!.rework?.kind, 'changes_requested', 'the Host took the request');
			assert.deepEqual(services.reviewComments.of(task.taskId), [], 'sent comments are cleared');
			assert.equal(thread.comments.length, 0, 'and leave their thread');
		} finally {
			other.dispose();
		}
	});

	it('Confirm Goal on an issue that is not at Goal Review reports the Host\'s refusal and changes nothing', async () => {
		const { services } = await tutti();
		const client = services.client();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'managed', title: 'Not done yet', content: 'Goal', agentTargetId: null }))!;
		const before = await client.call('plan/get', { issueId });
		assert.equal(await vscode.commands.executeCommand(commandIds.confirmGoal, issueId), undefined);
		assert.equal((await client.call('plan/get', { issueId })).execution.status, before.execution.status);
		await assert.rejects(client.call('goal/confirm', { issueId }), (e: Error & { reasonCode?: string }) => typeof e.reasonCode === 'string' && e.reasonCode !== 'version_mismatch');
	});

	it('Finish and Follow Up on an issue that is not completed report the Host\'s refusal and record nothing', async () => {
		const { services } = await tutti();
		const client = services.client();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'managed', title: 'Still open', content: 'Goal', agentTargetId: null }))!;
		assert.equal(await vscode.commands.executeCommand(commandIds.finishIssue, issueId), undefined);
		assert.equal(await vscode.commands.executeCommand(commandIds.followUpIssue, issueId, 'Also add docs'), undefined);
		await assert.rejects(client.call('issue/finish', { issueId }), (e: Error & { reasonCode?: string }) => e.reasonCode === 'inactive_execution');
		await assert.rejects(client.call('issue/followUp', { issueId, text: 'x' }), (e: Error & { reasonCode?: string }) => e.reasonCode === 'inactive_execution');
	});
});
