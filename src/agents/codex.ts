// The `codex` adapter. A target's `protocol` picks how Codex runs: `app-server` (the default) speaks JSON-RPC with
// `codex app-server` through the Run's supervisor (docs/codex-app-server.md):
//
//   codex app-server -c allow_login_shell=false [-c sandbox_workspace_write.network_access=true]
//         [-c model_provider=tutti -c model_providers.tutti={…}] [extra/target args]
//
// with the thread's cwd, sandbox, approval policy and model, the effort and the thread to resume in the supervisor's
// plan, and the prompt as the turn's input. `exec` (for older Codex builds, and the fallback when a Codex has no
// app-server) runs Codex in exec mode with the JSONL stream:
//
//   codex exec --json --skip-git-repo-check -c allow_login_shell=false <sandbox flags> [-m M] [-c model_reasoning_effort="E"]
//         [-c model_provider=tutti -c model_providers.tutti={…}] [extra/target args] [resume <thread>] -- <prompt>
//
// - stdin is /dev/null: with an open stdin `codex exec` waits for EOF before it starts.
// - A model provider's base URL comes from the target's env `OPENAI_BASE_URL`; it becomes a custom provider
//   `tutti` with `wire_api="responses"` (the only wire API 0.171 accepts) and, when the target's env also has
//   `OPENAI_API_KEY`, `env_key="OPENAI_API_KEY"`. Without it Codex uses its own configured provider.
//   Retries stay Codex's (tests turn them off with `-c model_providers.tutti.request_max_retries=0` in args).
// - Sandbox and approvals: the Turn's permission mode (`read-only`, `workspace-write`, `danger-full-access`)
//   decides; without one, `workspace-write` with network access (a sandboxed shell may otherwise not reach the
//   Host's socket: connect EPERM) and `approval_policy="never"`, so nothing ever waits for a prompt. A target
//   whose `args` carry their own sandbox/approval flags gets none of ours.
// - `allow_login_shell=false`: Codex runs commands as `bash -lc`, and a login shell's /etc/profile resets PATH,
//   which drops the `tutti` shim the Run puts first on PATH (observed with 0.171: `tutti: command not found`).
//   A target can turn it back on with `-c allow_login_shell=true` in its args (later `-c` flags win).
// - `exec resume <thread>` continues a thread from any cwd (§3.4). The prompt goes after `--` so a prompt that
//   starts with `-` is never read as a flag.
import { targetDefaultPermissionMode } from '../core/runs/launchAuthority.js';
import { effectiveApprovals } from '../core/runs/targetDefaults.js';
import type { AgentTargetConfig, RunLaunchSpec } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { checkAgentTarget, invalidAgentTarget, targetEnv, turnExtraArgs, turnValue } from './agentTarget.js';
import type { CodexAppServerPlan } from './codexAppServerSession.js';
import { parseCodexTurnFacts } from './codexStream.js';
import { codexHookTrustFlag, codexStopHookCommandOf, tomlString } from './stopHook.js';

/** The name of the model provider the adapter defines when the target gives a base URL. */
export const codexProviderName = 'tutti';

/** Codex 0.171 sandbox modes (`-s`), accepted as a task's permission mode. */
export const codexSandboxModes: readonly string[] = ['read-only', 'workspace-write', 'danger-full-access'];

/** Codex 0.171 `model_reasoning_effort` values. */
export const codexEffortLevels: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** Flags in a target's `args` that mean the target chooses sandbox and approvals itself. */
const ownSandboxFlags = ['-s', '--sandbox', '-a', '--ask-for-approval', '--full-auto', '--approve-for-me', '--dangerously-bypass-approvals-and-sandbox', '--yolo'];
const ownSandboxConfig = /^(sandbox_mode|approval_policy)\s*=/;

const threadIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `args` already choose the sandbox or the approval policy (a flag, or `-c sandbox_mode=…`/`approval_policy=…`). */
export function choosesOwnSandbox(args: readonly string[]): boolean {
	return args.some((a, i) => ownSandboxFlags.includes(a) || ownSandboxFlags.some((f) => f.startsWith('--') && a.startsWith(`${f}=`))
		|| (/^-s./.test(a)) || ((args[i - 1] === '-c' || args[i - 1] === '--config') && ownSandboxConfig.test(a)));
}

