// The agent-facing response of the bounded waits and lifecycle queries: `tutti await-review`,
// `tutti plan issue await`, `tutti next-action`, `tutti agent resume`. One JSON document; the validator below runs
// on every such response before it is printed (and in tests).
import { z } from 'zod';
import { wireReasonCodes } from './reasonCodes.js';

/** What the agent owes now (src/core/next/owed.ts `owedStates`): `waiting` repeats the call, the others name what to do. */
export const owedState = z.enum([
	'waiting', 'awaiting_review', 'awaiting_goal_review', 'awaiting_checkpoint', 'awaiting_budget', 'checkpoint', 'changes_requested',
	'accepted', 'settled', 'routed', 'completed', 'finished', 'follow_up', 'nothing_owed', 'working', 'taken',
]);

export const requiredInput = z.object({
	name: z.string(),
	flag: z.string(),
	description: z.string(),
});
export type RequiredInput = z.infer<typeof requiredInput>;

export const agentRecovery = z.object({
	hint: z.string(),
	next: z.string().optional(),
	next_template: z.string().optional(),
	required_inputs: z.array(requiredInput).optional(),
});

/**
 * `advance_allowed`: true = a decision is available, follow `next`; false = still waiting, `next` repeats the exact
 * command; absent = follow `ok`/`next` as usual (lifecycle answers without a decision omit it).
 */
export const agentResponse = z.object({
	ok: z.boolean(),
	session_id: z.string().optional(),
	issue_id: z.string().optional(),
	task_id: z.string().optional(),
	state: owedState.optional(),
	advance_allowed: z.boolean().optional(),
	waited_seconds: z.number().int().nonnegative().optional(),
	wait_timeout_seconds: z.number().int().positive().optional(),
	message: z.string().optional(),
	/** Set by the CLI on the waiting response it prints itself while the Host cannot be reached. */
	retryable: z.boolean().optional(),
	/** The developer's note (changes requested). */
	note: z.string().optional(),
	/** Whether the session is waiting in a live call, working, or idle (agent resume). */
	activity: z.enum(['waiting', 'working', 'idle']).optional(),
	next: z.string().optional(),
	next_template: z.string().optional(),
	required_inputs: z.array(requiredInput).optional(),
	/** Also the CLI's error envelope fields: reasonCode, message, hint. */
	error: z.object({ reasonCode: z.enum(wireReasonCodes), message: z.string(), hint: z.string() }).optional(),
	recovery: agentRecovery.optional(),
});
export type AgentResponse = z.infer<typeof agentResponse>;

/** Words a waiting message must never contain: a response that reads as an error makes models abandon the loop. */
export const failureWords: readonly string[] = [
	'error', 'errors', 'fail', 'failed', 'fails', 'failure', 'failing', 'timeout', 'timed out', 'time out', 'abort', 'aborted',
	'broken', 'crash', 'crashed', 'exception', 'invalid', 'denied', 'unable', 'cannot', "can't", 'problem', 'wrong',
];

const placeholderPattern = /<[^<>\s][^<>]*>/;

function hasFailureWord(text: string): string | undefined {
	const lower = text.toLowerCase();
	return failureWords.find((word) => new RegExp(`(^|[^a-z'])${word}($|[^a-z'])`).test(lower));
}

function continuationProblems(where: string, c: { next?: string; next_template?: string; required_inputs?: RequiredInput[] }): string[] {
	const problems: string[] = [];
	if (c.next !== undefined && c.next_template !== undefined) {
		problems.push(`${where} carries both next and next_template`);
	}
	if (c.next !== undefined) {
		if (c.next.trim() === '') { problems.push(`${where}next is empty`); }
		if (placeholderPattern.test(c.next)) { problems.push(`${where}next contains a placeholder: ${c.next}`); }
		if ((c.required_inputs ?? []).length > 0) { problems.push(`${where}next must not come with required_inputs`); }
	}
	if (c.next_template !== undefined) {
		if (!placeholderPattern.test(c.next_template)) { problems.push(`${where}next_template has no placeholder`); }
		if ((c.required_inputs ?? []).length === 0) { problems.push(`${where}next_template needs required_inputs`); }
	}
	return problems;
}

/** What an agent-facing response must carry (an exact `next` or a template with its inputs; failures a recovery); an empty list means the response may be printed. */
export function responseProblems(response: AgentResponse): string[] {
	const problems: string[] = [];
	const continuation = response.next !== undefined || response.next_template !== undefined;
	problems.push(...continuationProblems('', response));
	if (response.ok) {
		if (response.error !== undefined || response.recovery !== undefined) {
			problems.push('a success must not carry error or recovery');
		}
		if (response.wait_timeout_seconds !== undefined && !continuation) {
			problems.push('wait_timeout_seconds requires next or next_template');
		}
		if (response.advance_allowed === false) {
			if (response.state !== 'waiting') { problems.push('advance_allowed:false is only for state "waiting"'); }
			if (response.next === undefined) { problems.push('a waiting response must repeat the exact command in next'); }
		}
		if (response.advance_allowed === true && !continuation) {
			problems.push('advance_allowed:true promises a command: next or next_template is missing');
		}
		if (response.state === 'waiting') {
			if (response.advance_allowed !== false) { problems.push('a waiting response must say advance_allowed:false'); }
			if (response.waited_seconds === undefined || response.wait_timeout_seconds === undefined) {
				problems.push('a waiting response must carry waited_seconds and wait_timeout_seconds');
			}
			const word = hasFailureWord(response.message ?? '');
			if (word !== undefined) { problems.push(`the waiting message contains the failure word "${word}"`); }
		}
	} else {
		if (response.error === undefined) { problems.push('a failure must carry error'); }
		if (response.recovery === undefined) {
			problems.push('a failure must carry recovery');
		} else {
			if (response.recovery.hint.trim() === '') { problems.push('recovery.hint is empty'); }
			if (response.recovery.next === undefined && response.recovery.next_template === undefined) {
				problems.push('recovery needs next or next_template');
			}
			problems.push(...continuationProblems('recovery.', response.recovery));
		}
		if (continuation || response.wait_timeout_seconds !== undefined) {
			problems.push('a failure must not put next, next_template or wait_timeout_seconds at top level');
		}
	}
	return problems;
}

/** Throws when the response breaks a rule (the Host never sends such a response). */
export function assertValidResponse(response: AgentResponse): AgentResponse {
	const problems = responseProblems(response);
	if (problems.length > 0) {
		throw new Error(`invalid agent response (${problems.join('; ')}): ${JSON.stringify(response)}`);
	}
	return response;
}
