// What a command receives: from the palette nothing (the command asks), from the board its tree element, from
// the issue panel positional ids (`acceptTask(issueId, taskId)`, `requestChanges(issueId, taskId | undefined, note)`),
// from tests and scripts an object (`{ issueId, taskId, note }`). These read ids out of any of them.
// vscode-free (unit-tested in test/unit/extension/commandArgs.test.ts).

export type CommandArgs = readonly unknown[];

function field(arg: unknown, name: string): unknown {
	if (typeof arg !== 'object' || arg === null) {
		return undefined;
	}
	const record = arg as Record<string, unknown>;
	if (name in record) {
		return record[name];
	}
	// A board element wraps its issue: { kind: 'issue', item: { issueId, … } }.
	return record['item'] !== undefined && record['item'] !== arg ? field(record['item'], name) : undefined;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function idOf(args: CommandArgs, name: string): string | undefined {
	return text(args[0]) ?? text(field(args[0], name));
}

/** `(issueId, { push: true })` or `({ issueId, push: true })`: the panel's Push checkbox next to Integrate. */
export function pushOf(args: CommandArgs): boolean {
	return field(args[1], 'push') === true || field(args[0], 'push') === true;
}

/** `(issueId)`, `({ issueId })` or a board element; undefined → ask. */
export function issueIdOf(args: CommandArgs): string | undefined {
	return idOf(args, 'issueId');
}

/** `(runId)` or `({ runId })`; undefined → ask. */
export function runIdOf(args: CommandArgs): string | undefined {
	return idOf(args, 'runId');
}

export interface TaskRef {
	readonly issueId: string;
	readonly taskId: string;
}

/** `(issueId, taskId)` or `({ issueId, taskId })`; undefined → ask. */
export function taskRefOf(args: CommandArgs): TaskRef | undefined {
	const issueId = issueIdOf(args);
	const taskId = text(args[1]) ?? text(field(args[0], 'taskId'));
	return issueId !== undefined && taskId !== undefined ? { issueId, taskId } : undefined;
}

/** `(issueId, taskId | undefined, note)` or `({ note })`; undefined → ask. */
export function noteOf(args: CommandArgs): string | undefined {
	return text(args[2]) ?? text(field(args[0], 'note'));
}

/** A follow-up's text: `(issueId, text)` or `({ issueId, text })`; undefined → ask. */
export function followUpTextOf(args: CommandArgs): string | undefined {
	return text(args[1]) ?? text(field(args[0], 'text'));
}

/** The panel's goal form `(issueId, undefined, note)`, or `({ issueId, goal: true })`. */
export function isGoalRequest(args: CommandArgs): boolean {
	return (typeof args[0] === 'string' && args[1] === undefined && typeof args[2] === 'string') || field(args[0], 'goal') === true;
}

/** `({ confirmed: true })` or `(issueId, { confirmed: true })`: the caller already asked the developer. */
export function isConfirmed(args: CommandArgs): boolean {
	return field(args[0], 'confirmed') === true || field(args[1], 'confirmed') === true;
}

/** The object argument of commands that take one (`newIssue`, `exportIssue`, `newAgentTerminal`), or `{}`. */
export function optionsOf<T extends object>(args: CommandArgs): Partial<T> {
	const first = args[0];
	return (typeof first === 'object' && first !== null ? first : {}) as Partial<T>;
}
