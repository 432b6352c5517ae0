// The permission prompt tool that `tutti mcp` serves: Claude Code calls it for a tool
// call outside its allowedTools with {tool_name, input, tool_use_id}; the tool asks the Host (approval/request) and
// waits for the developer's answer in bounded calls (approval/wait, ≤ 45 s each) for as long as it takes, riding out a
// Host restart (src/ipc/developerAnswer.ts). It answers with one text block holding {"behavior":"allow","updatedInput":…}
// or {"behavior":"deny","message":…}.
import { z } from 'zod';
import { type DeveloperAnswer, type DeveloperAnswerDeps, approvalWaitCallMs, waitForDeveloper } from '../../ipc/developerAnswer.js';
import type { CallOutcome } from '../client.js';

/** The tool's name; claude is launched with `--permission-prompt-tool mcp__tutti__approve`. */
export const permissionToolName = 'approve';
/** Mirrors approvalInputMaxChars in src/core/approvals/approvalRules.ts (the CLI layer may not import core; tested). */
export const maxInputChars = 262_144;
/** One approval/wait call's bound (the Host's await bound). */
export const waitCallMs = approvalWaitCallMs;

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

export type PermissionAnswer = DeveloperAnswer;

/** The answer of a call whose arguments are not what Claude Code sends: thrown as an MCP invalid-params error. */
export class BadToolArguments extends Error {}

/** One call to the Host (method + params) → its outcome; the caller supplies the socket, token and retries. */
export type HostCall = (method: 'approval/request' | 'approval/wait', params: Record<string, unknown>, timeoutMs: number) => Promise<CallOutcome>;

export interface PermissionToolDeps extends Omit<DeveloperAnswerDeps, 'call'> {
	runId: string | undefined;
	call: HostCall;
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
		return { behavior: 'deny', message: `Tutti did not ask the developer: the ${tool} input is ${inputChars} characters, over the ${maxInputChars} an approval request can show. Make a smaller call (for example write the file in parts).` };
	}
	if (deps.runId === undefined || deps.runId === '') {
		return { behavior: 'deny', message: 'Tutti cannot ask the developer: this agent was not started by Tutti for a Run (TUTTI_RUN_ID is not set).' };
	}
	return waitForDeveloper({ runId: deps.runId, tool, input, ...(toolUseId !== undefined ? { toolUseId } : {}) }, deps);
}
