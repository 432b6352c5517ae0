// Add Task on a manual issue (the panel's Add task, the board, the palette): title, what to do, the tasks it waits
// for and the agent target that runs it, then `task/add` — the same Host method `tutti issue task add` calls.
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, optionsOf } from './commandArgs.js';
import { commandIds } from './ids.js';
import { askText, pickIssue } from './pickers.js';

/** Arguments that skip the prompts (tests, scripts). */
export interface AddTaskArgs {
	readonly issueId?: string;
	readonly title?: string;
	readonly content?: string;
	readonly dependencyTaskIds?: readonly string[];
	readonly agentTargetId?: string;
}

interface Picked<T> extends vscode.QuickPickItem {
	readonly value: T;
}

/** The target that runs the task: the only usable one, or the developer's pick; undefined when there is none or they cancel. */
async function pickTaskTarget(ctx: ActionContext): Promise<string | undefined> {
	const targets = (await ctx.services.client().call('agent/list', {})).agentTargets;
	const usable = targets.filter((t) => t.found);
	if (usable.length === 0) {
		const answer = await vscode.window.showWarningMessage(
			targets.length === 0 ? 'Tutti: no agent target is set up to run tasks.' : 'Tutti: no agent target\'s executable was found.',
			'Add Agent');
		if (answer === 'Add Agent') { void vscode.commands.executeCommand(commandIds.addAgent); }
		return undefined;
	}
	if (usable.length === 1) { return usable[0]?.id; }
	const items: Picked<string>[] = usable.map((t) => ({ label: t.id, description: t.adapter, detail: t.detail || t.path, value: t.id }));
	return (await vscode.window.showQuickPick(items, { placeHolder: 'Which agent runs this task?', ignoreFocusOut: true }))?.value;
}

export function addTask(ctx: ActionContext, commandArgs: CommandArgs): Promise<unknown> {
	const args = optionsOf<AddTaskArgs>(commandArgs);
	return runAction(ctx, 'Add Task', async () => {
		const client = ctx.services.client();
		const issueId = issueIdOf(commandArgs) ?? await pickIssue(ctx.services, 'Add a task to which issue?', (i) => i.controls.addTask);
		if (issueId === undefined) { return undefined; }
		const title = args.title ?? await askText('Task title', { required: true, placeHolder: 'Write the session timeout test' });
		if (title === undefined || title.trim() === '') { return undefined; }
		const content = args.content ?? (args.title !== undefined ? '' : await askText('What should the agent do? (optional; Markdown)', { placeHolder: 'Cover expiry after 5 minutes and renewal on activity' }));
		if (content === undefined) { return undefined; }
		let dependencyTaskIds = args.dependencyTaskIds;
		if (dependencyTaskIds === undefined && args.title === undefined) {
			const tasks = (await client.call('issue/get', { issueId })).tasks.filter((t) => t.status !== 'canceled');
			if (tasks.length > 0) {
				const picked = await vscode.window.showQuickPick(
					tasks.map((t): Picked<string> => ({ label: t.title, description: t.status.replace('_', ' '), value: t.taskId })),
					{ placeHolder: 'Which tasks must be done first? (none: it can start right away)', canPickMany: true, ignoreFocusOut: true });
				if (picked === undefined) { return undefined; }
				dependencyTaskIds = picked.map((p) => p.value);
			}
		}
		const agentTargetId = args.agentTargetId ?? await pickTaskTarget(ctx);
		if (agentTargetId === undefined) { return undefined; }
		return client.call('task/add', {
			issueId, title: title.trim(), ...(content ? { content } : {}), agentTargetId,
			...(dependencyTaskIds && dependencyTaskIds.length > 0 ? { dependencyTaskIds: [...dependencyTaskIds] } : {}),
		});
	});
}
