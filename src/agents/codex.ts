// The `codex` adapter: Codex CLI in exec mode with the JSONL stream.
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
import type { AgentTargetConfig, RunLaunchSpec } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { checkAgentTarget, invalidAgentTarget, targetEnv, turnExtraArgs, turnValue } from './agentTarget.js';
import { parseCodexTurnFacts } from './codexStream.js';
import { tomlString } from './stopHook.js';

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

/** Checks a `codex` target and returns the process for one Turn. */
export function codexCommandFor(spec: RunLaunchSpec): AgentCommand {
	const target = spec.target;
	checkAgentTarget(target, 'codex');
	return { file: target.path ?? 'codex', args: turnArgs(spec), shell: false, env: targetEnv(target), stdin: 'devnull' };
}

export const codexAdapter: AgentAdapter = {
	adapter: 'codex',
	commandFor: codexCommandFor,
	parseTurnFacts: parseCodexTurnFacts,
};
