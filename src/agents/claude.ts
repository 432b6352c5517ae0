// The `claude` adapter: Claude Code in print mode with the structured stream.
//
//   claude -p --input-format stream-json --output-format stream-json --verbose --replay-user-messages
//          (--session-id <uuid> | --resume <uuid>) [--model M] [--effort E] [--permission-mode P]
//          --allowedTools T... [extra/target args]
//
// - The prompt is the first stream-json user message on stdin, a pipe the Run's supervisor owns and keeps open
//   while the Turn runs, so messages sent meanwhile reach the model in the same Turn; each is replayed on
//   stdout, which is how the supervisor knows it arrived. Claude Code waits for more input after its `result`
//   line until stdin closes: the supervisor closes it at that line (src/supervisor/liveInputPump.ts).
// - Tool use must work without a prompt: `--allowedTools` with the target's tools (default: the `tutti` CLI
//   only). Claude Code refuses `bypassPermissions` as root unless IS_SANDBOX=1, so it is passed only
//   when the Turn's launch settings ask for it, never by default.
// - `--resume` finds a session only from the cwd it was created in; the caller keeps the cwd.
// - No positional prompt: a prompt that starts with `-` is never read as a flag, and the variadic
//   `--allowedTools` has nothing to swallow.
import type { AgentTargetConfig, RunLaunchSpec } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { checkAgentTarget, invalidAgentTarget, targetEnv, turnExtraArgs, turnValue } from './agentTarget.js';
import { parseClaudeTurnFacts } from './claudeStream.js';

/** The tools a claude target may use when it lists none: the `tutti` CLI, nothing else. */
export const defaultClaudeAllowedTools: readonly string[] = ['Bash(tutti:*)'];

/** Claude Code 2.1.197 `--permission-mode` choices. */
export const claudePermissionModes: readonly string[] = ['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan'];

/** Claude Code 2.1.197 `--effort` levels. */
export const claudeEffortLevels: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max'];

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sessionId(target: AgentTargetConfig, what: string, id: string): string {
	if (!uuidPattern.test(id)) { throw invalidAgentTarget(target, `the ${what} '${id}' is not a UUID`, 'Claude Code session ids are UUIDs; start a new session instead.'); }
	return id;
}

/** The argv (after the executable) of one claude Turn. Throws DomainError('invalid_input') for a bad target or Turn. */
export function claudeArgs(spec: RunLaunchSpec): string[] {
	checkAgentTarget(spec.target, 'claude');
	return turnArgs(spec);
}

/** claudeArgs for a target already checked. */
function turnArgs(spec: RunLaunchSpec): string[] {
	const target = spec.target;
	const turn = spec.turn;
	const prompt = turn?.prompt ?? spec.stdinText;
	if (prompt.trim() === '') { throw invalidAgentTarget(target, 'the Turn has no prompt', 'Give the task some content (its prompt), then launch it again.'); }
	turnValue(target, 'the prompt', prompt);
	const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'];
	if (turn?.resumeProviderSessionId !== undefined) {
		args.push('--resume', sessionId(target, 'session to resume', turn.resumeProviderSessionId));
	} else if (turn?.newProviderSessionId !== undefined) {
		args.push('--session-id', sessionId(target, 'new session id', turn.newProviderSessionId));
	}
	const model = turn?.model ?? target.model;
	if (model !== undefined && model !== '') { args.push('--model', turnValue(target, 'the model', model)); }
	const effort = turn?.reasoningEffort;
	if (effort !== undefined && effort !== '') {
		if (!claudeEffortLevels.includes(effort)) { throw invalidAgentTarget(target, `the effort '${effort}' is not one of ${claudeEffortLevels.join(', ')}`); }
		args.push('--effort', effort);
	}
	const mode = turn?.permissionModeId;
	if (mode !== undefined && mode !== '') {
		if (!claudePermissionModes.includes(mode)) { throw invalidAgentTarget(target, `the permission mode '${mode}' is not one of ${claudePermissionModes.join(', ')}`); }
		args.push('--permission-mode', mode);
	}
	const allowed = target.allowedTools ?? [...defaultClaudeAllowedTools];
	if (allowed.length > 0) { args.push('--allowedTools', ...allowed); }
	args.push(...turnExtraArgs(target, turn?.extraArgs), ...(target.args ?? []));
	return args;
}

/** Checks a `claude` target and returns the process for one Turn. */
export function claudeCommandFor(spec: RunLaunchSpec): AgentCommand {
	const target = spec.target;
	checkAgentTarget(target, 'claude');
	return { file: target.path ?? 'claude', args: turnArgs(spec), shell: false, env: targetEnv(target), stdin: 'live', livePrompt: spec.turn?.prompt ?? spec.stdinText };
}

export const claudeAdapter: AgentAdapter = {
	adapter: 'claude',
	commandFor: claudeCommandFor,
	parseTurnFacts: parseClaudeTurnFacts,
};
