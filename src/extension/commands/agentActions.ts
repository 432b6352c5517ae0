// Tutti: Add Agent — sets up an agent target without editing JSON: finds `claude` and `codex` on PATH and in the
// workspace's node_modules/.bin (or lets the developer browse), asks for a name, the model and (Claude Code) the
// allowed tools and whether other tool calls ask the developer (approvals), and appends the target to the
// workspace's `tutti.agentTargets` setting. The Host restarts to apply it (a settings change does that already).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type AgentAdapter, agentAdapters, discoverAgents } from '../agents/agentDiscovery.js';
import { existingTargetIds, parseAllowedTools, uniqueTargetId, withAgentTarget } from '../agents/agentTargetSetting.js';
import { settingsSection } from '../settings/tuttiSettings.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, optionsOf } from './commandArgs.js';

/** Arguments that skip the prompts (tests, scripts). */
export interface AddAgentArgs {
	readonly adapter?: AgentAdapter;
	readonly path?: string;
	readonly id?: string;
	readonly model?: string;
	readonly allowedTools?: readonly string[];
	readonly approvals?: 'ask' | 'allowed-tools-only';
}

export interface AddAgentResult {
	readonly id: string;
}

interface Picked<T> extends vscode.QuickPickItem {
	readonly value: T;
}

const adapterNames: Readonly<Record<AgentAdapter, string>> = { claude: 'Claude Code', codex: 'Codex' };

async function pickExecutable(workspace: string | undefined): Promise<{ adapter: AgentAdapter; path: string } | undefined> {
	const found = discoverAgents({ pathEnv: process.env['PATH'], workspace, pathExt: process.env['PATHEXT'] });
	const items: Picked<{ adapter: AgentAdapter; path: string } | AgentAdapter>[] = [
		...found.map((f) => ({
			label: `$(hubot) ${adapterNames[f.adapter]}`,
			description: f.source === 'workspace' ? 'in this workspace\'s node_modules' : 'on PATH',
			detail: f.path,
			value: { adapter: f.adapter, path: f.path },
		})),
		...agentAdapters.map((adapter) => ({ label: `$(folder-opened) Browse for ${adapterNames[adapter]}…`, description: found.some((f) => f.adapter === adapter) ? '' : 'not found on PATH', value: adapter })),
	];
	const picked = await vscode.window.showQuickPick(items, {
		placeHolder: found.length === 0 ? 'Neither claude nor codex is on PATH: browse for the executable' : 'Which agent CLI should run Tutti\'s tasks?',
		ignoreFocusOut: true, matchOnDetail: true,
	});
	if (picked === undefined) { return undefined; }
	if (typeof picked.value !== 'string') { return picked.value; }
	const adapter = picked.value;
	const uris = await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: false, canSelectMany: false, title: `The ${adapterNames[adapter]} executable (${adapter})` });
	const file = uris?.[0]?.fsPath;
	return file === undefined ? undefined : { adapter, path: file };
}

export function addAgent(ctx: ActionContext, commandArgs: CommandArgs): Promise<AddAgentResult | undefined> {
	const args = optionsOf<AddAgentArgs>(commandArgs);
	const scripted = args.adapter !== undefined;
	return runAction(ctx, 'Add Agent', async () => {
		const config = vscode.workspace.getConfiguration(settingsSection);
		const current = config.inspect<unknown>('agentTargets')?.workspaceValue;
		const executable = scripted ? { adapter: args.adapter as AgentAdapter, path: args.path ?? '' } : await pickExecutable(ctx.services.workspace);
		if (executable === undefined) { return undefined; }
		const taken = existingTargetIds(current);
		const id = args.id ?? (scripted ? undefined : await vscode.window.showInputBox({
			prompt: 'A name for this agent target (tasks and the New Issue form use it)',
			value: uniqueTargetId(executable.adapter, taken),
			ignoreFocusOut: true,
			validateInput: (text) => text.trim() === '' ? 'Required' : taken.includes(text.trim()) ? `"${text.trim()}" is taken` : text.trim().length > 200 ? 'At most 200 characters' : undefined,
		}));
		if (id === undefined && !scripted) { return undefined; }
		const model = args.model ?? (scripted ? undefined : await vscode.window.showInputBox({
			prompt: `The model ${adapterNames[executable.adapter]} should use (empty: its default)`,
			placeHolder: executable.adapter === 'claude' ? 'e.g. sonnet, opus' : 'e.g. gpt-5-codex',
			ignoreFocusOut: true,
		}));
		if (model === undefined && !scripted) { return undefined; }
		let allowedTools = args.allowedTools;
		if (allowedTools === undefined && !scripted && executable.adapter === 'claude') {
			const text = await vscode.window.showInputBox({
				prompt: 'Tools Claude Code may use without asking, comma-separated (empty: Tutti\'s defaults)',
				placeHolder: 'Read, Edit, Write, Bash(npm test:*)',
				ignoreFocusOut: true,
			});
			if (text === undefined) { return undefined; }
			allowedTools = parseAllowedTools(text);
		}
		let approvals = args.approvals;
		if (approvals === undefined && !scripted && executable.adapter === 'claude') {
			const picked = await vscode.window.showQuickPick([
				{ label: 'Ask me', description: 'a tool call outside the allowed tools waits for your answer (an approval request)', value: 'ask' as const },
				{ label: 'Allowed tools only', description: 'other tool calls are denied without asking', value: 'allowed-tools-only' as const },
			], { placeHolder: 'When Claude Code wants a tool it is not allowed to use', ignoreFocusOut: true });
			if (picked === undefined) { return undefined; }
			approvals = picked.value;
		}
		const update = withAgentTarget(current, { ...executable, ...(id !== undefined ? { id } : {}), ...(model !== undefined ? { model } : {}), ...(allowedTools ? { allowedTools } : {}), ...(approvals ? { approvals } : {}) });
		if (!update.ok) { throw new Error(update.error); }
		await config.update('agentTargets', update.targets, vscode.ConfigurationTarget.Workspace);
		ctx.services.log.info(`agent target "${update.id}" (${executable.adapter}${executable.path ? ` at ${path.basename(executable.path)}` : ''}) added to the workspace settings`);
		void vscode.window.showInformationMessage(`Tutti: agent "${update.id}" is set up; tasks and new issues can use it.`);
		return { id: update.id };
	});
}
