// Store and workspace actions: Start in Folder, Show Store Location, Export Issue, Refresh.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type ExportFormat, exportFileName, formatIssueExport } from '../export/issueExport.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, optionsOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';

export function startInFolder(ctx: ActionContext): Promise<string | undefined> {
	return runAction(ctx, 'Start in Folder', async () => {
		const state = await ctx.services.connection.startInFolder();
		if (state.kind === 'failed') {
			throw new Error(state.message);
		}
		if (state.kind === 'noFolder') {
			throw new Error('open a folder first');
		}
		return state.kind;
	});
}

export function showStoreLocation(ctx: ActionContext): Promise<string | undefined> {
	return runAction(ctx, 'Show Store Location', async () => {
		const state = ctx.services.connection.state;
		if (state.kind !== 'owner' && state.kind !== 'viewer' && state.kind !== 'noStore' && state.kind !== 'unknownStore') {
			throw new Error('there is no store for this window (open a folder first)');
		}
		const dir = state.kind === 'owner' ? state.host.tuttiDir : path.join(state.workspace, '.tutti');
		const how = state.kind === 'owner' ? 'owned by this window' : state.kind === 'viewer' ? `owned by another window (pid ${state.ownerPid ?? '?'})`
			: state.kind === 'unknownStore' ? 'came with the folder, not opened on this machine yet' : 'not created yet';
		const choice = await vscode.window.showInformationMessage(`Tutti store: ${dir} (${how})`, 'Copy Path', 'Reveal');
		if (choice === 'Copy Path') {
			await vscode.env.clipboard.writeText(dir);
		} else if (choice === 'Reveal') {
			await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(dir));
		}
		return dir;
	});
}

/** Arguments that skip the prompts: `{ issueId, format, uri }`. */
export interface ExportArgs {
	readonly issueId?: string;
	readonly format?: ExportFormat;
	readonly uri?: vscode.Uri | string;
}

export function exportIssue(ctx: ActionContext, commandArgs: CommandArgs): Promise<vscode.Uri | undefined> {
	const args = optionsOf<ExportArgs>(commandArgs);
	return runAction(ctx, 'Export Issue', async () => {
		const client = ctx.services.client();
		const issueId = issueIdOf(commandArgs) ?? await pickIssue(ctx.services, 'Export which issue?');
		if (issueId === undefined) {
			return undefined;
		}
		const format = args.format ?? (await vscode.window.showQuickPick(
			[{ label: 'Markdown', format: 'markdown' as const }, { label: 'JSON', format: 'json' as const }],
			{ placeHolder: 'Export as' }))?.format;
		if (format === undefined) {
			return undefined;
		}
		const [issue, runs] = await Promise.all([client.call('issue/get', { issueId }), client.call('run/list', { issueId })]);
		const plan = issue.planningSource === 'tutti' ? await client.call('plan/get', { issueId }) : null;
		const text = formatIssueExport({ exportedAtUnixMs: Date.now(), issue, plan, runs: runs.runs }, format);
		const base = ctx.services.workspace ? vscode.Uri.file(ctx.services.workspace) : undefined;
		const uri = typeof args.uri === 'string' ? vscode.Uri.file(args.uri) : args.uri ?? await vscode.window.showSaveDialog({
			defaultUri: base ? vscode.Uri.joinPath(base, exportFileName(issue, format)) : undefined,
			filters: format === 'json' ? { JSON: ['json'] } : { Markdown: ['md'] },
			saveLabel: 'Export',
		});
		if (uri === undefined) {
			return undefined;
		}
		await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
		void vscode.window.showInformationMessage(`Tutti: exported "${issue.title}" to ${uri.fsPath}.`);
		return uri;
	});
}
