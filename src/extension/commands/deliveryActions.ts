// `Tutti: Integrate Issue` (issueId): merges the issue's accepted task commits into its base branch through the
// Host (`issue/integrate`), the same call as `tutti issue integrate`. While some tasks are not accepted yet it
// offers to integrate only the accepted ones; every other refusal shows the Host's message and hint. With the
// panel's Push checkbox the branch then goes to its upstream (a failed push keeps the integration and says so).
// A conflict goes to the issue's panel, which shows its paths and ways forward until the issue's delivery changes.
import * as vscode from 'vscode';
import type { Result } from '../../protocol/controlPlane.js';
import { parseIntegrateConflict } from '../../protocol/webview.js';
import { HostCallError } from '../client/hostClient.js';
import { taskTreePath } from '../panels/taskTree.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, pushOf, taskRefOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';
import { fieldsOf, pickTask, type TaskFields, type TaskPick } from './taskActions.js';

export function integrateIssue(ctx: ActionContext, args: CommandArgs): Promise<Result<'issue/integrate'> | undefined> {
	return runAction(ctx, 'Integrate', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Integrate the accepted work of which issue?', (i) => i.baseCommit !== '');
		if (issueId === undefined) {
			return undefined;
		}
		const client = ctx.services.client();
		const push = pushOf(args);
		const integrate = (acceptedOnly: boolean): Promise<Result<'issue/integrate'>> => Promise.resolve(vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: 'Tutti: integrating…' },
			() => client.call('issue/integrate', { issueId, ...(acceptedOnly ? { acceptedOnly: true } : {}), ...(push ? { push: true as const } : {}) })));
		let result: Result<'issue/integrate'>;
		try {
			result = await integrate(false);
		} catch (e) {
			if (e instanceof HostCallError && e.reasonCode === 'merge_conflict' && ctx.panel.showConflict) {
				const conflict = parseIntegrateConflict(e.details, e.message, e.hint);
				if (conflict.ok) {
					await ctx.panel.showConflict(issueId, conflict.value);
					return undefined;
				}
				ctx.services.log.warn(`Tutti: the conflict's details could not be shown in the panel: ${conflict.error}`);
			}
			if (!(e instanceof HostCallError) || e.reasonCode !== 'not_integrable' || !/not accepted yet/.test(e.message)) { throw e; }
			const choice = await vscode.window.showWarningMessage(e.message, { modal: true }, 'Integrate Accepted Only');
			if (choice !== 'Integrate Accepted Only') {
				return undefined;
			}
			result = await integrate(true);
		}
		const how = result.fastForward ? 'fast-forward' : 'merge commit';
		void vscode.window.showInformationMessage(
			`Tutti: integrated ${result.mergedTaskIds.length} task${result.mergedTaskIds.length === 1 ? '' : 's'} into ${result.into} (${how} ${result.integratedCommit.slice(0, 10)})${result.workspaceMoved ? '; your workspace moved with it' : ''}${result.pushed ? `; pushed to ${result.pushed.remote}/${result.pushed.branch}` : ''}.`);
		return result;
	});
}

const anyIssue: TaskPick = { issues: () => true, none: 'the Host offers this on none of the tasks now' };

/**
 * `(issueId, taskId)` runs a failed or canceled task of a manual issue again, as a new attempt in its tree
 * (`task/retry`, the call `tutti task retry` makes); `(issueId, taskId, fields)` edits it first (Edit and retry).
 */
export function retryTask(ctx: ActionContext, args: CommandArgs): Promise<Result<'task/retry'> | undefined> {
	return runAction(ctx, 'Retry Task', async () => {
		const task = taskRefOf(args) ?? await pickTask(ctx, 'Retry which task?', (t) => t.controls.retry, issueIdOf(args), anyIssue);
		if (task === undefined) { return undefined; }
		const given = args[2];
		const fields = typeof given === 'object' && given !== null ? fieldsOf(given as TaskFields) : {};
		const result = await ctx.services.client().call('task/retry', { issueId: task.issueId, taskId: task.taskId, ...fields });
		void vscode.window.showInformationMessage(`Tutti: task ${task.taskId} runs again (attempt ${result.attempt}).`);
		return result;
	});
}

/**
 * `(issueId, taskId)` merges the base branch into an accepted task's tree in a new Run (`task/updateFromBase`, the
 * call `tutti task update-from-base` makes) and shows the Host's sentence on what happens next.
 */
export function updateTaskFromBase(ctx: ActionContext, args: CommandArgs): Promise<Result<'task/updateFromBase'> | undefined> {
	return runAction(ctx, 'Update Task from Base', async () => {
		const task = taskRefOf(args) ?? await pickTask(ctx, 'Update which task from its base branch?', (t) => t.controls.updateFromBase, issueIdOf(args), anyIssue);
		if (task === undefined) { return undefined; }
		const result = await ctx.services.client().call('task/updateFromBase', { issueId: task.issueId, taskId: task.taskId });
		void vscode.window.showInformationMessage(`Tutti: ${result.message}`);
		return result;
	});
}

/** `(issueId, tree)`: a terminal in a task's tree (the conflict block's Open the task's tree), only inside .tutti/worktrees/. */
export function openTaskTree(ctx: ActionContext, args: CommandArgs): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'Open Task Tree', () => {
		const tree = typeof args[1] === 'string' ? args[1] : '';
		const checked = taskTreePath(ctx.services.workspace, tree);
		if (!checked.ok) { throw new Error(checked.error); }
		const terminal = vscode.window.createTerminal({ name: `Tutti: ${tree}`, cwd: checked.path });
		terminal.show();
		return Promise.resolve(terminal);
	});
}
