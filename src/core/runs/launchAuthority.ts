// How much a task's launch settings let its agent do, compared with what the developer configured (SECURITY.md, "Who may do what"):
// an agent may narrow what it was given, never widen it. A permission mode is compared with the mode the task's
// agent target runs with when a task names none (the target's configured default: its own `args`, else the
// adapter's default); auto-accept with the issue's default. Pure: the Host decides who is asking.
import type { AgentTargetConfig } from './runProcessPort.js';

/**
 * Each adapter's permission modes, narrowest first. claude: `dontAsk` denies whatever is not pre-approved, `plan`
 * reads and plans, `default` asks, `acceptEdits` edits without asking, `auto` lets a classifier approve, and
 * `bypassPermissions` checks nothing. codex: the sandbox modes of `codex exec -s`.
 */
export const permissionModeOrder: Readonly<Record<'claude' | 'codex', readonly string[]>> = {
	claude: ['dontAsk', 'plan', 'default', 'acceptEdits', 'auto', 'bypassPermissions'],
	codex: ['read-only', 'workspace-write', 'danger-full-access'],
};

/** The mode a target runs with when a task names none. */
const adapterDefaultMode: Readonly<Record<'claude' | 'codex', string>> = { claude: 'default', codex: 'workspace-write' };

/** The value of `--flag v`, `--flag=v` (or `-sV` for a short flag) in args; the last one wins, as in the agents' parsers. */
function lastFlagValue(args: readonly string[], names: readonly string[]): string | undefined {
	let value: string | undefined;
	args.forEach((arg, i) => {
		for (const name of names) {
			if (arg === name && i + 1 < args.length) { value = args[i + 1]; }
			else if (name.startsWith('--') && arg.startsWith(`${name}=`)) { value = arg.slice(name.length + 1); }
			else if (!name.startsWith('--') && arg.startsWith(name) && arg.length > name.length) { value = arg.slice(name.length); }
		}
	});
	return value;
}

/** `-c sandbox_mode="X"` in codex args (the last one). */
function codexConfigSandbox(args: readonly string[]): string | undefined {
	let value: string | undefined;
	args.forEach((arg, i) => {
		const m = (args[i - 1] === '-c' || args[i - 1] === '--config') ? /^sandbox_mode\s*=\s*"?([^"]*)"?\s*$/.exec(arg) : null;
		if (m) { value = m[1]; }
	});
	return value;
}

/**
 * The permission mode a target runs with when a task names none: what its own `args` choose, else the adapter's
 * default (claude `default`, codex `workspace-write`). '' for a command target (a permission mode never reaches it).
 */
export function targetDefaultPermissionMode(target: Pick<AgentTargetConfig, 'adapter' | 'args'>): string {
	if (target.adapter === 'command') { return ''; }
	const args = Array.isArray(target.args) ? target.args.filter((a): a is string => typeof a === 'string') : [];
	const order = permissionModeOrder[target.adapter];
	let chosen: string | undefined;
	if (target.adapter === 'claude') {
		chosen = args.includes('--dangerously-skip-permissions') ? 'bypassPermissions' : lastFlagValue(args, ['--permission-mode']);
	} else if (args.includes('--dangerously-bypass-approvals-and-sandbox') || args.includes('--yolo')) {
		chosen = 'danger-full-access';
	} else {
		chosen = lastFlagValue(args, ['--sandbox', '-s']) ?? codexConfigSandbox(args) ?? (args.includes('--full-auto') ? 'workspace-write' : undefined);
	}
	return chosen !== undefined && order.includes(chosen) ? chosen : adapterDefaultMode[target.adapter];
}

/** Where a requested permission mode stands against the target's default. */
export type ModeStanding =
	| { kind: 'within' }
	| { kind: 'wider'; targetDefault: string; narrower: readonly string[] }
	| { kind: 'unknown'; known: readonly string[] };

/** '' (the target's default) and any mode no wider than it are within; a command target takes any (it ignores it). */
export function permissionModeStanding(target: Pick<AgentTargetConfig, 'adapter' | 'args'>, requested: string): ModeStanding {
	if (target.adapter === 'command' || requested === '') { return { kind: 'within' }; }
	const order = permissionModeOrder[target.adapter];
	const rank = order.indexOf(requested);
	if (rank < 0) { return { kind: 'unknown', known: order }; }
	const targetDefault = targetDefaultPermissionMode(target);
	const allowed = order.indexOf(targetDefault);
	return rank <= allowed ? { kind: 'within' } : { kind: 'wider', targetDefault, narrower: order.slice(0, allowed + 1) };
}

/** The launch settings of a task that decide what its agent may do. */
export type LaunchGrantFields = { agentTargetId: string; permissionModeId: string; autoAccept: boolean };

/** What an agent's task write would widen (the first such setting), or null. */
export type LaunchWidening =
	| { field: 'permissionModeId'; requested: string; agentTargetId: string; standing: Exclude<ModeStanding, { kind: 'within' }> }
	| { field: 'autoAccept'; requested: true };

/**
 * The widening in an agent's write of `after` (null: none). `before`: the task as it was (absent for a new task,
 * a rework's replacement included, whose inherited settings count as asked for). A setting the write leaves as it
 * was is not the agent's doing; a mode is compared with the default of the target the task runs on after the write
 * (`target`; undefined when it names none — it cannot launch, and a later target clears the mode).
 */
export function launchWidening(
	after: LaunchGrantFields,
	before: LaunchGrantFields | undefined,
	target: Pick<AgentTargetConfig, 'adapter' | 'args'> | undefined,
	issueAutoAcceptDefault: boolean,
): LaunchWidening | null {
	const modeUnchanged = before !== undefined && before.agentTargetId === after.agentTargetId && before.permissionModeId === after.permissionModeId;
	if (!modeUnchanged && target !== undefined) {
		const standing = permissionModeStanding(target, after.permissionModeId);
		if (standing.kind !== 'within') { return { field: 'permissionModeId', requested: after.permissionModeId, agentTargetId: after.agentTargetId, standing }; }
	}
	const acceptUnchanged = before !== undefined && before.autoAccept === after.autoAccept;
	if (!acceptUnchanged && after.autoAccept && !issueAutoAcceptDefault) { return { field: 'autoAccept', requested: true }; }
	return null;
}
