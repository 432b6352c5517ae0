// "Open changes" for a task: its latest Run's own diff (changes/taskDiff.ts decides which), in VS Code's multi-file
// diff view, through the built-in Git extension's API (git: URIs at a commit); its title names the task, so the
// editor's title bar offers Accept and Request changes on it (review/reviewDiffTabs.ts). "Open combined diff": the
// whole issue's accepted work as one diff (`issue/changes`).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, taskRefOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';
import { type FileSides, fileSidesOf, taskDiffPlan } from '../changes/taskDiff.js';

/** The slice of the Git extension's API (vscode.git, getAPI(1)) used here. */
interface GitChange {
	readonly uri: vscode.Uri;
	/** The Git extension's `Status` (see fileSidesOf). */
	readonly status?: number;
}
interface GitRepository {
	readonly rootUri: vscode.Uri;
	diffWith(ref: string): Promise<GitChange[]>;
	diffBetween(ref1: string, ref2: string): Promise<GitChange[]>;
}
interface GitApi {
	openRepository(root: vscode.Uri): Promise<GitRepository | null>;
	toGitUri(uri: vscode.Uri, ref: string): vscode.Uri;
}

async function gitApi(): Promise<GitApi> {
	const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
	if (!extension) {
		throw new Error('the built-in Git extension is not available');
	}
	return (await extension.activate()).getAPI(1);
}

/** Which files the task added or deleted between its two commits (workspace-relative, `/`); empty when git cannot say. */
async function fileSides(git: GitApi, workspace: string, left: string, right: string): Promise<Map<string, FileSides>> {
	const sides = new Map<string, FileSides>();
	try {
		const repository = await git.openRepository(vscode.Uri.file(workspace));
		for (const change of await repository?.diffBetween(left, right) ?? []) {
			sides.set(path.relative(workspace, change.uri.fsPath).split(path.sep).join('/'), fileSidesOf(change.status));
		}
	} catch {
		// Both sides for every file, as before: the diff editor then leaves out what it cannot read.
	}
	return sides;
}

export function openTaskChanges(ctx: ActionContext, args: CommandArgs): Promise<number | undefined> {
	return runAction(ctx, 'Open Changes', async () => {
		const client = ctx.services.client();
		let ref = taskRefOf(args);
		if (ref === undefined) {
			const issueId = await pickIssue(ctx.services, 'Changes of a task in which issue?');
			const issue = issueId === undefined ? undefined : await client.call('issue/get', { issueId });
			const picked = issue && await vscode.window.showQuickPick(
				issue.tasks.filter((t) => t.latestRunId !== '').map((t) => ({ label: t.title, description: t.status, taskId: t.taskId })),
				{ placeHolder: 'Open the changes of which task?' });
			ref = issue && picked ? { issueId: issue.issueId, taskId: picked.taskId } : undefined;
		}
		if (ref === undefined) {
			return undefined;
		}
		const { taskId, issueId } = ref;
		const task = (await client.call('issue/get', { issueId })).tasks.find((t) => t.taskId === taskId);
		if (task === undefined || task.latestRunId === '') {
			throw new Error(`task ${taskId} has not run yet, so it has no changes`);
		}
		const run = await client.call('run/get', { runId: task.latestRunId });
		const plan = taskDiffPlan(task.title, run);
		const title = plan.kind === 'none' ? '' : ctx.reviewDiffs.tabs.titleFor({ issueId, taskId, taskTitle: task.title }, plan.note);
		if (plan.kind === 'none') {
			void vscode.window.showInformationMessage(`Tutti: ${plan.why}.`);
			return 0;
		}
		const workspace = ctx.services.workspace ?? '';
		const git = await gitApi();
		if (plan.kind === 'files') {
			// The commits live in the workspace's repository (worktrees share its objects).
			const at = (file: string, sha: string): vscode.Uri => git.toGitUri(vscode.Uri.file(path.join(workspace, file)), sha);
			const right = plan.right;
			const sides = right.kind === 'commit' ? await fileSides(git, workspace, plan.left, right.sha) : new Map<string, FileSides>();
			ctx.services.reviewComments.openReview(taskId, plan.files, task.title);
			await vscode.commands.executeCommand('vscode.changes', title, plan.files.map((file) => {
				const resource = vscode.Uri.file(path.join(workspace, file));
				const side = sides.get(file) ?? 'both';
				return [resource, side === 'added' ? undefined : at(file, plan.left), side === 'deleted' ? undefined : right.kind === 'commit' ? at(file, right.sha) : resource];
			}));
			return plan.files.length;
		}
		const dir = path.resolve(workspace, plan.dir);
		const repository = await git.openRepository(vscode.Uri.file(dir));
		if (repository === null) {
			throw new Error(`${dir} (where task ${taskId} ran) is not in a git repository, so there is no diff to show`);
		}
		const changes = await repository.diffWith(plan.left);
		if (changes.length === 0) {
			void vscode.window.showInformationMessage(`Tutti: no changes in ${dir} since "${task.title}" started.`);
			return 0;
		}
		ctx.services.reviewComments.openReview(taskId, changes.map((c) => path.relative(workspace, c.uri.fsPath)), task.title);
		await vscode.commands.executeCommand('vscode.changes', title,
			changes.map((c) => [c.uri, git.toGitUri(c.uri, plan.left), c.uri]));
		return changes.length;
	});
}

/** `(issueId)`: the issue's base commit against its accepted commits combined, in VS Code's multi-file diff view. */
export function openIssueChanges(ctx: ActionContext, args: CommandArgs): Promise<number | undefined> {
	return runAction(ctx, 'Open Combined Diff', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'The combined diff of which issue?', (i) => i.controls.combinedChanges);
		if (issueId === undefined) { return undefined; }
		const client = ctx.services.client();
		const changes = await client.call('issue/changes', { issueId });
		const issueTitle = ctx.services.changes.current?.issues.find((i) => i.issueId === issueId)?.title ?? issueId;
		if (changes.files.length === 0) {
			void vscode.window.showInformationMessage(`Tutti: ${changes.note !== '' ? changes.note : 'no changes to show'}.`);
			return 0;
		}
		const workspace = ctx.services.workspace ?? '';
		const git = await gitApi();
		const sides = await fileSides(git, workspace, changes.baseCommit, changes.combinedCommit);
		const at = (file: string, sha: string): vscode.Uri => git.toGitUri(vscode.Uri.file(path.join(workspace, file)), sha);
		const tasks = changes.taskIds.length === 1 ? '1 accepted task' : `${changes.taskIds.length} accepted tasks`;
		await vscode.commands.executeCommand('vscode.changes', `Changes of issue "${issueTitle}" (${tasks})`, changes.files.map(({ path: file }) => {
			const side = sides.get(file) ?? 'both';
			return [vscode.Uri.file(path.join(workspace, file)), side === 'added' ? undefined : at(file, changes.baseCommit), side === 'deleted' ? undefined : at(file, changes.combinedCommit)];
		}));
		return changes.files.length;
	});
}
