// What codex app-server asks the client (approvals and questions) as Tutti approvals, and Tutti's answers back as
// app-server's decisions. Pure. Where a decision Tutti records cannot be said in app-server's words, it is mapped:
//   - a denial's message: app-server's `decline` tells the model only "rejected by user", so the message is steered
//     into the turn right after;
//   - allow with an edited command: app-server can only run the command the agent asked for, so the ask is declined,
//     the developer's command is steered to the agent, and that command is allowed without asking again;
//   - a question (`request_user_input`) is an approval of the tool `request_user_input`, which Tutti shows as a question
//     (src/core/approvals/questions.ts); the developer's answers arrive as the allowed input
//     `{"answers": {"<question id>": "<answer>" | ["<answer>", …]}}`; an allow without answers picks each question's first
//     (recommended) option; a denial answers every question with its message.
import { questionTool } from '../core/approvals/questions.js';
import type { ServerRequestParams, ServerRequestResult } from './codexAppServerProtocol.js';

/** An app-server request as a Tutti approval request (the `tool`, its `input`, and the call's id). */
export interface ApprovalAskOf {
	tool: string;
	input: Record<string, unknown>;
	toolUseId: string;
}

/** Tutti's answer (src/ipc/developerAnswer.ts). */
export type TuttiAnswer = { behavior: 'allow'; updatedInput: unknown } | { behavior: 'deny'; message: string };

/** The tool names the approvals carry (the Host's allow-for-the-task grants by tool name). */
export const codexApprovalTools = { command: 'exec_command', fileChange: 'apply_patch', permissions: 'request_permissions', question: questionTool } as const;

const callId = (p: { turnId: string; itemId: string }): string => `${p.turnId}/${p.itemId}`.slice(0, 200);

/** `/bin/bash -c 'cmd'` (as Codex shows a command) → `cmd`; anything else unchanged. */
export function unwrappedCommand(command: string): string {
	const m = /^\/bin\/(?:ba|z)?sh -l?c '((?:[^']|'\\'')*)'$/.exec(command.trim());
	return m ? m[1]!.replace(/'\\''/g, "'") : command.trim();
}

export function commandAsk(p: ServerRequestParams<'item/commandExecution/requestApproval'>): ApprovalAskOf {
	return {
		tool: codexApprovalTools.command,
		input: { command: p.command ?? '', ...(p.cwd ? { cwd: p.cwd } : {}), ...(p.reason ? { reason: p.reason } : {}) },
		toolUseId: callId(p),
	};
}

export function fileChangeAsk(p: ServerRequestParams<'item/fileChange/requestApproval'>, changes: unknown): ApprovalAskOf {
	return {
		tool: codexApprovalTools.fileChange,
		input: { changes: changes ?? [], ...(p.reason ? { reason: p.reason } : {}), ...(p.grantRoot ? { grantRoot: p.grantRoot } : {}) },
		toolUseId: callId(p),
	};
}

export function permissionsAsk(p: ServerRequestParams<'item/permissions/requestApproval'>): ApprovalAskOf {
	return { tool: codexApprovalTools.permissions, input: { permissions: p.permissions, ...(p.reason ? { reason: p.reason } : {}) }, toolUseId: callId(p) };
}

export function questionAsk(p: ServerRequestParams<'item/tool/requestUserInput'>): ApprovalAskOf {
	return { tool: codexApprovalTools.question, input: { questions: p.questions }, toolUseId: callId(p) };
}

/** What the supervisor does with an answer: the decision, a note steered to the agent, a command allowed next without asking. */
export interface CommandDecision {
	decision: ServerRequestResult<'item/commandExecution/requestApproval'>['decision'];
	steer?: string;
	allowNext?: string;
}

function denialNote(what: string, message: string): string {
	const text = message.trim();
	return `The developer denied ${what}${text !== '' ? `: ${text}` : '.'}`;
}

export function commandDecision(answer: TuttiAnswer, asked: ApprovalAskOf): CommandDecision {
	const command = String(asked.input.command ?? '');
	if (answer.behavior === 'deny') { return { decision: 'decline', steer: denialNote(`running \`${unwrappedCommand(command)}\``, answer.message) }; }
	const edited = typeof answer.updatedInput === 'object' && answer.updatedInput !== null ? (answer.updatedInput as { command?: unknown }).command : undefined;
	if (typeof edited !== 'string' || unwrappedCommand(edited) === unwrappedCommand(command)) { return { decision: 'accept' }; }
	const instead = unwrappedCommand(edited);
	return {
		decision: 'decline',
		steer: `The developer did not allow \`${unwrappedCommand(command)}\` as asked, and allows this command instead: \`${instead}\`. Run exactly that command.`,
		allowNext: instead,
	};
}

export function fileChangeDecision(answer: TuttiAnswer): { decision: ServerRequestResult<'item/fileChange/requestApproval'>['decision']; steer?: string } {
	return answer.behavior === 'allow' ? { decision: 'accept' } : { decision: 'decline', steer: denialNote('the file change', answer.message) };
}

export function permissionsDecision(answer: TuttiAnswer, asked: ApprovalAskOf): ServerRequestResult<'item/permissions/requestApproval'> {
	if (answer.behavior === 'deny') { return { permissions: {}, scope: 'turn' }; }
	const requested = typeof asked.input.permissions === 'object' && asked.input.permissions !== null ? asked.input.permissions as Record<string, unknown> : {};
	// The granted profile names only what was asked for (a null part of the request grants nothing).
	return { permissions: Object.fromEntries(Object.entries(requested).filter(([, v]) => v !== null && v !== undefined)), scope: 'turn' };
}

type Question = ServerRequestParams<'item/tool/requestUserInput'>['questions'][number];

export function questionAnswers(answer: TuttiAnswer, questions: readonly Question[]): ServerRequestResult<'item/tool/requestUserInput'> {
	const given = answer.behavior === 'allow' && typeof answer.updatedInput === 'object' && answer.updatedInput !== null
		? (answer.updatedInput as { answers?: unknown }).answers : undefined;
	const answers: Record<string, { answers: string[] }> = {};
	for (const q of questions) {
		let chosen: string[];
		if (answer.behavior === 'deny') {
			chosen = [answer.message.trim() !== '' ? answer.message.trim() : 'The developer declined to answer.'];
		} else {
			const value = typeof given === 'object' && given !== null ? (given as Record<string, unknown>)[q.id] : undefined;
			chosen = typeof value === 'string' ? [value]
				: Array.isArray(value) && value.every((v) => typeof v === 'string') ? value as string[]
					: q.options !== null && q.options.length > 0 ? [q.options[0]!.label] : [];
		}
		answers[q.id] = { answers: chosen };
	}
	return { answers };
}
