// What an approval request asks, in words (vscode-free, unit-tested): the command for Bash (Claude Code) and
// exec_command (codex), the path for a file tool, the files of a codex patch, an agent's question with its options,
// otherwise the tool's input as short JSON. Used by the notification with Allow / Deny, or a question's option buttons.
import type { ApprovalDto } from '../../protocol/approvals.js';

const maxShown = 300;

function clip(text: string): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > maxShown ? `${oneLine.slice(0, maxShown - 1)}…` : oneLine;
}

function field(input: unknown, name: string): string | undefined {
	const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** "run `npm publish`", "edit src/a.ts", "write notes.md", "answer: Which color?", or "use WebFetch {"url":…}". */
export function approvalAction(approval: Pick<ApprovalDto, 'tool' | 'input' | 'kind' | 'questions'>): string {
	if (approval.kind === 'question') { return `answer: ${clip(approval.questions.map((q) => q.question).join(' / '))}`; }
	const command = field(approval.input, 'command');
	if ((approval.tool === 'Bash' || approval.tool === 'exec_command') && command !== undefined) { return `run \`${clip(command)}\``; }
	const input = typeof approval.input === 'object' && approval.input !== null ? approval.input as Record<string, unknown> : {};
	if (approval.tool === 'apply_patch' && Array.isArray(input.changes)) {
		return `change ${clip(input.changes.map((c) => field(c, 'path') ?? '?').join(', '))}`;
	}
	const path = field(approval.input, 'file_path') ?? field(approval.input, 'notebook_path');
	if (path !== undefined) {
		const verb = approval.tool === 'Write' ? 'write' : approval.tool.endsWith('Edit') ? 'edit' : `use ${approval.tool} on`;
		return `${verb} ${clip(path)}`;
	}
	return `use ${approval.tool} ${clip(JSON.stringify(approval.input ?? {}))}`;
}

/** The notification's text: who asks what; a question in its own words, with its options. */
export function approvalMessage(approval: Pick<ApprovalDto, 'tool' | 'input' | 'taskId' | 'kind' | 'questions'>, issueTitle: string | undefined): string {
	const who = `Tutti: the agent of task ${approval.taskId}${issueTitle !== undefined ? ` ("${clip(issueTitle)}")` : ''}`;
	if (approval.kind === 'question') {
		const asked = approval.questions.map((q) => `${q.question}${q.options.length > 0 ? ` (${q.options.map((o) => o.label).join(' · ')})` : ''}`).join(' / ');
		return `${who} asks: ${clip(asked)}`;
	}
	return `${who} asks to ${approvalAction(approval)}.`;
}

/** The most options a question's notification offers as buttons of their own. */
export const maxOptionButtons = 3;

/** A button of a question's notification: pick an option, answer in a dialog, or decline. */
export type QuestionButton = { kind: 'option'; title: string; answer: string } | { kind: 'answer'; title: string } | { kind: 'decline'; title: string };

/**
 * One question with at most three options: a button per option (its answer `<id>=<label>`), then Other… when a free
 * answer is taken; otherwise Answer… (a dialog per question). Decline last.
 */
export function questionButtons(approval: Pick<ApprovalDto, 'questions'>): QuestionButton[] {
	const [only, ...more] = approval.questions;
	const buttons: QuestionButton[] = [];
	if (only !== undefined && more.length === 0 && only.options.length > 0 && only.options.length <= maxOptionButtons) {
		buttons.push(...only.options.map((o) => ({ kind: 'option' as const, title: o.label, answer: `${only.id}=${o.label}` })));
		if (only.isOther) { buttons.push({ kind: 'answer', title: 'Other…' }); }
	} else {
		buttons.push({ kind: 'answer', title: 'Answer…' });
	}
	buttons.push({ kind: 'decline', title: 'Decline' });
	return buttons;
}

/** Pending requests not notified yet (by id), oldest first; `seen` is updated. */
export function newlyPending(approvals: readonly ApprovalDto[], seen: Set<string>): ApprovalDto[] {
	const fresh = approvals.filter((a) => a.status === 'pending' && !seen.has(a.approvalId));
	for (const a of fresh) { seen.add(a.approvalId); }
	return fresh;
}
