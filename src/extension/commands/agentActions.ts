// Tutti: Add Agent — sets up an agent target without editing JSON: finds `claude` and `codex` on PATH and in the
// workspace's node_modules/.bin (or lets the developer browse), or takes a custom command (its command line, working
// directory and environment); asks for a name, the model and (Claude Code) the allowed tools and whether other tool
// calls ask the developer (approvals), and appends the target to the workspace's `tutti.agentTargets` setting. An
// absolute executable is this machine's: it goes into the user's machine-scoped `tutti.agentPaths`, never into the
// folder's settings a team commits. The Host restarts to apply it (a settings change does that already).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type AgentAdapter, agentAdapters, discoverAgents } from '../agents/agentDiscovery.js';
import {
	existingTargetIds, type NewAgentTarget, type Parsed, parseAllowedTools, parseEnvPairs, splitCommandLine, uniqueTargetId, withAgentPath, withAgentTarget,
} from '../agents/agentTargetSetting.js';
import { settingsSection } from '../settings/tuttiSettings.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, optionsOf } from './commandArgs.js';

/** Arguments that skip the prompts (tests, scripts). */
export interface AddAgentArgs {
	readonly adapter?: AgentAdapter | 'command';
	readonly path?: string;
	/** command: the argument vector (or `commandLine`, split like shell words). */
	readonly argv?: readonly string[];
	readonly commandLine?: string;
	readonly cwd?: string;
	readonly env?: Readonly<Record<string, string>>;
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

type Executable = { adapter: AgentAdapter; path: string } | { adapter: 'command'; path: ''; argv: string[]; cwd: string; env: Record<string, string> };

/** An input box whose text must parse; undefined when cancelled. */
async function askParsed<T>(options: vscode.InputBoxOptions, parse: (text: string) => Parsed<T>): Promise<T | undefined> {
	const text = await vscode.window.showInputBox({ ...options, ignoreFocusOut: true, validateInput: (t) => { const r = parse(t); return r.ok ? undefined : r.error; } });
	if (text === undefined) { return undefined; }
	const parsed = parse(text);
	return parsed.ok ? parsed.value : undefined;
}

/** "Custom command…": the command line, its working directory and its environment, each one line of text. */
async function askCustomCommand(): Promise<Executable | undefined> {
	const argv = await askParsed({
		title: 'Custom command (1/3)', prompt: 'The command that runs a task: it gets the task on stdin, its exit code decides the outcome; no shell (quote an argument with spaces)',
		placeHolder: 'e.g. python3 agents/run.py --fast',
	}, splitCommandLine);
	if (argv === undefined) { return undefined; }
	const cwd = await vscode.window.showInputBox({
		title: 'Custom command (2/3)', prompt: 'Its working directory, relative to the workspace (empty: the task\'s own folder or worktree)', placeHolder: 'e.g. tools', ignoreFocusOut: true,
	});
	if (cwd === undefined) { return undefined; }
	const env = await askParsed({
		title: 'Custom command (3/3)', prompt: 'Extra environment variables, NAME=value separated by spaces (empty: none)', placeHolder: 'e.g. MODE=fast API_URL=http://127.0.0.1:8080/v1',
	}, parseEnvPairs);
	if (env === undefined) { return undefined; }
	return { adapter: 'command', path: '', argv, cwd: cwd.trim(), env };
}

const customCommand = 'custom';

async function pickExecutable(workspace: string | undefined): Promise<Executable | undefined> {
	const found = discoverAgents({ pathEnv: process.env['PATH'], workspace, pathExt: process.env['PATHEXT'] });
	const items: Picked<{ adapter: AgentAdapter; path: string } | AgentAdapter | typeof customCommand>[] = [
		...found.map((f) => ({
			label: `$(hubot) ${adapterNames[f.adapter]}`,
			description: f.source === 'workspace' ? 'in this workspace\'s node_modules' : 'on PATH',
			detail: f.path,
			value: { adapter: f.adapter, path: f.path },
		})),
		...agentAdapters.map((adapter) => ({ label: `$(folder-opened) Browse for ${adapterNames[adapter]}…`, description: found.some((f) => f.adapter === adapter) ? '' : 'not found on PATH', value: adapter })),
		{ label: '$(terminal) Custom command…', description: 'any program: it runs tasks (it cannot plan an issue)', value: customCommand },
	];
	const picked = await vscode.window.showQuickPick(items, {
		placeHolder: found.length === 0 ? 'Neither claude nor codex is on PATH: browse for the executable, or run a custom command' : 'Which agent CLI should run Tutti\'s tasks?',
		ignoreFocusOut: true, matchOnDetail: true,
	});
	if (picked === undefined) { return undefined; }
	if (picked.value === customCommand) { return askCustomCommand(); }
	if (typeof picked.value !== 'string') { return picked.value; }
	const adapter = picked.value;
	const uris = await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: false, canSelectMany: false, title: `The ${adapterNames[adapter]} executable (${adapter})` });
	const file = uris?.[0]?.fsPath;
	return file === undefined ? undefined : { adapter, path: file };
}

