// The task form's commands on a manual issue (the panel's Add task / Edit / Delete, the board, the palette): Add Task and
// Edit Task open the issue panel's one task form (title, content, dependencies, agent), or with arguments call
// `task/add` / `task/update` directly — the same Host methods `tutti issue task add|update` call; Delete Task asks to
// confirm, then `task/delete`.
import * as vscode from 'vscode';
import type { IssueDto, PlanTaskDto } from '../../protocol/dto.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, isConfirmed, issueIdOf, optionsOf, taskRefOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';

/** What the task form sends (and scripts may pass): every field optional on edit. */
export interface TaskFields {
	readonly title?: string;
	readonly content?: string;
	readonly dependencyTaskIds?: readonly string[];
	readonly agentTargetId?: string;
}

/** Arguments that skip the form (the panel's form, tests, scripts). */
export interface AddTaskArgs extends TaskFields {
	readonly issueId?: string;
}

interface Picked<T> extends vscode.QuickPickItem {
	readonly value: T;
}

/** The fields given, as the Host's task/add and task/update take them (the title trimmed). */
export function fieldsOf(args: TaskFields): { title?: string; content?: string; dependencyTaskIds?: string[]; agentTargetId?: string } {
	return {
		...(args.title !== undefined ? { title: args.title.trim() } : {}),
		...(args.content !== undefined ? { content: args.content } : {}),
		...(args.dependencyTaskIds !== undefined ? { dependencyTaskIds: [...args.dependencyTaskIds] } : {}),
		...(args.agentTargetId !== undefined && args.agentTargetId !== '' ? { agentTargetId: args.agentTargetId } : {}),
	};
}

/** `(issueId)` opens the issue panel's task form; `({ issueId, title, … })` adds the task directly. */
export function addTask(ctx: ActionContext, commandArgs: CommandArgs): Promise<unknown> {
	const args = optionsOf<AddTaskArgs>(commandArgs);
	return runAction(ctx, 'Add Task', async () => {
		const issueId = issueIdOf(commandArgs) ?? await pickIssue(ctx.services, 'Add a task to which issue?', (i) => i.controls.addTask);
		if (issueId === undefined) { return undefined; }
		if (args.title === undefined) {
			await ctx.panel.show(issueId, { taskForm: { mode: 'add' } });
			return undefined;
		}
		const fields = fieldsOf(args);
		return ctx.services.client().call('task/add', {
			issueId, title: fields.title ?? '', ...(fields.content ? { content: fields.content } : {}),
			...(fields.agentTargetId !== undefined ? { agentTargetId: fields.agentTargetId } : {}),
			...(fields.dependencyTaskIds && fields.dependencyTaskIds.length > 0 ? { dependencyTaskIds: [...fields.dependencyTaskIds] } : {}),
		});
	});
}

/** Which issues' tasks to pick from, and what to say when none qualifies. */
export interface TaskPick {
	readonly issues: (i: IssueDto) => boolean;
	readonly none: string;
}

const editablePick: TaskPick = { issues: (i) => i.controls.addTask, none: 'only tasks that have not started, on manual issues, can change' };

/** The tasks the Host offers `control` on, to pick from (one issue, or every issue `pick` names). */
export async function pickTask(ctx: ActionContext, placeHolder: string, control: (t: PlanTaskDto) => boolean, issueId?: string, pick: TaskPick = editablePick): Promise<{ issueId: string; taskId: string; title: string } | undefined> {
	const issues = (ctx.services.changes.current?.issues ?? []).filter((i) => pick.issues(i) && (issueId === undefined || i.issueId === issueId));
	const details = await Promise.all(issues.map((i) => ctx.services.client().call('issue/get', { issueId: i.issueId })));
	const items: Picked<{ issueId: string; taskId: string; title: string }>[] = details.flatMap((issue) => issue.tasks.filter(control).map((t) => ({
		label: t.title, description: issue.title, detail: `${t.taskId} · issue ${issue.issueId}`, value: { issueId: issue.issueId, taskId: t.taskId, title: t.title },
	})));
	if (items.length === 0) {
		void vscode.window.showInformationMessage(`Tutti: no task to choose from: ${pick.none}.`);
		return undefined;
	}
	return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.value;
}

/** `(issueId, taskId)` opens the task form on that task; `(issueId, taskId, fields)` updates it directly. */
export function editTask(ctx: ActionContext, commandArgs: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Edit Task', async () => {
		const task = taskRefOf(commandArgs) ?? await pickTask(ctx, 'Edit which task?', (t) => t.controls.edit, issueIdOf(commandArgs));
		if (task === undefined) { return undefined; }
		const given = commandArgs[2];
		if (typeof given !== 'object' || given === null) {
			await ctx.panel.show(task.issueId, { selectTaskId: task.taskId, taskForm: { mode: 'edit', taskId: task.taskId } });
			return undefined;
		}
		return ctx.services.client().call('task/update', { issueId: task.issueId, taskId: task.taskId, ...fieldsOf(given as TaskFields) });
	});
}

/** `(issueId, taskId)` asks to confirm; `(issueId, taskId, { confirmed: true })` deletes at once. */
export function deleteTask(ctx: ActionContext, commandArgs: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Delete Task', async () => {
		const given = taskRefOf(commandArgs);
		const task = given ?? await pickTask(ctx, 'Delete which task?', (t) => t.controls.delete, issueIdOf(commandArgs));
		if (task === undefined) { return undefined; }
		if (!isConfirmed(commandArgs) && !isConfirmed([commandArgs[2]])) {
			const title = 'title' in task ? `"${task.title}"` : task.taskId;
			const answer = await vscode.window.showWarningMessage(`Delete task ${title}? It has never run; this cannot be undone.`, { modal: true }, 'Delete');
			if (answer !== 'Delete') { return undefined; }
		}
		return ctx.services.client().call('task/delete', { issueId: task.issueId, taskId: task.taskId });
	});
}
