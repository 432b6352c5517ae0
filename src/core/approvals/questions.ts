// An agent's question to the developer (codex app-server's `item/tool/requestUserInput`) rides on an approval of the
// tool `request_user_input` whose input carries the questions. Pure rules: which approvals read as questions, what
// they ask, how the developer's answers ("text", or "<question id>=text") become each question's answers, and how an
// answered question reads.

/** The tool whose approval is a question (the name codex gives it; the supervisor files it under this name). */
export const questionTool = 'request_user_input';

export interface QuestionOption {
	label: string;
	description: string;
}

export interface ApprovalQuestion {
	id: string;
	/** A short title ("Color"); '' when the agent gave none. */
	header: string;
	question: string;
	/** The agent's choices, its recommended one first; empty: a free-text answer. */
	options: QuestionOption[];
	/** Whether an answer outside the options is taken. */
	isOther: boolean;
	/** Whether the answer is a secret (typed hidden). */
	isSecret: boolean;
}

/** Each question's answers by question id: what the agent receives as the tool's result. */
export type QuestionAnswers = Record<string, string[]>;

function str(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/** The questions an approval asks; [] when it is a tool call (another tool, or an input with no readable question). */
export function approvalQuestions(approval: { tool: string; input: unknown }): ApprovalQuestion[] {
	if (approval.tool !== questionTool || typeof approval.input !== 'object' || approval.input === null) { return []; }
	const questions = (approval.input as { questions?: unknown }).questions;
	if (!Array.isArray(questions)) { return []; }
	const out: ApprovalQuestion[] = [];
	for (const q of questions) {
		if (typeof q !== 'object' || q === null) { continue; }
		const r = q as Record<string, unknown>;
		const id = str(r.id);
		const question = str(r.question);
		if (id === undefined || id === '' || question === undefined || out.some((o) => o.id === id)) { continue; }
		const options = Array.isArray(r.options)
			? r.options.flatMap((o) => {
				const label = typeof o === 'object' && o !== null ? str((o as Record<string, unknown>).label) : undefined;
				return label !== undefined && label !== '' ? [{ label, description: str((o as Record<string, unknown>).description) ?? '' }] : [];
			})
			: [];
		out.push({ id, header: str(r.header) ?? '', question, options, isOther: r.isOther !== false, isSecret: r.isSecret === true });
	}
	return out;
}

/** The developer's answers as each question's: `ok` with every question answered, or the problem to tell them. */
export type ResolvedAnswers = { ok: true; answers: QuestionAnswers } | { ok: false; problem: string };

/**
 * Each given answer is `<question id>=<text>` when the part before the first `=` is one of the question ids, else the
 * text of the only question. Every question needs an answer; the same id given twice gives it several answers.
 */
export function resolveQuestionAnswers(questions: readonly ApprovalQuestion[], given: readonly string[]): ResolvedAnswers {
	const answers: QuestionAnswers = {};
	for (const text of given) {
		const eq = text.indexOf('=');
		const named = eq > 0 ? questions.find((q) => q.id === text.slice(0, eq)) : undefined;
		const question = named ?? (questions.length === 1 ? questions[0] : undefined);
		if (question === undefined) {
			return { ok: false, problem: `The answer '${text.slice(0, 80)}' does not say which question it answers: give each as <question id>=<answer> (the questions: ${questions.map((q) => q.id).join(', ')}).` };
		}
		(answers[question.id] ??= []).push(named !== undefined ? text.slice(eq + 1) : text);
	}
	const missing = questions.filter((q) => answers[q.id] === undefined);
	if (missing.length > 0) {
		return { ok: false, problem: `Every question needs an answer; none was given for ${missing.map((q) => `'${q.id}' (${q.question.slice(0, 80)})`).join(', ')}.` };
	}
	return { ok: true, answers };
}

/** A plain allow of a question: each question's first (recommended) option; a question without options cannot be answered so. */
export function recommendedAnswers(questions: readonly ApprovalQuestion[]): ResolvedAnswers {
	const open = questions.filter((q) => q.options.length === 0);
	if (open.length > 0) {
		return { ok: false, problem: `${open.map((q) => `'${q.id}' (${q.question.slice(0, 80)})`).join(', ')} has no options to pick from: give the answer with --answer.` };
	}
	return { ok: true, answers: Object.fromEntries(questions.map((q) => [q.id, [q.options[0]!.label]])) };
}

/** The answers an allowed question carries (the developer's edited input `{answers: {<id>: text | [text…]}}`), by question id. */
export function givenAnswers(updatedInput: unknown): QuestionAnswers {
	const answers = typeof updatedInput === 'object' && updatedInput !== null ? (updatedInput as { answers?: unknown }).answers : undefined;
	if (typeof answers !== 'object' || answers === null) { return {}; }
	const out: QuestionAnswers = {};
	for (const [id, value] of Object.entries(answers)) {
		if (typeof value === 'string') { out[id] = [value]; } else if (Array.isArray(value)) { out[id] = value.filter((v): v is string => typeof v === 'string'); }
	}
	return out;
}

/** "Blue", or "color: Blue; size: L" with several questions; a secret question's answer is not repeated. */
export function answersText(questions: readonly ApprovalQuestion[], answers: QuestionAnswers): string {
	const one = (q: ApprovalQuestion): string => (q.isSecret ? '(hidden)' : (answers[q.id] ?? []).join(', '));
	if (questions.length === 1) { return one(questions[0]!); }
	return questions.map((q) => `${q.id}: ${one(q)}`).join('; ');
}
