// The developer's edit of a tool call's input before allowing it (the Host's `updatedInput`), both ends in one place:
// the panel's editor and the approval notification's Edit… show the command line for Bash (Claude Code) and
// exec_command (codex) and the input as JSON for any other tool, and read the edited text back into the input the
// tool runs with. Pure, no I/O.
import { z } from 'zod';

/** What `approval/answer` takes as `updatedInput`: a JSON object. */
export const updatedInputSchema = z.record(z.string(), z.unknown());
export type UpdatedInput = z.infer<typeof updatedInputSchema>;

export interface ApprovalInputEditor {
	/** `command`: Bash's or exec_command's command line (one field of the input); `json`: the whole input. */
	readonly kind: 'command' | 'json';
	/** The text the editor starts with. */
	readonly text: string;
}

function objectOf(input: unknown): Record<string, unknown> {
	return typeof input === 'object' && input !== null && !Array.isArray(input) ? input as Record<string, unknown> : {};
}

export function approvalInputEditor(tool: string, input: unknown): ApprovalInputEditor {
	const command = objectOf(input)['command'];
	if ((tool === 'Bash' || tool === 'exec_command') && typeof command === 'string') { return { kind: 'command', text: command }; }
	return { kind: 'json', text: JSON.stringify(input ?? {}, null, 2) };
}

export type EditedInput = { readonly ok: true; readonly value: UpdatedInput } | { readonly ok: false; readonly error: string };

/** The input the tool runs with after the developer's edit: the command line replaced, or the JSON object as written. */
export function editedApprovalInput(tool: string, input: unknown, text: string): EditedInput {
	const editor = approvalInputEditor(tool, input);
	if (editor.kind === 'command') {
		return text.trim() === '' ? { ok: false, error: 'Write the command to run (or Deny).' } : { ok: true, value: { ...objectOf(input), command: text } };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (e) {
		return { ok: false, error: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
	}
	const checked = updatedInputSchema.safeParse(parsed);
	return checked.success && !Array.isArray(parsed) ? { ok: true, value: checked.data } : { ok: false, error: 'The input must be a JSON object ({ … }).' };
}
