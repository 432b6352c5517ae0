// Runs from the settings' agent target, the status-bar/board state of running Runs, "Open Run Output" (a read-only
// pseudoterminal fed from run/log) and Stop Run.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import type { NewIssueResult } from '../../../src/extension/commands/issueActions.js';
import { RunOutputPty } from '../../../src/extension/terminal/runOutputTerminal.js';
import { ownerReady, tutti, waitFor } from './suiteKit.js';

describe('runs', () => {
	before(async () => {
		await ownerReady();
	});

	it('a task on the settings\' agent target runs; its output streams into the read-only Run terminal, ending with the outcome', async () => {
		const { services } = await tutti();
		const client = services.client();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Runs here', content: '' }))!;
		await client.call('task/add', { issueId, title: 'Say hello', agentTargetId: 'sh' });
		const run = await waitFor('a Run of the task', async () => (await client.call('run/list', { issueId })).runs[0]);
		const pty = new RunOutputPty(() => services.client(), run.runId);
		let text = '';
		const sub = pty.onDidWrite((chunk) => { text += chunk; });
		try {
			pty.open();
			await waitFor('the Run output and its outcome in the terminal', () => (/hello from run[\s\S]*— /.test(text) ? true : undefined), 30_000);
		} finally {
			sub.dispose();
			pty.close();
		}
		assert.match(text, /hello from run\r\n/);
		assert.ok(text.includes('\x1b[31mdone\r\n'), 'stderr in red');
		assert.match(text, /Completed|Failed|Interrupted/);
		const terminal = await vscode.commands.executeCommand<vscode.Terminal>(commandIds.openRunOutput, run.runId);
		assert.ok(terminal?.name.startsWith('Run '));
		terminal?.dispose();
	});

	it('Stop Run interrupts a running Run, recorded as stopped by the developer', async () => {
		const { services } = await tutti();
		const client = services.client();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Runs to stop', content: '' }))!;
		await client.call('task/add', { issueId, title: 'Long one', agentTargetId: 'slow' });
		const run = await waitFor('a running Run', async () => (await client.call('run/list', { issueId })).runs.find((r) => r.status === 'running'));
		await waitFor('the running Run in the board state', () => services.changes.current?.runningRuns.find((r) => r.runId === run.runId));
		await vscode.commands.executeCommand(commandIds.stopRun, run.runId);
		const ended = await waitFor('the Run to end', async () => {
			const r = await client.call('run/get', { runId: run.runId });
			return r.status === 'running' ? undefined : r;
		});
		assert.equal(ended.stopNotes[0]?.reason, 'person');
		assert.equal(ended.outcome, 'cancellation');
		assert.match(ended.outcomeLabel ?? '', /^Interrupted after .* you stopped this/);
	});
});
