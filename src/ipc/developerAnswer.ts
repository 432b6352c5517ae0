// Asking the developer about one agent action and waiting for the answer, for whoever asks on an agent's behalf —
// `tutti mcp` for Claude Code's permission prompts, the Run's supervisor for codex app-server's approval requests:
// `approval/request` records it (resending the same toolUseId finds the same request), then `approval/wait` in bounded
// calls (≤ 45 s each) for as long as the developer takes, riding out a Host restart (the request is durable). Node
// only: the caller supplies the one call to the Host.

/** What the waiting agent is told: allow (with the input to use) or deny with a message. */
export type DeveloperAnswer = { behavior: 'allow'; updatedInput: unknown } | { behavior: 'deny'; message: string };

/** One call's outcome: the result as JSON text, or the Host's error (retryable when the Host was briefly away). */
export type HostOutcome =
	| { ok: true; resultJson: string }
	| { ok: false; error: { reasonCode: string; message: string; retryable?: boolean } };

export type ApprovalCall = (method: 'approval/request' | 'approval/wait', params: Record<string, unknown>, timeoutMs: number) => Promise<HostOutcome>;

/** One approval/wait call's bound (the Host's await bound). */
export const approvalWaitCallMs = 45_000;

export interface DeveloperAnswerDeps {
	call: ApprovalCall;
	sleep: (ms: number) => Promise<void>;
	/** Pause between attempts while the Host cannot be reached (default 1 s). */
	retryMs?: number;
	/** Ends the wait (the agent stopped waiting: its call was canceled, or its turn ended). */
	signal?: AbortSignal;
	log?: (line: string) => void;
}

export interface ApprovalAsk {
	runId: string;
	tool: string;
	input: unknown;
	/** The agent's id of the call: a request resent with it (after a restart) finds the same approval. */
	toolUseId?: string;
}

/** What the Host's reply says, read as much as waiting needs: the result's JSON text, or the error's code and message. */
export function outcomeOfReply(reply: { status: number; body: string }): HostOutcome {
	try {
		const value = JSON.parse(reply.body) as { ok?: unknown; result?: unknown; error?: { reasonCode?: unknown; message?: unknown; retryable?: unknown } };
		if (value.ok === true && 'result' in value) { return { ok: true, resultJson: JSON.stringify(value.result) }; }
		if (value.ok === false && typeof value.error?.reasonCode === 'string' && typeof value.error.message === 'string') {
			return { ok: false, error: { reasonCode: value.error.reasonCode, message: value.error.message, ...(value.error.retryable === true ? { retryable: true } : {}) } };
		}
	} catch {
		// not an envelope
	}
	return { ok: false, error: { reasonCode: 'internal', message: `the Host sent a reply that is not a Tutti envelope (HTTP ${reply.status})` } };
}

function deny(message: string): DeveloperAnswer {
	return { behavior: 'deny', message };
}

/** The approval id and, once answered, the answer in an approval/request or approval/wait result; null when unreadable. */
export function answerOf(resultJson: string): { approvalId: string; answer: DeveloperAnswer | null } | null {
	try {
		const value = JSON.parse(resultJson) as { approval?: { approvalId?: unknown }; permission?: unknown };
		const approvalId = value.approval?.approvalId;
		if (typeof approvalId !== 'string') { return null; }
		const p = value.permission as { behavior?: unknown; updatedInput?: unknown; message?: unknown } | null | undefined;
		if (p === null || p === undefined) { return { approvalId, answer: null }; }
		if (p.behavior === 'allow') { return { approvalId, answer: { behavior: 'allow', updatedInput: p.updatedInput } }; }
		if (p.behavior === 'deny' && typeof p.message === 'string') { return { approvalId, answer: deny(p.message) }; }
		return null;
	} catch {
		return null;
	}
}

/** Asks and waits. Every failure ends as a denial whose message says why, so the agent goes on with a clear reason. */
export async function waitForDeveloper(ask: ApprovalAsk, deps: DeveloperAnswerDeps): Promise<DeveloperAnswer> {
	const retryMs = deps.retryMs ?? 1000;
	const log = deps.log ?? (() => undefined);
	const request = { runId: ask.runId, tool: ask.tool, input: ask.input, ...(ask.toolUseId !== undefined ? { toolUseId: ask.toolUseId } : {}) };
	let approvalId: string | undefined;
	for (;;) {
		if (deps.signal?.aborted === true) { return deny('The approval request was abandoned: the agent stopped waiting.'); }
		const outcome = approvalId === undefined
			? await deps.call('approval/request', request, 30_000)
			: await deps.call('approval/wait', { approvalId, waitMs: approvalWaitCallMs }, approvalWaitCallMs + 15_000);
		if (!outcome.ok) {
			if (outcome.error.retryable === true || outcome.error.reasonCode === 'host_unavailable') {
				log(`the Host is not reachable (${outcome.error.message}); asking again in ${retryMs} ms`);
				await deps.sleep(retryMs);
				continue;
			}
			return deny(`Tutti could not ask the developer about ${ask.tool}: ${outcome.error.message}`);
		}
		const read = answerOf(outcome.resultJson);
		if (read === null) { return deny(`Tutti could not read the Host's answer about ${ask.tool}.`); }
		if (read.answer !== null) { return read.answer; }
		approvalId = read.approvalId;
	}
}
