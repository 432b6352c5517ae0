// The approvals of the selected task (its Runs' tool calls that asked the developer, and its agents' questions), shown
// usefully: the command for Bash (Claude Code) and exec_command (codex), the path and a diff for Edit / MultiEdit /
// Write, a question with its options, otherwise the input as JSON; and what the input editor (Allow with an edited
// input) starts with. Pure.
import { type ApprovalInputEditor, approvalInputEditor } from '../../src/protocol/approvalInput.js';
import type { ApprovalDto, RunDto } from './snapshotTypes.js';

export type ApprovalBody =
	| { readonly kind: 'command'; readonly command: string }
	| { readonly kind: 'file'; readonly path: string; readonly diff: readonly { readonly sign: '+' | '-'; readonly text: string }[] }
	| { readonly kind: 'json'; readonly text: string }
	| { readonly kind: 'question'; readonly questions: ApprovalDto['questions'] };

export interface ApprovalModel {
	readonly approvalId: string;
	readonly runId: string;
	readonly tool: string;
	readonly pending: boolean;
	readonly body: ApprovalBody;
	/** "allowed once by the developer at …", "canceled: …", "not answered yet". */
	readonly answerLabel: string;
	/** What the input editor starts with: Bash's command line, or the input as JSON (pending requests only matter). */
	readonly editor: ApprovalInputEditor;
}

const maxDiffLines = 200;

function str(input: unknown, name: string): string | undefined {
	const v = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
	return typeof v === 'string' ? v : undefined;
}

function lines(sign: '+' | '-', text: string): { sign: '+' | '-'; text: string }[] {
	return text.split('\n').map((l) => ({ sign, text: l }));
}

export function approvalBody(tool: string, input: unknown): ApprovalBody {
	const command = str(input, 'command');
	if ((tool === 'Bash' || tool === 'exec_command') && command !== undefined) { return { kind: 'command', command }; }
	const path = str(input, 'file_path');
	if (path !== undefined && (tool === 'Edit' || tool === 'Write' || tool === 'MultiEdit')) {
		let diff: { sign: '+' | '-'; text: string }[] = [];
		if (tool === 'Write') {
			diff = lines('+', str(input, 'content') ?? '');
		} else {
			const edits = tool === 'MultiEdit' && typeof input === 'object' && input !== null && Array.isArray((input as { edits?: unknown }).edits)
				? (input as { edits: unknown[] }).edits : [input];
			for (const edit of edits) {
				diff.push(...lines('-', str(edit, 'old_string') ?? ''), ...lines('+', str(edit, 'new_string') ?? ''));
			}
		}
		return { kind: 'file', path, diff: diff.slice(0, maxDiffLines) };
	}
	return { kind: 'json', text: JSON.stringify(input ?? {}, null, 2) };
}

/** Every approval of the task's Runs, the pending ones first, then newest first. */
export function approvalModels(runs: readonly RunDto[]): ApprovalModel[] {
	const all: ApprovalDto[] = runs.flatMap((r) => r.approvals ?? []);
	return all
		.sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || b.requestedAtUnixMs - a.requestedAtUnixMs)
		.map((a) => ({
			approvalId: a.approvalId, runId: a.runId, tool: a.tool, pending: a.status === 'pending',
			body: a.kind === 'question' ? { kind: 'question', questions: a.questions } : approvalBody(a.tool, a.input), answerLabel: a.answerLabel,
			editor: approvalInputEditor(a.tool, a.input),
		}));
}
