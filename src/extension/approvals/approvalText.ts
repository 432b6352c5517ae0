// What an approval request asks, in words (vscode-free, unit-tested): the command for Bash (Claude Code) and
// exec_command (codex), the path for a file tool, the files of a codex patch, the question of a codex question, otherwise
// the tool's input as short JSON. Used by the notification with Allow / Deny.
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

/** "run `npm publish`", "edit src/a.ts", "write notes.md", or "use WebFetch {"url":…}". */
export function approvalAction(approval: Pick<ApprovalDto, 'tool' | 'input'>): string {
	const command = field(approval.input, 'command');
	if ((approval.tool === 'Bash' || approval.tool === 'exec_command') && command !== undefined) { return `run \`${clip(command)}\``; }
	const input = typeof approval.input === 'object' && approval.input !== null ? approval.input as Record<string, unknown> : {};
	if (approval.tool === 'apply_patch' && Array.isArray(input.changes)) {
		return `change ${clip(input.changes.map((c) => field(c, 'path') ?? '?').join(', '))}`;
	}
	if (approval.tool === 'request_user_input' && Array.isArray(input.questions)) {
		return `answer: ${clip(input.questions.map((q) => field(q, 'question') ?? '?').join(' / '))}`;
	}
	const path = field(approval.input, 'file_path') ?? field(approval.input, 'notebook_path');
	if (path !== undefined) {
		const verb = approval.tool === 'Write' ? 'write' : approval.tool.endsWith('Edit') ? 'edit' : `use ${approval.tool} on`;
		return `${verb} ${clip(path)}`;
	}
	return `use ${approval.tool} ${clip(JSON.stringify(approval.input ?? {}))}`;
}

/** The notification's text: who asks what. */
export function approvalMessage(approval: Pick<ApprovalDto, 'tool' | 'input' | 'taskId'>, issueTitle: string | undefined): string {
	return `Tutti: the agent of task ${approval.taskId}${issueTitle !== undefined ? ` ("${clip(issueTitle)}")` : ''} asks to ${approvalAction(approval)}.`;
}

/** Pending requests not notified yet (by id), oldest first; `seen` is updated. */
export function newlyPending(approvals: readonly ApprovalDto[], seen: Set<string>): ApprovalDto[] {
	const fresh = approvals.filter((a) => a.status === 'pending' && !seen.has(a.approvalId));
	for (const a of fresh) { seen.add(a.approvalId); }
	return fresh;
}