/** The sandbox/approval flags for a permission mode ('' = the default: workspace-write with network). */
export function codexSandboxArgs(target: AgentTargetConfig, mode: string): string[] {
	const never = ['-c', 'approval_policy="never"'];
	switch (mode) {
		case '':
		case 'workspace-write':
			return ['-s', 'workspace-write', ...never, '-c', 'sandbox_workspace_write.network_access=true'];
		case 'read-only':
			return ['-s', 'read-only', ...never];
		case 'danger-full-access':
			return ['--dangerously-bypass-approvals-and-sandbox'];
		default:
			throw invalidAgentTarget(target, `the permission mode '${mode}' is not one of ${codexSandboxModes.join(', ')}`,
				`Set the task's permission mode to one of ${codexSandboxModes.join(', ')} (or leave it empty for workspace-write).`);
	}
}

/** The `-c` flags that point Codex at the target's `OPENAI_BASE_URL` (none when the target gives no base URL). */
export function codexProviderArgs(target: AgentTargetConfig): string[] {
	const env = target.env ?? {};
	const baseUrl = env.OPENAI_BASE_URL;
	if (baseUrl === undefined || baseUrl.trim() === '') { return []; }
	if (!/^https?:\/\/\S+$/.test(baseUrl)) { throw invalidAgentTarget(target, `OPENAI_BASE_URL '${baseUrl}' is not an http(s) URL`); }
	const fields = [`name=${tomlString(codexProviderName)}`, `base_url=${tomlString(baseUrl)}`, 'wire_api="responses"'];
	if (env.OPENAI_API_KEY !== undefined) { fields.push('env_key="OPENAI_API_KEY"'); }
	return ['-c', `model_provider=${tomlString(codexProviderName)}`, '-c', `model_providers.${codexProviderName}={${fields.join(',')}}`];
}

/** The argv (after the executable) of one codex Turn. Throws DomainError('invalid_input') for a bad target or Turn. */
export function codexArgs(spec: RunLaunchSpec): string[] {
	checkAgentTarget(spec.target, 'codex');
	return turnArgs(spec);
}

/** codexArgs for a target already checked. */
function turnArgs(spec: RunLaunchSpec): string[] {
	const target = spec.target;
	const turn = spec.turn;
	const prompt = turn?.prompt ?? spec.stdinText;
	if (prompt.trim() === '') { throw invalidAgentTarget(target, 'the Turn has no prompt', 'Give the task some content (its prompt), then launch it again.'); }
	const extraArgs = turnExtraArgs(target, turn?.extraArgs);
	const targetArgs = target.args ?? [];
	const args = ['exec', '--json', '--skip-git-repo-check', '-c', 'allow_login_shell=false'];
	const mode = turn?.permissionModeId ?? '';
	if (mode !== '' || !choosesOwnSandbox([...extraArgs, ...targetArgs])) { args.push(...codexSandboxArgs(target, mode)); }
	const model = turn?.model !== undefined && turn.model !== '' ? turn.model : target.model;
	if (model !== undefined && model !== '') { args.push('-m', turnValue(target, 'the model', model)); }
	const effort = turn?.reasoningEffort;
	if (effort !== undefined && effort !== '') {
		if (!codexEffortLevels.includes(effort)) { throw invalidAgentTarget(target, `the reasoning effort '${effort}' is not one of ${codexEffortLevels.join(', ')}`); }
		args.push('-c', `model_reasoning_effort=${tomlString(effort)}`);
	}
	args.push(...codexProviderArgs(target), ...extraArgs, ...targetArgs);
	const thread = turn?.resumeProviderSessionId;
	if (thread !== undefined) {
		if (!threadIdPattern.test(thread)) {
			throw invalidAgentTarget(target, `the thread to resume '${thread}' is not a Codex thread id`, 'Codex thread ids are UUIDs; start a new session instead.');
		}
		args.push('resume', thread);
	}
	args.push('--', turnValue(target, 'the prompt', prompt));
	return args;
}

