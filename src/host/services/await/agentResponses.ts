// Owed (src/core/next/owed.ts) → the agent-facing JSON (src/protocol/agentResponse.ts), validated before it leaves.
import type { Owed } from '../../../core/next/owed.js';
import { type AgentResponse, assertValidResponse } from '../../../protocol/agentResponse.js';

export interface ResponseContext {
	nowUnixMs: number;
	/** The bound of one call, advertised as wait_timeout_seconds. */
	waitBoundMs: number;
	issueId?: string;
	sessionId?: string;
}

export function toAgentResponse(owed: Owed, ctx: ResponseContext): AgentResponse {
	const ids: AgentResponse = { ok: owed.kind === 'answer' };
	if (ctx.sessionId !== undefined) { ids.session_id = ctx.sessionId; }
	if (ctx.issueId !== undefined) { ids.issue_id = ctx.issueId; }
	if (owed.kind === 'failure') {
		return assertValidResponse({ ...ids, ok: false, error: { reasonCode: owed.reasonCode, message: owed.message, hint: owed.hint }, recovery: { hint: owed.hint, next: owed.next } });
	}
	const response: AgentResponse = { ...ids, ok: true };
	if (owed.taskId !== undefined) { response.task_id = owed.taskId; }
	response.state = owed.state;
	if (owed.advanceAllowed !== undefined) { response.advance_allowed = owed.advanceAllowed; }
	if (owed.waitingSinceUnixMs !== undefined) {
		response.waited_seconds = Math.max(0, Math.floor((ctx.nowUnixMs - owed.waitingSinceUnixMs) / 1000));
		response.wait_timeout_seconds = Math.max(1, Math.ceil(ctx.waitBoundMs / 1000));
	}
	response.message = owed.message;
	if (owed.note !== undefined) { response.note = owed.note; }
	if (owed.next !== undefined) { response.next = owed.next; }
	return assertValidResponse(response);
}
