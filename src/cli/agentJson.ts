// The CLI side of the agent-facing commands (SPEC §7): `await-review`, `plan issue await`, `next-action` (bounded
// long polls) and `agent resume`. Always exactly one JSON document on stdout (whatever --json says); a keep-alive
// line on stderr every 10 s while a wait is in flight; exit 0 for every success, waiting included.
import type { CallOutcome } from './client.js';
import type { ExitCode } from './cliError.js';

/** Methods whose answer is an agent response (src/protocol/agentResponse.ts), kept as literals: the CLI never loads zod. */
export const agentJsonMethods: ReadonlySet<string> = new Set(['await/review', 'await/checkpoint', 'await/next-action', 'agent/resume']);
const longPollMethods: ReadonlySet<string> = new Set(['await/review', 'await/checkpoint', 'await/next-action']);

/** Mirrors `awaitTimeoutMs` in src/host/services/await/awaitService.ts. */
export const maxWaitMs = 45_000;
export const keepAliveMs = 10_000;

export interface AgentJsonIo {
	env: Readonly<Record<string, string | undefined>>;
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}

function envMs(raw: string | undefined): number | undefined {
	return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

/** `TUTTI_AWAIT_TIMEOUT_MS` shortens one call's bound (tests); never beyond 45 s. */
export function waitMsFrom(env: AgentJsonIo['env']): number | undefined {
	const value = envMs(env['TUTTI_AWAIT_TIMEOUT_MS']);
	return value === undefined ? undefined : Math.min(value, maxWaitMs);
}

/** An agent response for a failure the CLI saw itself (Host unreachable…): the same command is the recovery. */
export function cliFailureResponse(reasonCode: string, message: string, hint: string, sameCommand: string): Record<string, unknown> {
	return { ok: false, error: { reasonCode, message, hint }, recovery: { hint, next: sameCommand } };
}

export async function runAgentJson(
	io: AgentJsonIo, method: string, params: Record<string, unknown>, call: (p: Record<string, unknown>) => Promise<CallOutcome>, sameCommand: string,
): Promise<ExitCode> {
	const poll = longPollMethods.has(method);
	const waitMs = poll ? waitMsFrom(io.env) : undefined;
	const every = envMs(io.env['TUTTI_KEEPALIVE_MS']) ?? keepAliveMs;
	const started = Date.now();
	const timer = poll && every > 0
		? setInterval(() => { io.stderr(`tutti: still waiting (${Math.round((Date.now() - started) / 1000)} s into this call); the answer comes on stdout\n`); }, every)
		: undefined;
	let outcome: CallOutcome;
	try {
		outcome = await call(waitMs !== undefined ? { ...params, waitMs } : params);
	} finally {
		if (timer !== undefined) { clearInterval(timer); }
	}
	if (!outcome.ok) {
		const hint = `${outcome.error.hint} Then run the command in recovery.next.`;
		io.stdout(`${JSON.stringify(cliFailureResponse(outcome.error.reasonCode, outcome.error.message, hint, sameCommand))}\n`);
		return 1;
	}
	io.stdout(`${outcome.resultJson}\n`);
	return outcome.resultJson.startsWith('{"ok":false') ? 1 : 0;
}