/** The protocol a codex target runs with: `app-server` unless the target says `exec`. */
export function codexProtocol(target: Pick<AgentTargetConfig, 'protocol'>): 'app-server' | 'exec' {
	return target.protocol ?? 'app-server';
}

/** The approval policies a codex app-server thread takes (`on-failure` is gone from 0.171). */
const appServerApprovalPolicies: readonly string[] = ['never', 'on-request', 'untrusted'];

/** `codex exec` options with no `codex app-server` equivalent Tutti could give (or that would break its stdio). */
const execOnlyOptions = [
	'--json', '--skip-git-repo-check', '-C', '--cd', '--add-dir', '--oss', '--local-provider', '-p', '--profile', '--output-schema',
	'--color', '-o', '--output-last-message', '-i', '--image', '--ephemeral', '--worktree', '--trust', '--ignore-user-config',
	'--ignore-rules', '--thread-source', '--cyber-access-program', '--remote', '--remote-auth-token-env', '--approve-for-me',
	codexHookTrustFlag, '--listen', '--stdio',
];

/** The value of the option at `i` (`--x v`, `--x=v`, or `-xV` for a short one) and how many args it took; undefined when `args[i]` is not it. */
function optionAt(args: readonly string[], i: number, names: readonly string[]): { value: string; used: number } | undefined {
	const arg = args[i]!;
	for (const name of names) {
		if (arg === name) { return { value: args[i + 1] ?? '', used: 2 }; }
		if (name.startsWith('--') && arg.startsWith(`${name}=`)) { return { value: arg.slice(name.length + 1), used: 1 }; }
		if (!name.startsWith('--') && arg.startsWith(name) && arg.length > name.length) { return { value: arg.slice(name.length), used: 1 }; }
	}
	return undefined;
}

/**
 * A target's args for `codex app-server`: the exec options that choose the sandbox, the approval policy or the model
 * become the thread's settings (the sandbox itself is read by targetDefaultPermissionMode, as the Host's widening
 * check reads it); `-c` config passes through; an exec option app-server has no place for is refused.
 */
function appServerTargetArgs(target: AgentTargetConfig, args: readonly string[]): { args: string[]; approvalPolicy?: string; model?: string } {
	const out: string[] = [];
	let approvalPolicy: string | undefined;
	let model: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		const sandbox = optionAt(args, i, ['--sandbox', '-s']);
		const approval = optionAt(args, i, ['--ask-for-approval', '-a']);
		const chosenModel = optionAt(args, i, ['--model', '-m']);
		if (sandbox !== undefined) { i += sandbox.used - 1; continue; }
		if (approval !== undefined) { approvalPolicy = approval.value; i += approval.used - 1; continue; }
		if (chosenModel !== undefined) { model = chosenModel.value; i += chosenModel.used - 1; continue; }
		if (arg === '--dangerously-bypass-approvals-and-sandbox' || arg === '--yolo') { approvalPolicy = 'never'; continue; }
		if (arg === '--full-auto') { continue; }
		if (execOnlyOptions.some((o) => arg === o || (o.startsWith('--') && arg.startsWith(`${o}=`)))) {
			throw invalidAgentTarget(target, `"args" has '${arg}', a codex exec option that codex app-server does not take`,
				'Set "protocol": "exec" on the target to keep running `codex exec`, or remove the option from its "args".');
		}
		const config = (arg === '-c' || arg === '--config') ? /^approval_policy\s*=\s*"?([^"]*)"?\s*$/.exec(args[i + 1] ?? '') : null;
		if (config) { approvalPolicy = config[1]; }
		out.push(arg);
	}
	return { args: out, ...(approvalPolicy !== undefined ? { approvalPolicy } : {}), ...(model !== undefined ? { model } : {}) };
}

/** The extra args the Host gave with Tutti's Stop hook taken out (the supervisor runs it: app-server runs no untrusted hook). */
function withoutStopHook(extraArgs: readonly string[]): { args: string[]; stopHookCommand?: string } {
	const args: string[] = [];
	let stopHookCommand: string | undefined;
	for (let i = 0; i < extraArgs.length; i++) {
		const a = extraArgs[i]!;
		const command = a === '-c' && extraArgs[i + 1] !== undefined ? codexStopHookCommandOf(extraArgs[i + 1]!) : undefined;
		if (command !== undefined) { stopHookCommand = command; i++; continue; }
		if (a === codexHookTrustFlag) { continue; }
		args.push(a);
	}
	return stopHookCommand !== undefined ? { args, stopHookCommand } : { args };
}

