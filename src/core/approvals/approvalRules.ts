// Approvals: a tool call an agent may not make without asking becomes a durable request that
// the developer answers once. Pure rules over plain data: what an answer does, what a request shows as once its Run
// has ended, and what the waiting agent is told. The store keeps the rows; the Host applies these rules.
import { answersText, approvalQuestions, givenAnswers } from './questions.js';

export const approvalStatuses = ['pending', 'allowed', 'denied', 'expired', 'canceled'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/**
 * How a request was answered: `allow_once`, `allow_for_task` (this tool is allowed for the rest of the task),
 * `deny`, `task_grant` (allowed without asking because an earlier `allow_for_task` of the same task and tool
 * covers it), or '' while pending / when it expired or was canceled.
 */
export const approvalAnswers = ['', 'allow_once', 'allow_for_task', 'deny', 'task_grant'] as const;
export type ApprovalAnswer = (typeof approvalAnswers)[number];

/** Who answered: 'user' (the developer), 'task_grant' (an earlier allow-for-task), 'host' (the Run ended or was stopped), '' while pending. */
export const approvalAnswerers = ['', 'user', 'task_grant', 'host'] as const;
export type ApprovalAnswerer = (typeof approvalAnswerers)[number];

/** The target setting: `ask` routes calls outside allowedTools to the developer; `allowed-tools-only` denies them silently. */
export const approvalModes = ['ask', 'allowed-tools-only'] as const;
export type ApprovalMode = (typeof approvalModes)[number];

/** The largest tool input (as JSON text) a request may carry; a larger call is denied with a message saying so. */
export const approvalInputMaxChars = 262_144;
/** The longest message a denial may carry to the agent. */
export const approvalMessageMaxChars = 10_000;

export interface Approval {
	approvalId: string;
	issueId: string;
	taskId: string;
	runId: string;
	/** The worker session of the Run (the only session that may wait for it). */
	sessionId: string;
	/** The provider's id of the tool call (claude `tool_use_id`); '' when the agent gave none. */
	toolUseId: string;
	tool: string;
	/** The tool's input as the agent sent it. */
	input: unknown;
	requestedAtUnixMs: number;
	status: ApprovalStatus;
	answer: ApprovalAnswer;
	answeredBy: ApprovalAnswerer;
	answeredAtUnixMs: number;
	/** A denial's message for the agent, or why the request was canceled / expired. */
	message: string;
	/** The input the tool runs with when the developer edited it; null = the agent's own input. */
	updatedInput: unknown;
	/** For `task_grant`: the approval whose allow-for-task covered this call. */
	grantedByApprovalId: string;
}

/** The developer's answer to one request. */
export interface ApprovalDecision {
	allow: boolean;
	forTask: boolean;
	message: string;
	updatedInput?: unknown;
}

/** What a request shows as: a pending request whose Run no longer runs is expired (nobody waits for it any more). */
export function shownStatus(approval: Pick<Approval, 'status'>, runRunning: boolean): ApprovalStatus {
	return approval.status === 'pending' && !runRunning ? 'expired' : approval.status;
}

/** The fields an answer writes (the caller checked the request is still pending). */
export function answerFields(decision: ApprovalDecision, now: number): Pick<Approval, 'status' | 'answer' | 'answeredBy' | 'answeredAtUnixMs' | 'message' | 'updatedInput'> {
	if (!decision.allow) {
		return {
			status: 'denied', answer: 'deny', answeredBy: 'user', answeredAtUnixMs: Math.max(1, now),
			message: decision.message.trim() === '' ? 'The developer denied this tool call.' : decision.message, updatedInput: null,
		};
	}
	return {
		status: 'allowed', answer: decision.forTask ? 'allow_for_task' : 'allow_once', answeredBy: 'user', answeredAtUnixMs: Math.max(1, now),
		message: decision.message, updatedInput: decision.updatedInput === undefined ? null : decision.updatedInput,
	};
}

/**
 * One line naming how a request was answered, for refusals and transcripts ("allowed once by the developer at …"); a
 * question reads as answered ("answered by the developer at …: Blue") or declined.
 */
export function describeAnswer(approval: Pick<Approval, 'status' | 'answer' | 'answeredBy' | 'answeredAtUnixMs' | 'message' | 'grantedByApprovalId' | 'tool' | 'input' | 'updatedInput'>): string {
	const at = approval.answeredAtUnixMs > 0 ? ` at ${new Date(approval.answeredAtUnixMs).toISOString()}` : '';
	const questions = approvalQuestions(approval);
	if (questions.length > 0 && approval.answeredBy === 'user') {
		return approval.answer === 'deny'
			? `declined by the developer${at}${approval.message !== '' ? `: ${approval.message}` : ''}`
			: `answered by the developer${at}: ${answersText(questions, givenAnswers(approval.updatedInput))}`;
	}
	switch (approval.answer) {
		case 'allow_once': return `allowed once by the developer${at}`;
		case 'allow_for_task': return `allowed for the rest of the task by the developer${at}`;
		case 'task_grant': return `allowed without asking: the developer allowed this tool for the task (approval ${approval.grantedByApprovalId})`;
		case 'deny': return `denied by the developer${at}${approval.message !== '' ? `: ${approval.message}` : ''}`;
		case '': return approval.status === 'pending' ? 'not answered yet' : `${approval.status}${at}${approval.message !== '' ? `: ${approval.message}` : ''}`;
	}
}

/**
 * What the waiting agent receives (Claude Code's permission prompt tool): allow with
 * the input to run (the developer's edit, else the agent's own), or deny with a message. Null while pending.
 */
export type PermissionResult = { behavior: 'allow'; updatedInput: unknown } | { behavior: 'deny'; message: string };

export function permissionResult(approval: Approval, runRunning: boolean): PermissionResult | null {
	const status = shownStatus(approval, runRunning);
	switch (status) {
		case 'pending': return null;
		case 'allowed': return { behavior: 'allow', updatedInput: approval.updatedInput ?? approval.input };
		case 'denied': return { behavior: 'deny', message: approval.message !== '' ? approval.message : 'The developer denied this tool call.' };
		case 'canceled': return { behavior: 'deny', message: approval.message !== '' ? approval.message : 'The request was canceled: the developer stopped this Run.' };
		case 'expired': return { behavior: 'deny', message: approval.message !== '' ? approval.message : 'The request expired: its Run is no longer running.' };
	}
}
