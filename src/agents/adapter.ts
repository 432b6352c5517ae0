// The contract every agent adapter implements: build the exact process for one Turn, and read the Turn's
// facts back from its structured output stream. Pure (no I/O); the supervisor and the Host do the I/O.
import type { Usage } from '../core/model.js';
import type { AgentTargetConfig, RunLaunchSpec } from '../core/runs/runProcessPort.js';
import type { CodexAppServerPlan } from './codexAppServerSession.js';

/** The process a supervisor starts for a Turn (before the Host adds the TUTTI_* environment). */
export interface AgentCommand {
	file: string;
	args: string[];
	shell: boolean;
	/** The target's own environment additions (e.g. a model provider's base URL). */
	env: Record<string, string>;
	/**
	 * Where the agent's stdin comes from: the spec's `stdinText` (command adapter), /dev/null (codex exec), or `live`: a
	 * pipe the Run's supervisor owns, fed the Turn's prompt and the messages sent while the Turn runs (claude
	 * stream-json, or codex app-server's JSON-RPC when `appServer` is set).
	 */
	stdin: 'spec' | 'devnull' | 'live';
	/** With `stdin: 'live'`: the Turn's prompt, the first message handed to the agent. */
	livePrompt?: string;
	/** codex app-server: what the supervisor asks the server for (thread, turn, Stop hook, exec fallback). */
	appServer?: CodexAppServerPlan;
}

/** Facts of one Turn, read from the agent's structured stream (a Run settles only from its exact Turn). */
export interface TurnFacts {
	providerSessionId: string;
	toolCalls: { name: string; input: unknown }[];
	/** Concatenated assistant text (bounded). */
	assistantText: string;
	usage: Usage;
	/** The model the agent reported ('' when its stream names none). */
	model: string;
	/** The agent's own cost figure for the Turn in USD (Claude Code's `total_cost_usd`); null when it reports none. */
	costUsd: number | null;
	/** The provider's final result, when the stream reached it. */
	result: { ok: boolean; text: string } | null;
	/** Error lines the stream reported (bounded). */
	errors: string[];
}

export interface AgentAdapter {
	readonly adapter: AgentTargetConfig['adapter'];
	/** Builds the process for one Turn of `spec.target`. Throws DomainError('invalid_input') for a bad target. */
	commandFor(spec: RunLaunchSpec): AgentCommand;
	/** Reads the Turn's facts from its captured stdout (structured adapters only; command targets have none). */
	parseTurnFacts?(stdout: string): TurnFacts;
}
