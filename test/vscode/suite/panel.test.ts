// The issue panel from the extension's side: "Open Issue" opens it, the webview completes the `ready` →
// `snapshot` handshake, a store change reaches the open panel as a new snapshot, and closing its tab releases it.
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
		await waitFor('the closed panel to leave the registration', () => (panels.panelFor(issueId) === undefined ? true : undefined));
	});
	it('closing the panel\'s tab releases it at once: the registration holds nothing for it, and Open Issue opens a new one', async () => {
		const { services, panels } = await tutti();
		// Other tests leave their panels open: what matters is one holder per open panel, and one panel fewer once closed.
		const before = panels.held;
		assert.equal(before.disposables, before.panels);
		// A new manual issue opens its panel.
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Closed and opened again', content: '' }))!;
		await vscode.commands.executeCommand(commandIds.pauseIssue, issueId);
		await vscode.commands.executeCommand(commandIds.openIssue, issueId);
		const first = panels.panelFor(issueId)!;
		await first.waitForSnapshot(30_000);
		assert.deepEqual(panels.held, { panels: before.panels + 1, disposables: before.disposables + 1 });
		first.close();
		await waitFor('the closed panel to leave the registration', () => (panels.panelFor(issueId) === undefined ? true : undefined));
		assert.deepEqual(panels.held, before, 'nothing stays registered for the closed panel');
		await vscode.commands.executeCommand(commandIds.openIssue, issueId);
		const second = panels.panelFor(issueId)!;
		assert.notEqual(second, first);
		await services.client().call('task/add', { issueId, title: 'After reopening', agentTargetId: 'sh' });
		const seen = await waitFor('the new panel to draw the task added after it opened', () => {
			const last = second.lastSnapshot;
			return last?.issue.tasks.some((t) => t.title === 'After reopening') ? last : undefined;
		}, 30_000);
		assert.equal(seen.issue.issueId, issueId);
		assert.equal(first.lastSnapshot?.issue.tasks.some((t) => t.title === 'After reopening') ?? false, false, 'the closed panel got nothing more');
		second.close();
		await waitFor('the second panel to leave the registration', () => (panels.panelFor(issueId) === undefined ? true : undefined));
		assert.deepEqual(panels.held, before);
	});
});
