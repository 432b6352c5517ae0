// Starting work from the UI, in a real VS Code: the New Issue form's Host side creates an issue and closes, a manual
// issue created paused offers Add Task and Start (and they do what the CLI's issue task add / issue resume do),
// Stop Source Session and Switch to Self Review on a managed issue, every command has a `when` clause in the palette,
// the walkthrough's media ship, and Add Agent writes the workspace setting the Host then lists. Add Agent runs last:
// it restarts the Host.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import type { NewIssueResult } from '../../../src/extension/commands/issueActions.js';
import { extensionId, ownerReady, tutti, waitFor } from './suiteKit.js';

interface Manifest {
	contributes: {
		commands: { command: string }[];
		menus: { commandPalette?: { command: string; when?: string }[] };
		walkthroughs?: { steps: { id: string; media: { markdown?: string } }[] }[];
	};
}

function extensionPath(): string {
	return vscode.extensions.getExtension(extensionId)!.extensionPath;
}

function manifest(): Manifest {
	return JSON.parse(fs.readFileSync(path.join(extensionPath(), 'package.json'), 'utf8')) as Manifest;
}

describe('start from the UI', () => {
	before(() => ownerReady());

	it('the New Issue form (no arguments) creates the issue it is given and closes', async () => {
		const api = await tutti();
		const { services } = api;
		const closed = vscode.commands.executeCommand<string | undefined>(commandIds.newIssue);
		const form = await waitFor('the New Issue form', () => api.newIssueForm());
		await form.receive({ type: 'submit', values: { title: 'From the form', goal: 'Manual tasks', planner: { kind: 'manual' }, autoAccept: true } });
		const issueId = await closed;
		assert.ok(issueId, 'the form resolves with the new issue id');
		assert.equal(api.newIssueForm(), undefined, 'the form closed');
		const issue = await services.client().call('issue/get', { issueId });
		assert.deepEqual([issue.title, issue.content, issue.planningSource, issue.dispatchPaused, issue.autoAcceptDefault], ['From the form', 'Manual tasks', 'manual', true, true]);
		assert.deepEqual([issue.controls.start, issue.controls.addTask, issue.controls.resume], [true, true, false]);
		await waitFor('the issue panel of the new issue', () => (services.changes.current?.issues.some((i) => i.issueId === issueId) ? true : undefined));
	});

	it('Add Task and Start: a task added to a paused manual issue waits, and runs once the issue is started', async () => {
		const { services } = await tutti();
		const { issueId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'manual', title: 'Draft', content: '', dispatchPaused: true }))!;
		await vscode.commands.executeCommand(commandIds.addTask, { issueId, title: 'Say hello', agentTargetId: 'sh' });
		await vscode.commands.executeCommand(commandIds.addTask, { issueId, title: 'After hello', agentTargetId: 'sh', dependencyTaskIds: [] });
		const draft = await services.client().call('issue/get', { issueId });
		assert.deepEqual(draft.tasks.map((t) => [t.title, t.status]), [['Say hello', 'not_started'], ['After hello', 'not_started']]);
		assert.equal(draft.controls.start, true);
		await vscode.commands.executeCommand(commandIds.startIssue, issueId);
		const started = await services.client().call('issue/get', { issueId });
		assert.deepEqual([started.dispatchPaused, started.controls.start, started.controls.pause], [false, false, true]);
		await waitFor('both tasks to run', async () => {
			const runs = (await services.client().call('run/list', { issueId })).runs;
			return runs.length === 2 ? true : undefined;
		});
	});

	it('Switch to Self Review and Stop Source Session on a managed issue (the CLI\'s goal-review switch-to-self and session stop)', async () => {
		const { services } = await tutti();
		const { issueId, sourceSessionId } = (await vscode.commands.executeCommand<NewIssueResult>(commandIds.newIssue, { mode: 'managed', title: 'Source to stop', content: 'Goal', agentTargetId: null }))!;
		const switched = await vscode.commands.executeCommand<{ reviewMode: string; changed: boolean }>(commandIds.switchReviewToSelf, issueId, 'already self');
		assert.deepEqual([switched?.reviewMode, switched?.changed], ['self', false]);
		assert.equal((await services.client().call('issue/get', { issueId })).controls.stopSource, true);
		const stopped = await vscode.commands.executeCommand<{ sessionId: string; archivedExecutionIds: string[] }>(commandIds.stopSourceSession, issueId, { confirmed: true });
		assert.equal(stopped?.sessionId, sourceSessionId);
		// The archive is requested by whichever drain of the Stop marker runs first (this call's or the wake loop's),
		// so the outcome is read from the issue, not from this call's list.
		const after = await waitFor('the execution to be archived', async () => {
			const issue = await services.client().call('issue/get', { issueId });
			return issue.executionStatus === 'archived' || issue.executionStatus === 'archiving' ? issue : undefined;
		});
		assert.deepEqual([after.terminal, after.controls.stopSource], [true, false]);
	});

	it('every command has a commandPalette entry with a when clause, and the walkthrough\'s media ship', () => {
		const m = manifest();
		const palette = new Map((m.contributes.menus.commandPalette ?? []).map((e) => [e.command, e.when]));
		for (const { command } of m.contributes.commands) {
			assert.ok((palette.get(command) ?? '').length > 0, `${command} has no when clause in the palette`);
		}
		const steps = m.contributes.walkthroughs?.[0]?.steps ?? [];
		assert.deepEqual(steps.map((s) => s.id), ['start', 'addAgent', 'newIssue', 'review']);
		for (const step of steps) {
			assert.ok(fs.existsSync(path.join(extensionPath(), step.media.markdown ?? 'missing')), `${step.id}: ${step.media.markdown}`);
		}
	});

	it('Add Agent writes the workspace\'s tutti.agentTargets and the machine path to tutti.agentPaths, and the restarted Host lists the new target', async () => {
		const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('tutti');
		const before = config().inspect<unknown[]>('agentTargets')?.workspaceValue;
		assert.ok(Array.isArray(before) && before.length > 0, 'the suite workspace has targets');
		try {
			const added = await vscode.commands.executeCommand<{ id: string }>(commandIds.addAgent, { adapter: 'claude', path: process.execPath, model: 'sonnet', allowedTools: ['Read'] });
			assert.equal(added?.id, 'claude');
			const after = config().inspect<unknown[]>('agentTargets')?.workspaceValue;
			// The machine's executable goes to the user settings (tutti.agentPaths), never into the folder's.
			assert.deepEqual(after, [...before, { id: 'claude', adapter: 'claude', model: 'sonnet', allowedTools: ['Read'] }]);
			assert.equal(config().inspect<Record<string, string>>('agentPaths')?.globalValue?.['claude'], process.execPath);
			const { services } = await tutti();
			await waitFor('the Host to list the new target', async () => {
				if (services.connection.state.kind !== 'owner') { return undefined; }
				const targets = (await services.client().call('agent/list', {})).agentTargets;
				return targets.some((t) => t.id === 'claude' && t.adapter === 'claude' && t.found) ? true : undefined;
			}, 30_000);
		} finally {
			await config().update('agentTargets', before, vscode.ConfigurationTarget.Workspace);
			await config().update('agentPaths', undefined, vscode.ConfigurationTarget.Global);
			await ownerReady();
		}
	});
});
