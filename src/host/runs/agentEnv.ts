// The environment of a Run's processes. The supervisor inherits the Host's environment minus anything that
// carries a Tutti credential; the agent gets that, plus the target's `env`, plus the Run's own TUTTI_*
// variables, with the `tutti` shim directory first on PATH and no PATH entry a repository could fill.
import { delimiter } from 'node:path';
import { trustedPathEntries } from './executablePath.js';

/**
 * Variables never inherited from the Host: every `TUTTI_*` (a Host started from a Tutti terminal or agent
 * would otherwise leak that session's token, and the user credential must never reach an agent — Tutti
 * sets each agent's own TUTTI_* values explicitly) and `ELECTRON_RUN_AS_NODE` (set inside VS Code's extension
 * host; it would turn an agent's own Electron apps into plain Node). Other `*_TOKEN` variables such as
 * GITHUB_TOKEN are the user's deliberate environment for their tools and are kept.
 */
export function isWithheldVariable(name: string, extraWithheld: readonly string[] = []): boolean {
	const upper = name.toUpperCase();
	return upper.startsWith('TUTTI_') || upper === 'ELECTRON_RUN_AS_NODE' || extraWithheld.includes(name);
}

/** The Host environment a supervisor (and so its agent) may inherit. */
export function inheritableEnv(hostEnv: NodeJS.ProcessEnv, extraWithheld: readonly string[] = []): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(hostEnv)) {
		if (v !== undefined && !isWithheldVariable(k, extraWithheld)) { env[k] = v; }
	}
	return env;
}

function pathKey(env: Readonly<Record<string, string | undefined>>): string {
	return Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
}

export interface AgentEnvInput {
	/** The Host's environment (process.env). */
	hostEnv: NodeJS.ProcessEnv;
	/** The agent target's `env`. */
	targetEnv: Readonly<Record<string, string>>;
	/** The Run's TUTTI_* variables; they win over the target's. */
	runEnv: Readonly<Record<string, string>>;
	/** Directory holding the `tutti` shim, prepended to PATH (the Host's private directory, never in the workspace). */
	shimDir?: string;
	/** The workspace's `.tutti` directory: PATH entries inside it are dropped (so are relative and empty ones). */
	tuttiDir?: string;
	extraWithheld?: readonly string[];
}

/**
 * The PATH the agent searches, before the shim directory goes in front: the target's PATH if it sets one, else the
 * Host's, without relative or empty entries (they mean the Run's working directory: repository content) and
 * without entries inside `.tutti/`. The target's executable is resolved on exactly these entries (processRunner).
 */
export function agentSearchPath(input: AgentEnvInput): { key: string; entries: string[] } {
	const targetPathKey = Object.keys(input.targetEnv).find((k) => k.toUpperCase() === 'PATH');
	const key = targetPathKey ?? pathKey(input.hostEnv);
	const base = targetPathKey !== undefined ? input.targetEnv[targetPathKey] : input.hostEnv[key];
	return { key, entries: trustedPathEntries(base, input.tuttiDir) };
}

/** What the supervisor adds on top of its own (already filtered) environment when it starts the agent. */
export function agentEnvAdditions(input: AgentEnvInput): Record<string, string> {
	const additions: Record<string, string> = { ...input.targetEnv, ...input.runEnv };
	const { key, entries } = agentSearchPath(input);
	const path = [...(input.shimDir !== undefined ? [input.shimDir] : []), ...entries];
	if (path.length > 0) { additions[key] = path.join(delimiter); }
	return additions;
}

/** The whole environment an agent ends up with (what the supervisor computes); for tests and diagnostics. */
export function agentEnvironment(input: AgentEnvInput): Record<string, string> {
	const env = inheritableEnv(input.hostEnv, input.extraWithheld);
	return Object.assign(env, agentEnvAdditions(input));
}
