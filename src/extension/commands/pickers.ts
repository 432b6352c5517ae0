// Quick picks that commands use when run from the palette without arguments.
import * as vscode from 'vscode';
import type { IssueDto, RunDto } from '../../protocol/dto.js';
import type { ExtensionServices } from '../services.js';
import { pausedNote } from '../pausedNote.js';
import type { TaskRef } from './commandArgs.js';

interface Picked<T> extends vscode.QuickPickItem {
	readonly value: T;
}

async function currentIssues(services: ExtensionServices): Promise<readonly IssueDto[]> {
	return services.changes.current?.issues ?? (await services.client().call('issue/list', {})).issues;
}

function issueItem(issue: IssueDto): Picked<string> {
	return {
		label: issue.title,
		description: `${issue.counts.completed}/${issue.taskCount} · ${issue.status.replace('_', ' ')}${issue.dispatchPaused ? ` · ${pausedNote(issue)}` : ''}`,
		detail: issue.issueId,
		value: issue.issueId,
	};
}

/** An issue id picked by the developer, or undefined when they cancel; `filter` narrows the list. */
export async function pickIssue(services: ExtensionServices, placeHolder: string, filter: (issue: IssueDto) => boolean = () => true): Promise<string | undefined> {
	const issues = (await currentIssues(services)).filter(filter);
	if (issues.length === 0) {
		void vscode.window.showInformationMessage(`Tutti: no issue to choose from (${placeHolder.toLowerCase()}).`);
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(issues.map(issueItem), { placeHolder, matchOnDetail: true });
	return picked?.value;
}

function runItem(run: RunDto, title: string): Picked<RunDto> {
	return {
		label: title,
		description: run.outcomeLabel ?? run.status.replace('_', ' '),
		detail: `${run.runId} · issue ${run.issueId}${run.agentTargetId ? ` · ${run.agentTargetId}` : ''}`,
		value: run,
	};
}

/** Task titles by `issueId\u0000taskId` for these Runs (lists name tasks by their titles, not by ids). */
export async function taskTitles(services: ExtensionServices, runs: readonly Pick<RunDto, 'issueId' | 'taskId'>[]): Promise<Map<string, string>> {
	const titles = new Map<string, string>();
	const issueIds = [...new Set(runs.map((r) => r.issueId))];
	const issues = await Promise.all(issueIds.map((issueId) => services.client().call('issue/get', { issueId }).catch(() => undefined)));
	for (const issue of issues) {
		for (const t of issue?.tasks ?? []) { titles.set(`${t.issueId}\u0000${t.taskId}`, t.title); }
	}
	return titles;
}

/** A task's title, or its id when it cannot be read. */
export async function taskTitle(services: ExtensionServices, issueId: string, taskId: string): Promise<string> {
	const issue = await services.client().call('issue/get', { issueId, taskId }).catch(() => undefined);
	return issue?.tasks[0]?.title ?? taskId;
}

/** A Run: the running ones first; with none running, the Runs of an issue the developer picks. Listed by task title. */
export async function pickRun(services: ExtensionServices, placeHolder: string, runningOnly: boolean): Promise<(RunDto & { readonly taskTitle: string }) | undefined> {
	let runs: readonly RunDto[] = services.changes.current?.runningRuns ?? [];
	if (runs.length === 0 && !runningOnly) {
		const issueId = await pickIssue(services, 'Runs of which issue?');
		if (issueId === undefined) {
			return undefined;
		}
		runs = [...(await services.client().call('run/list', { issueId })).runs].reverse();
	}
	if (runs.length === 0) {
		void vscode.window.showInformationMessage(runningOnly ? 'Tutti: no Run is running.' : 'Tutti: that issue has no Runs yet.');
		return undefined;
	}
	const titles = await taskTitles(services, runs);
	const titled = runs.map((run) => ({ ...run, taskTitle: titles.get(`${run.issueId}\u0000${run.taskId}`) ?? run.taskId }));
	return (await vscode.window.showQuickPick(titled.map((run) => runItem(run, run.taskTitle)), { placeHolder, matchOnDetail: true }))?.value as (RunDto & { taskTitle: string }) | undefined;
}

/** A task waiting for the developer's decision (the Host offers Accept on it), in one issue or across all of them. */
export async function pickPendingTask(services: ExtensionServices, placeHolder: string, issueId?: string): Promise<TaskRef | undefined> {
	const issues = (await currentIssues(services)).filter((i) => i.controls.reviewTask && (issueId === undefined || i.issueId === issueId));
	const details = await Promise.all(issues.map((i) => services.client().call('issue/get', { issueId: i.issueId })));
	const items: Picked<TaskRef>[] = details.flatMap((issue) => issue.tasks
		.filter((t) => t.controls.accept)
		.map((t) => ({ label: t.title, description: issue.title, detail: `${t.taskId} · issue ${issue.issueId}`, value: { issueId: issue.issueId, taskId: t.taskId } })));
	if (items.length === 0) {
		void vscode.window.showInformationMessage('Tutti: no task is waiting for your acceptance.');
		return undefined;
	}
	return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.value;
}

/** An agent target for a source agent, or `null` for "my own agent in a terminal"; undefined when cancelled. */
export async function pickAgentTarget(services: ExtensionServices): Promise<string | null | undefined> {
	const { agentTargets } = await services.client().call('agent/list', {});
	const items: Picked<string | null>[] = [
		{ label: '$(terminal) My own agent in a terminal', description: 'open an agent terminal with the source session', value: null },
		...agentTargets.map((t) => ({
			label: t.id,
			description: `${t.adapter}${t.found ? '' : ' · not found'}`,
			detail: t.detail || t.path,
			value: t.id,
		})),
	];
	return (await vscode.window.showQuickPick(items, { placeHolder: 'Which agent plans this issue (the source agent)?' }))?.value;
}

/** A required line of text; undefined when cancelled. */
export function askText(prompt: string, options: { placeHolder?: string; required?: boolean; value?: string } = {}): Thenable<string | undefined> {
	return vscode.window.showInputBox({
		prompt,
		placeHolder: options.placeHolder,
		value: options.value,
		ignoreFocusOut: true,
		validateInput: (text) => (options.required && text.trim() === '' ? 'Required' : undefined),
	});
}
