// Approvals on the wire: the request DTO (a tool call, or an agent's question), what the waiting agent receives, and
// the approval/* and question/* methods.
// Part of `methods` in controlPlane.ts.
import { z } from 'zod';
import { updatedInputSchema } from './approvalInput.js';

const id = z.string().min(1).max(200);

export const approvalStatus = z.enum(['pending', 'allowed', 'denied', 'expired', 'canceled']);
export const approvalAnswer = z.enum(['', 'allow_once', 'allow_for_task', 'deny', 'task_grant']);
export const approvalAnswerer = z.enum(['', 'user', 'task_grant', 'host']);

/** One question of an agent's question to the developer (codex `request_user_input`). */
export const approvalQuestionDto = z.object({
	id: z.string(),
	header: z.string(),
	question: z.string(),
	/** The agent's choices, its recommended one first; empty: a free-text answer. */
	options: z.array(z.object({ label: z.string(), description: z.string() })),
	/** Whether an answer outside the options is taken. */
	isOther: z.boolean(),
	isSecret: z.boolean(),
});
export type ApprovalQuestionDto = z.infer<typeof approvalQuestionDto>;

/** A developer's answer to a question: the text of the only question, or `<question id>=<text>`. */
const questionAnswers = z.array(z.string().max(10_000)).min(1).max(50);

export const approvalDto = z.object({
	approvalId: z.string(),
	issueId: z.string(),
	taskId: z.string(),
	runId: z.string(),
	sessionId: z.string(),
	toolUseId: z.string(),
	tool: z.string(),
	input: z.unknown(),
	/** `question`: the agent asks the developer something (answer it with `answers`); `tool`: a tool call to allow or deny. */
	kind: z.enum(['tool', 'question']),
	/** A question's questions, as the developer reads them; [] for a tool call. */
	questions: z.array(approvalQuestionDto),
	requestedAtUnixMs: z.number().int(),
	/** As shown: a pending request whose Run ended is `expired`. */
	status: approvalStatus,
	answer: approvalAnswer,
	/** 'user', 'task_grant', 'host', or '' while pending. */
	answeredBy: approvalAnswerer,
	answeredAtUnixMs: z.number().int(),
	message: z.string(),
	updatedInput: z.unknown(),
	grantedByApprovalId: z.string(),
	/** One line: "allowed once by the developer at …", "denied by the developer: …", "not answered yet". */
	answerLabel: z.string(),
});
export type ApprovalDto = z.infer<typeof approvalDto>;

/** Claude Code's permission prompt tool result; null while the request is pending. */
export const permissionResultDto = z.union([
	z.object({ behavior: z.literal('allow'), updatedInput: z.unknown() }),
	z.object({ behavior: z.literal('deny'), message: z.string() }),
]).nullable();

const approvalWithPermission = z.object({ approval: approvalDto, permission: permissionResultDto });

export const approvalMethods = {
	/** From `tutti mcp` (the Run's own worker session only): ask the developer about one tool call. Resending the same toolUseId returns its request. */
	'approval/request': {
		params: z.strictObject({ runId: id, tool: z.string().min(1).max(200), input: z.unknown().optional(), toolUseId: z.string().max(200).optional() }),
		result: approvalWithPermission,
	},
	/** From `tutti mcp`: wait (at most waitMs ≤ 45 s) for the answer; `permission` stays null while pending. */
	'approval/wait': {
		params: z.strictObject({ approvalId: id, waitMs: z.number().int().nonnegative().max(45_000).optional() }),
		result: approvalWithPermission,
	},
	'approval/list': {
		params: z.strictObject({ issueId: id.optional(), status: approvalStatus.optional() }),
		result: z.object({ approvals: z.array(approvalDto) }),
	},
	/** Developer only: allow (once, or for the rest of the task) or deny with a message. A request is answered once. */
	'approval/answer': {
		params: z.strictObject({
			approvalId: id, allow: z.boolean().optional(), deny: z.boolean().optional(), forTask: z.boolean().optional(),
			message: z.string().max(10_000).optional(),
			/** Allow only: the input the tool runs with instead of the agent's. */
			updatedInput: updatedInputSchema.optional(),
			/** A question's answers (an allow): the text of the only question, or `<question id>=<text>` for each. */
			answers: questionAnswers.optional(),
		}),
		result: z.object({ approval: approvalDto }),
	},
	/** Developer only: answer an agent's question (`tutti approval answer --answer …` under a name that says so). */
	'question/answer': {
		params: z.strictObject({ approvalId: id, answers: questionAnswers }),
		result: z.object({ approval: approvalDto }),
	},
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;