/** The scripted arguments as an executable; a bad command line or environment is refused like the prompts refuse it. */
function scriptedExecutable(args: AddAgentArgs): Executable {
	if (args.adapter !== 'command') { return { adapter: args.adapter ?? 'claude', path: args.path ?? '' }; }
	const argv = args.argv !== undefined ? { ok: true as const, value: [...args.argv] } : splitCommandLine(args.commandLine ?? '');
	if (!argv.ok) { throw new Error(`the command line: ${argv.error}`); }
	return { adapter: 'command', path: '', argv: argv.value, cwd: args.cwd ?? '', env: { ...args.env } };
}

export function addAgent(ctx: ActionContext, commandArgs: CommandArgs): Promise<AddAgentResult | undefined> {
	const args = optionsOf<AddAgentArgs>(commandArgs);
	const scripted = args.adapter !== undefined;
	return runAction(ctx, 'Add Agent', async () => {
		const config = vscode.workspace.getConfiguration(settingsSection);
		const current = config.inspect<unknown>('agentTargets')?.workspaceValue;
		const executable = scripted ? scriptedExecutable(args) : await pickExecutable(ctx.services.workspace);
		if (executable === undefined) { return undefined; }
		const taken = existingTargetIds(current);
		const suggested = executable.adapter === 'command' ? path.basename(executable.argv[0] ?? 'command').replace(/[^\w.-]+/g, '-') || 'command' : executable.adapter;
		const id = args.id ?? (scripted ? undefined : await vscode.window.showInputBox({
			prompt: 'A name for this agent target (tasks and the New Issue form use it)',
			value: uniqueTargetId(suggested, taken),
			ignoreFocusOut: true,
			validateInput: (text) => text.trim() === '' ? 'Required' : taken.includes(text.trim()) ? `"${text.trim()}" is taken` : text.trim().length > 200 ? 'At most 200 characters' : undefined,
		}));
		if (id === undefined && !scripted) { return undefined; }
		const model = args.model ?? (scripted || executable.adapter === 'command' ? undefined : await vscode.window.showInputBox({
			prompt: `The model ${adapterNames[executable.adapter]} should use (empty: its default)`,
			placeHolder: executable.adapter === 'claude' ? 'e.g. sonnet, opus' : 'e.g. gpt-5-codex',
			ignoreFocusOut: true,
		}));
		if (model === undefined && !scripted && executable.adapter !== 'command') { return undefined; }
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
		const target: NewAgentTarget = {
			...executable, ...(id !== undefined ? { id } : {}), ...(model !== undefined ? { model } : {}), ...(allowedTools ? { allowedTools } : {}), ...(approvals ? { approvals } : {}),
		};
		const update = withAgentTarget(current, target, ctx.services.workspace);
		if (!update.ok) { throw new Error(update.error); }
		if (update.machinePath !== '') {
			// First this machine's path (user settings), then the target: the Host never sees the target without it.
			await config.update('agentPaths', withAgentPath(config.inspect<unknown>('agentPaths')?.globalValue, update.id, update.machinePath), vscode.ConfigurationTarget.Global);
		}
		await config.update('agentTargets', update.targets, vscode.ConfigurationTarget.Workspace);
		ctx.services.log.info(`agent target "${update.id}" (${executable.adapter}) added to the workspace settings${update.machinePath !== '' ? `; its executable on this machine (${update.machinePath}) to your user settings (tutti.agentPaths)` : ''}`);
		void vscode.window.showInformationMessage(executable.adapter === 'command'
			? `Tutti: agent "${update.id}" is set up; tasks can run on it.`
			: `Tutti: agent "${update.id}" is set up; tasks and new issues can use it.`);
		return { id: update.id };
	});
}
