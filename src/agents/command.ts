// Agent adapters turn an agent target into the exact process to start. The `command` adapter runs any
// executable with the target's argument array — never a shell string built from task text; a shell is used
// only when the target itself says `shell: true`. The task content reaches the agent on stdin.
import { DomainError } from '../core/errors.js';
import type { AgentTargetConfig } from '../core/runs/runProcessPort.js';
import type { AgentAdapter, AgentCommand } from './adapter.js';
import { checkAgentTarget, targetEnv } from './agentTarget.js';
import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';

/** Checks a `command` target and returns the process to start. */
export function commandForTarget(target: AgentTargetConfig): AgentCommand {
	checkAgentTarget(target, 'command');
	const [file, ...args] = target.argv as [string, ...string[]];
	return { file, args, shell: target.shell === true, env: targetEnv(target), stdin: 'spec' };
}

export const commandAdapter: AgentAdapter = {
	adapter: 'command',
	commandFor: (spec) => commandForTarget(spec.target),
};

/** The adapter for a target; a target whose adapter this version does not have is refused with the three it has. */
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
				'Set "adapter" to "command", "claude" or "codex" in the tutti.agentTargets setting (headless: .tutti/config.json), then run `tutti agent list --json`.',
				{ agentTargetId: target.id },
			);
		}
	}
}
