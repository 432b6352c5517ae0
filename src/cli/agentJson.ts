// The CLI side of the agent-facing commands: `await-review`, `plan issue await`, `next-action` (bounded
// long polls) and `agent resume`. Always exactly one JSON document on stdout (whatever --json says); a keep-alive
// line on stderr every 10 s while a wait is in flight; exit 0 for every success, waiting included. A long poll
// returns within its call bound whatever the Host does: while the Host cannot be reached (restarting, silent) it
// prints the waiting response itself, retryable, with the same command in `next` — never a failure.
import type { WireReasonCode } from '../protocol/reasonCodes.js';
import type { CallOutcome } from './client.js';
import type { ExitCode } from './cliError.js';

/** Methods whose answer is an agent response (src/protocol/agentResponse.ts), kept as literals: the CLI never loads zod. */
export const agentJsonMethods: ReadonlySet<string> = new Set(['await/review', 'await/checkpoint', 'await/next-action', 'agent/resume']);
const longPollMethods: ReadonlySet<string> = new Set(['await/review', 'await/checkpoint', 'await/next-action']);

/** Mirrors `awaitTimeoutMs` in src/host/services/await/awaitService.ts. */
export const maxWaitMs = 45_000;
export const keepAliveMs = 10_000;
/** What a long poll allows beyond the Host's wait bound: reaching the Host, and its answer after its own bound. */
export const hostAnswerSlackMs = 3_000;
/**
 * The default wall-clock bound of one long poll (connect retries and the request together): past the Host's own
 * 45 s so the Host answers first, and under 50 s with node's start-up (Claude Code's Bash tool allows 120 s).
 */
export const agentCallBoundMs = maxWaitMs + hostAnswerSlackMs;

/** One call to the Host: `params` gets the milliseconds left before `deadlineMs` (long polls only). */
export type AgentCall = (params: Record<string, unknown> | ((remainingMs: number) => Record<string, unknown>), deadlineMs?: number) => Promise<CallOutcome>;

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

/** A long poll's bound: the Host's wait (TUTTI_AWAIT_TIMEOUT_MS or 45 s) plus the slack. */
export function callBoundMsFrom(env: AgentJsonIo['env']): number {
	return (waitMsFrom(env) ?? maxWaitMs) + hostAnswerSlackMs;
}

/** The waiting response the CLI prints itself while the Host cannot be reached (no failure words: agents keep looping). */
export function hostAwayResponse(params: Record<string, unknown>, waitedMs: number, boundMs: number, sameCommand: string): Record<string, unknown> {
	const ids: Record<string, unknown> = {};
	if (typeof params['issueId'] === 'string') { ids['issue_id'] = params['issueId']; }
	if (typeof params['taskId'] === 'string') { ids['task_id'] = params['taskId']; }
	return {
		ok: true, ...ids, state: 'waiting', advance_allowed: false, retryable: true,
		waited_seconds: Math.max(0, Math.floor(waitedMs / 1000)), wait_timeout_seconds: Math.max(1, Math.ceil(boundMs / 1000)),
		message: 'The Tutti Host did not answer within this call (it may be restarting, for example while VS Code reloads). '
			+ 'This is expected: run the command in "next" again now; each call returns within a minute.',
		next: sameCommand,
	};
}

/** An agent response for a failure the CLI saw itself (Host unreachable…): the same command is the recovery. */
export function cliFailureResponse(reasonCode: WireReasonCode, message: string, hint: string, sameCommand: string): Record<string, unknown> {
	return { ok: false, error: { reasonCode, message, hint }, recovery: { hint, next: sameCommand } };
}

export async function runAgentJson(
	io: AgentJsonIo, method: string, params: Record<string, unknown>, call: AgentCall, sameCommand: string,
): Promise<ExitCode> {
	const poll = longPollMethods.has(method);
	const every = envMs(io.env['TUTTI_KEEPALIVE_MS']) ?? keepAliveMs;
	const started = Date.now();
	const boundMs = callBoundMsFrom(io.env);
	const waitMs = waitMsFrom(io.env) ?? maxWaitMs;
	const timer = poll && every > 0
		? setInterval(() => { io.stderr(`tutti: still waiting (${Math.round((Date.now() - started) / 1000)} s into this call); the answer comes on stdout\n`); }, every)
		: undefined;
	let outcome: CallOutcome;
	try {
		outcome = poll
			// The Host's wait shrinks by whatever reaching it took, so its answer still comes before the deadline.
			? await call((remainingMs) => ({ ...params, waitMs: Math.max(0, Math.min(waitMs, remainingMs - hostAnswerSlackMs)) }), started + boundMs)
			: await call(params);
	} finally {
		if (timer !== undefined) { clearInterval(timer); }
	}
	if (!outcome.ok) {
		if (poll && outcome.error.reasonCode === 'host_unavailable') {
			io.stdout(`${JSON.stringify(hostAwayResponse(params, Date.now() - started, boundMs, sameCommand))}\n`);
			return 0;
		}
		const hint = `${outcome.error.hint} Then run the command in recovery.next.`;
		io.stdout(`${JSON.stringify(cliFailureResponse(outcome.error.reasonCode, outcome.error.message, hint, sameCommand))}\n`);
		return 1;
	}
	io.stdout(`${outcome.resultJson}\n`);
	return outcome.resultJson.startsWith('{"ok":false') ? 1 : 0;
}
