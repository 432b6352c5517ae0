// The configured agent target of an id, as every writer that names one (a task, a session, a Run) checks it.
import { rejection } from '../core/hints.js';
import type { AgentTargetConfig } from '../core/runs/runProcessPort.js';
import type { HostConfig } from './config.js';

/** The configured target with this id; throws `agent_target_not_found` otherwise. */
export function findAgentTarget(config: HostConfig, agentTargetId: string, ctx: { issueId?: string; taskId?: string } = {}): AgentTargetConfig {
	const target = config.agentTargets.find((t) => t.id === agentTargetId);
	if (!target) {
		const known = config.agentTargets.map((t) => t.id);
		throw rejection(
			'agent_target_not_found',
			`Agent target '${agentTargetId}' is not configured${known.length ? ` (configured: ${known.join(', ')})` : ' (no agent targets are configured)'}.`,
			ctx,
			{ agentTargetId, configured: known },
		);
	}
	return target;
}
