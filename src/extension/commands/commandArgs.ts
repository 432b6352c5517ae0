// What a command receives: from the palette nothing (the command asks), from the board a tree element, from the
// issue panel or a test a plain id or object. These turn any of them into ids. vscode-free (unit-tested).

function field(arg: unknown, name: string): string | undefined {
	if (typeof arg !== 'object' || arg === null) {
		return undefined;
	}
	const value = (arg as Record<string, unknown>)[name];
	if (typeof value === 'string' && value !== '') {
		return value;
	}
	// A board element wraps its issue: { item: { issueId } }.
	const item = (arg as Record<string, unknown>)['item'];
	return item !== undefined && item !== arg ? field(item, name) : undefined;
}

/** `"issue-…"`, `{ issueId }` or a board element; undefined → ask. */
export function issueIdOf(arg: unknown): string | undefined {
	return typeof arg === 'string' && arg !== '' ? arg : field(arg, 'issueId');
}

/** `"run-…"` or `{ runId }`; undefined → ask. */
export function runIdOf(arg: unknown): string | undefined {
	return typeof arg === 'string' && arg !== '' ? arg : field(arg, 'runId');
}

export interface TaskRef {
	readonly issueId: string;
	readonly taskId: string;
}

/** `{ issueId, taskId }`; undefined → ask. */
export function taskRefOf(arg: unknown): TaskRef | undefined {
	const issueId = field(arg, 'issueId');
	const taskId = field(arg, 'taskId');
	return issueId !== undefined && taskId !== undefined ? { issueId, taskId } : undefined;
}

/** An optional `note` given with the arguments (the panel's "Request changes" box); undefined → ask. */
export function noteOf(arg: unknown): string | undefined {
	return field(arg, 'note');
}
