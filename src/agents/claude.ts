// The `claude` adapter: Claude Code in print mode with the structured stream (agent-cli-protocols.md §2).
//
//   claude -p --input-format stream-json --output-format stream-json --verbose --replay-user-messages
//          (--session-id <uuid> | --resume <uuid>) [--model M] [--effort E] [--permission-mode P]
//          --allowedTools T... [extra/target args]
//
// - The prompt is the first stream-json user message on stdin, a pipe the Run's supervisor owns and keeps open
//   while the Turn runs, so messages sent meanwhile reach the model in the same Turn (§2.8); each is replayed on
//   stdout, which is how the supervisor knows it arrived. Claude Code waits for more input after its `result`
//   line until stdin closes: the supervisor closes it at that line (src/supervisor/liveInputPump.ts).
// - Tool use must work without a prompt: `--allowedTools` with the target's tools (default: the `tutti` CLI
//   only). Claude Code refuses `bypassPermissions` as root unless IS_SANDBOX=1 (§2.1), so it is passed only
//   when the Turn's launch settings ask for it, never by default.
// - `--resume` finds a session only from the cwd it was created in (§2.3); the caller keeps the cwd.
// - No positional prompt: a prompt that starts with `-` is never read as a flag, and the variadic
//   `--allowedTools` has nothing to swallow.
import { DomainError } from '../core/errors.js';
import type { AgentTargetConfig, RunLaunchSpec } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { parseClaudeTurnFacts } from './claudeStream.js';

/** The tools a claude target may use when it lists none: the `tutti` CLI, nothing else. */
export const defaultClaudeAllowedTools: readonly string[] = ['Bash(tutti:*)'];

/** Claude Code 2.1.197 `--permission-mode` choices. */
export const claudePermissionModes: readonly string[] = ['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan'];

/** Claude Code 2.1.197 `--effort` levels. */
export const claudeEffortLevels: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max'];

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function invalidClaudeTarget(target: AgentTargetConfig, problem: string, next?: string): DomainError {
	return new DomainError(
		'invalid_input',
		`Agent target '${target.id}' cannot be started: ${problem}.`,
		next ?? 'Fix the target in .tutti/config.json, e.g. {"id":"claude","adapter":"claude","allowedTools":["Bash(tutti:*)","Bash(npm test:*)"]}, then run `tutti agent list --json`.',
		{ agentTargetId: target.id },
	);
}

function noNul(target: AgentTargetConfig, what: string, value: string): string {
	if (value.includes('\0')) { throw invalidClaudeTarget(target, `${what} must not contain NUL characters`); }
	return value;
}

function targetEnv(target: AgentTargetConfig): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(target.env ?? {})) {
		if (typeof v !== 'string' || k === '' || k.includes('=') || k.includes('\0') || v.includes('\0')) {
			throw invalidClaudeTarget(target, `environment variable '${k}' is not a valid NAME=string pair`);
		}
		env[k] = v;
	}
	return env;
}

function stringList(target: AgentTargetConfig, what: string, value: unknown): string[] {
	if (value === undefined) { return []; }
	if (!Array.isArray(value) || !value.every((a) => typeof a === 'string')) { throw invalidClaudeTarget(target, `"${what}" must be an array of strings`); }
	return value.map((a) => noNul(target, `"${what}"`, a));
}

function sessionId(target: AgentTargetConfig, what: string, id: string): string {
	if (!uuidPattern.test(id)) { throw invalidClaudeTarget(target, `the ${what} '${id}' is not a UUID`, 'Claude Code session ids are UUIDs; start a new session instead.'); }
	return id;
}

/** The argv (after the executable) of one claude Turn. Throws DomainError('invalid_input') for a bad target or Turn. */
export function claudeArgs(spec: RunLaunchSpec): string[] {
	const target = spec.target;
	const turn = spec.turn;
	const prompt = turn?.prompt ?? spec.stdinText;
	if (prompt.trim() === '') { throw invalidClaudeTarget(target, 'the Turn has no prompt', 'Give the task some content (its prompt), then launch it again.'); }
	noNul(target, 'the prompt', prompt);
	const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'];
	if (turn?.resumeProviderSessionId !== undefined) {
		args.push('--resume', sessionId(target, 'session to resume', turn.resumeProviderSessionId));
	} else if (turn?.newProviderSessionId !== undefined) {
		args.push('--session-id', sessionId(target, 'new session id', turn.newProviderSessionId));
	}
	const model = turn?.model ?? target.model;
	if (model !== undefined && model !== '') { args.push('--model', noNul(target, 'the model', model)); }
	const effort = turn?.reasoningEffort;
	if (effort !== undefined && effort !== '') {
		if (!claudeEffortLevels.includes(effort)) { throw invalidClaudeTarget(target, `the effort '${effort}' is not one of ${claudeEffortLevels.join(', ')}`); }
		args.push('--effort', effort);
	}
	const mode = turn?.permissionModeId;
	if (mode !== undefined && mode !== '') {
		if (!claudePermissionModes.includes(mode)) { throw invalidClaudeTarget(target, `the permission mode '${mode}' is not one of ${claudePermissionModes.join(', ')}`); }
		args.push('--permission-mode', mode);
	}
	const allowed = target.allowedTools !== undefined ? stringList(target, 'allowedTools', target.allowedTools) : [...defaultClaudeAllowedTools];
	if (allowed.length > 0) { args.push('--allowedTools', ...allowed); }
	args.push(...stringList(target, 'extraArgs', turn?.extraArgs), ...stringList(target, 'args', target.args));
	return args;
}

/** Validates a `claude` target and returns the process for one Turn. */
export function claudeCommandFor(spec: RunLaunchSpec): AgentCommand {
	const target = spec.target;
	if (target.adapter !== 'claude') { throw invalidClaudeTarget(target, `it uses the '${target.adapter}' adapter, not 'claude'`); }
	const file = target.path ?? 'claude';
	if (typeof file !== 'string' || file.trim() === '') { throw invalidClaudeTarget(target, '"path" is empty'); }
	noNul(target, '"path"', file);
	return { file, args: claudeArgs(spec), shell: false, env: targetEnv(target), stdin: 'live', livePrompt: spec.turn?.prompt ?? spec.stdinText };
}

export const claudeAdapter: AgentAdapter = {
	adapter: 'claude',
	commandFor: claudeCommandFor,
	parseTurnFacts: parseClaudeTurnFacts,
};