/** The `codex app-server` argv and the supervisor's plan for one Turn. Throws DomainError('invalid_input') for a bad target or Turn. */
export function codexAppServerLaunch(spec: RunLaunchSpec): { args: string[]; plan: CodexAppServerPlan } {
	const target = spec.target;
	const turn = spec.turn;
	const execFallbackArgs = codexArgs(spec); // validates the prompt, model, effort, mode and thread as exec does
	const hook = withoutStopHook(turnExtraArgs(target, turn?.extraArgs));
	const own = appServerTargetArgs(target, target.args ?? []);
	// The Turn's mode (never wider than the target's default: the Host checks), else the target's default, as exec runs it.
	const mode = turn?.permissionModeId !== undefined && turn.permissionModeId !== '' ? turn.permissionModeId : targetDefaultPermissionMode(target);
	// A worker Turn's approvals become its Run's approvals (a wake Turn has no Run to attach them to: never asked).
	const askDeveloper = mode !== 'danger-full-access' && (spec.env.TUTTI_RUN_ID ?? '') !== '' && effectiveApprovals(target) === 'ask';
	const approvalPolicy = mode === 'danger-full-access' ? 'never' : own.approvalPolicy ?? (askDeveloper ? 'on-request' : 'never');
	if (!appServerApprovalPolicies.includes(approvalPolicy)) {
		throw invalidAgentTarget(target, `the approval policy '${approvalPolicy}' is not one codex app-server takes (${appServerApprovalPolicies.join(', ')})`);
	}
	const args = ['app-server', '-c', 'allow_login_shell=false'];
	// A sandboxed shell may otherwise not reach the Host's socket (connect EPERM), as with exec.
	if (mode === 'workspace-write') { args.push('-c', 'sandbox_workspace_write.network_access=true'); }
	// Questions (`request_user_input`) reach the developer only with this feature (under development in 0.171).
	if (askDeveloper) { args.push('--enable', 'default_mode_request_user_input'); }
	args.push(...codexProviderArgs(target), ...hook.args, ...own.args);
	const model = turn?.model !== undefined && turn.model !== '' ? turn.model : own.model ?? target.model;
	const effort = turn?.reasoningEffort;
	const plan: CodexAppServerPlan = {
		cwd: spec.cwd,
		sandbox: mode as CodexAppServerPlan['sandbox'] & string,
		approvalPolicy: approvalPolicy as CodexAppServerPlan['approvalPolicy'] & string,
		...(model !== undefined && model !== '' ? { model } : {}),
		...(effort !== undefined && effort !== '' ? { effort: effort as NonNullable<CodexAppServerPlan['effort']> } : {}),
		...(turn?.resumeProviderSessionId !== undefined ? { resumeThreadId: turn.resumeProviderSessionId } : {}),
		...(hook.stopHookCommand !== undefined ? { stopHookCommand: hook.stopHookCommand } : {}),
		...(askDeveloper && approvalPolicy !== 'never' ? { askDeveloper: true } : {}),
		execFallbackArgs,
	};
	return { args, plan };
}

/** Checks a `codex` target and returns the process for one Turn. */
export function codexCommandFor(spec: RunLaunchSpec): AgentCommand {
	const target = spec.target;
	checkAgentTarget(target, 'codex');
	const file = target.path ?? 'codex';
	if (codexProtocol(target) === 'exec') { return { file, args: turnArgs(spec), shell: false, env: targetEnv(target), stdin: 'devnull' }; }
	const { args, plan } = codexAppServerLaunch(spec);
	// The prompt is the turn's input: the first message the supervisor hands to app-server.
	return { file, args, shell: false, env: targetEnv(target), stdin: 'live', livePrompt: spec.turn?.prompt ?? spec.stdinText, appServer: plan };
}

export const codexAdapter: AgentAdapter = {
	adapter: 'codex',
	commandFor: codexCommandFor,
	parseTurnFacts: parseCodexTurnFacts,
};
