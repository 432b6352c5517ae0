// The permission prompt tool that `tutti mcp` serves (agent-cli-protocols.md §2.7): Claude Code calls it for a tool
// call outside its allowedTools with {tool_name, input, tool_use_id}; the tool asks the Host (approval/request) and
// waits for the developer's answer in bounded calls (approval/wait, ≤ 45 s each) for as long as it takes, riding out a
// Host restart (the request is durable; a resent request with the same tool_use_id finds it). It answers with one text
// block holding {"behavior":"allow","updatedInput":…} or {"behavior":"deny","message":…}.
import { z } from 'zod';
import type { CallOutcome } from '../client.js';

/** The tool's name; claude is launched with `--permission-prompt-tool mcp__tutti__approve`. */
export const permissionToolName = 'approve';
/** Mirrors approvalInputMaxChars in src/core/approvals/approvalRules.ts (the CLI layer may not import core; tested). */
export const maxInputChars = 262_144;
/** One approval/wait call's bound (the Host's await bound). */
export const waitCallMs = 45_000;

export const permissionToolInputSchema = {
	type: 'object',
	properties: {
		tool_name: { type: 'string', description: 'the tool the agent wants to call' },
		input: { type: 'object', description: "the tool's input" },
		tool_use_id: { type: 'string', description: "the agent's id of this tool call" },
	},
	required: ['tool_name', 'input'],
} as const;

const argumentsSchema = z.object({
	tool_name: z.string().min(1).max(200),
	input: z.record(z.string(), z.unknown()),
	tool_use_id: z.string().max(200).optional(),
});

export type PermissionAnswer = { behavior: 'allow'; updatedInput: unknown } | { behavior: 'deny'; message: string };

/** The answer of a call whose arguments are not what Claude Code sends: thrown as an MCP invalid-params error. */
export class BadToolArguments extends Error {}

/** One call to the Host (method + params) → its outcome; the caller supplies the socket, token and retries. */
export type HostCall = (method: 'approval/request' | 'approval/wait', params: Record<string, unknown>, timeoutMs: number) => Promise<CallOutcome>;

export interface PermissionToolDeps {
	runId: string | undefined;
	call: HostCall;
	sleep: (ms: number) => Promise<void>;
	/** Pause between attempts while the Host cannot be reached (default 1 s). */
	retryMs?: number;
	/** Ends the wait (the client canceled the call, or the server closes). */
	signal?: AbortSignal;
	log?: (line: string) => void;
}

function deny(message: string): PermissionAnswer {
	return { behavior: 'deny', message };
}

function permissionOf(resultJson: string): { approvalId: string; permission: PermissionAnswer | null } | null {
	try {
		const value = JSON.parse(resultJson) as { approval?: { approvalId?: unknown }; permission?: unknown };
		const approvalId = value.approval?.approvalId;
		if (typeof approvalId !== 'string') { return null; }
		const p = value.permission as { behavior?: unknown; updatedInput?: unknown; message?: unknown } | null | undefined;
		if (p === null || p === undefined) { return { approvalId, permission: null }; }
		if (p.behavior === 'allow') { return { approvalId, permission: { behavior: 'allow', updatedInput: p.updatedInput } }; }
		if (p.behavior === 'deny' && typeof p.message === 'string') { return { approvalId, permission: deny(p.message) }; }
		return null;
	} catch {
		return null;
	}
}

/**
 * Asks the developer about one tool call and waits for the answer. Malformed arguments throw BadToolArguments; every
 * other failure ends as a denial whose message says why, so the agent goes on with a clear reason.
 */
export async function askDeveloper(args: unknown, deps: PermissionToolDeps): Promise<PermissionAnswer> {
	const parsed = argumentsSchema.safeParse(args);
	if (!parsed.success) {
		throw new BadToolArguments(`${permissionToolName} expects {"tool_name": string, "input": object, "tool_use_id"?: string}: ${z.prettifyError(parsed.error)}`);
	}
	const { tool_name: tool, input, tool_use_id: toolUseId } = parsed.data;
	const inputChars = JSON.stringify(input).length;
	if (inputChars > maxInputChars) {
		return deny(`Tutti did not ask the developer: the ${tool} input is ${inputChars} characters, over the ${maxInputChars} an approval request can show. Make a smaller call (for example write the file in parts).`);
	}
	if (deps.runId === undefined || deps.runId === '') {
		return deny('Tutti cannot ask the developer: this agent was not started by Tutti for a Run (TUTTI_RUN_ID is not set).');
	}
	const retryMs = deps.retryMs ?? 1000;
	const log = deps.log ?? (() => undefined);
	const request = { runId: deps.runId, tool, input, ...(toolUseId !== undefined ? { toolUseId } : {}) };
	let approvalId: string | undefined;
	for (;;) {
		if (deps.signal?.aborted === true) { return deny('The approval request was abandoned: the agent stopped waiting.'); }
		const outcome = approvalId === undefined
			? await deps.call('approval/request', request, 30_000)
			: await deps.call('approval/wait', { approvalId, waitMs: waitCallMs }, waitCallMs + 15_000);
		if (!outcome.ok) {
			if (outcome.error.retryable === true || outcome.error.reasonCode === 'host_unavailable') {
				log(`the Host is not reachable (${outcome.error.message}); asking again in ${retryMs} ms`);
				await deps.sleep(retryMs);
				continue;
			}
			return deny(`Tutti could not ask the developer about ${tool}: ${outcome.error.message}`);
		}
		const answer = permissionOf(outcome.resultJson);
		if (answer === null) { return deny(`Tutti could not read the Host's answer about ${tool}.`); }
		if (answer.permission !== null) { return answer.permission; }
		approvalId = answer.approvalId;
	}
}
