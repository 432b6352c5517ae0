// Another process (a headless `tutti host`) owns this folder's store before the window opens: the window is a
// read-only viewer whose reads and actions go to the owner; when the owner goes away the window takes over.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import type { NewIssueResult } from '../../../src/extension/commands/issueActions.js';
import { tutti, waitFor } from './suiteKit.js';

describe('viewer window', () => {
	it('connects as a viewer to the headless Host that owns the store', async () => {
		const { services } = await tutti();
		const state = await waitFor('the viewer state', () => (services.connection.state.kind === 'viewer' ? services.connection.state : undefined));
		assert.notEqual(state.ownerPid, process.pid);
		assert.equal((await services.client().call('hello', { client: 'suite', protocol: 1 })).pid, state.ownerPid);
	});

	it('forwards actions to the owner and shows the owner\'s store', async () => {
		const { services } = await tutti();
		const result = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Via the viewer', content: '' }))!;
		await vscode.commands.executeCommand(commandIds.pauseIssue, result.issueId);
		const issue = await services.client().call('issue/get', { issueId: result.issueId });
		assert.equal(issue.dispatchPaused, true);
		await waitFor('the issue in the board state', () => services.changes.current?.issues.find((i) => i.issueId === result.issueId));
	});

	it('takes the store over when the owner stops, keeping everything it holds', async () => {
		const { services } = await tutti();
		const state = services.connection.state;
		assert.equal(state.kind, 'viewer');
		process.kill(state.kind === 'viewer' ? state.ownerPid! : 0, 'SIGTERM');
		await waitFor('this window to own the store', () => (services.connection.state.kind === 'owner' ? true : undefined), 30_000);
		const issues = await services.client().call('issue/list', {});
		assert.ok(issues.issues.some((i) => i.title === 'Via the viewer' && i.dispatchPaused));
	});
});
