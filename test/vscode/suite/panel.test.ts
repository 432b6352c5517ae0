// The issue panel from the extension's side: "Open Issue" opens it, the webview completes the `ready` →
// `snapshot` handshake, and a store change reaches the open panel as a new snapshot.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import type { NewIssueResult } from '../../../src/extension/commands/issueActions.js';
import { ownerReady, tutti, waitFor } from './suiteKit.js';

describe('issue panel', () => {
	before(async () => {
		await ownerReady();
	});

	it('Open Issue opens the panel; the webview says ready and gets the issue\'s snapshot; a store change sends a newer one', async () => {
		const { services, panels } = await tutti();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'In the panel', content: '' }))!;
		await vscode.commands.executeCommand(commandIds.pauseIssue, issueId);
		await services.client().call('task/add', { issueId, title: 'Drawn as a node', agentTargetId: 'sh' });
		await vscode.commands.executeCommand(commandIds.openIssue, issueId);
		const panel = panels.panelFor(issueId);
		assert.ok(panel, 'Open Issue opened the issue panel');
		const first = await panel.waitForSnapshot(30_000);
		assert.equal(first.issue.issueId, issueId);
		assert.deepEqual(first.issue.tasks.map((t) => t.title), ['Drawn as a node']);
		assert.equal(first.issue.dispatchPaused, true);
		await vscode.commands.executeCommand(commandIds.resumeIssue, issueId);
		const resumed = await waitFor('a newer snapshot with the issue resumed', () => {
			const last = panel.lastSnapshot;
			return last && last.seq > first.seq && !last.issue.dispatchPaused ? last : undefined;
		});
		assert.ok(resumed.seq > first.seq);
		panel.close();
	});
});
