// Agent adapters turn an agent target into the exact process to start. The `command` adapter runs any
// executable with the target's argument array — never a shell string built from task text; a shell is used
// only when the target itself says `shell: true`. The task content reaches the agent on stdin.
import { DomainError } from '../core/errors.js';
import type { AgentTargetConfig } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';

function invalidTarget(target: AgentTargetConfig, problem: string): DomainError {
	return new DomainError(
		'invalid_input',
		`Agent target '${target.id}' cannot be started: ${problem}.`,
		'Fix the target in .tutti/config.json, e.g. {"id":"sh","adapter":"command","argv":["sh","./agent.sh"]}, then run `tutti agent list --json`.',
		{ agentTargetId: target.id },
	);
}

/** Validates a `command` target and returns the process to start. */
export function commandForTarget(target: AgentTargetConfig): AgentCommand {
	const argv = target.argv;
	if (!Array.isArray(argv) || argv.length === 0) { throw invalidTarget(target, 'a command target needs a non-empty "argv" array'); }
	if (!argv.every((a) => typeof a === 'string')) { throw invalidTarget(target, '"argv" must contain strings only'); }
	if (argv.some((a) => a.includes('\0'))) { throw invalidTarget(target, '"argv" must not contain NUL characters'); }
	const [file, ...args] = argv as [string, ...string[]];
	if (file.trim() === '') { throw invalidTarget(target, 'the executable (argv[0]) is empty'); }
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(target.env ?? {})) {
		if (typeof v !== 'string' || k === '' || k.includes('=') || k.includes('\0') || v.includes('\0')) {
			throw invalidTarget(target, `environment variable '${k}' is not a valid NAME=string pair`);
		}
		env[k] = v;
	}
	return { file, args, shell: target.shell === true, env, stdin: 'spec' };
}

export const commandAdapter: AgentAdapter = {
	adapter: 'command',
	commandFor: (spec) => commandForTarget(spec.target),
};

/** The adapter for a target. `claude` and `codex` adapters come with the agent-sessions work; until then they throw. */
export function adapterFor(target: AgentTargetConfig): AgentAdapter {
	switch (target.adapter) {
		case 'command':
			return commandAdapter;
		case 'claude':
			return claudeAdapter;
		case 'codex':
			return codexAdapter;
		default: {
			const unknownAdapter: never = target.adapter;
			throw new DomainError(
				'invalid_input',
				`Agent target '${target.id}' has an unknown adapter '${String(unknownAdapter)}'.`,
				'Set "adapter" to "command" in .tutti/config.json and run `tutti agent list --json`.',
				{ agentTargetId: target.id },
			);
		}
	}
}
