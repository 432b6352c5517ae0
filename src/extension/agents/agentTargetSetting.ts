// The `tutti.agentTargets` setting as Tutti: Add Agent writes it: a new target appended to the existing ones (kept
// verbatim), its id unique, checked by the Host's own config schema before anything is written. A path that exists
// only on this machine (an absolute executable) never goes into the folder's setting, which a team commits: it goes
// into the machine-scoped `tutti.agentPaths` (by target id), which the Host merges (tuttiSettings.ts). vscode-free.
import * as path from 'node:path';
import { z } from 'zod';
import { hostConfigFile } from '../../host/config.js';
import type { AgentAdapter } from './agentDiscovery.js';

export interface NewAgentTarget {
	readonly adapter: AgentAdapter | 'command';
	/**
	 * claude/codex: the executable found or browsed for ('' : looked up on PATH); it goes to `tutti.agentPaths` when
	 * absolute. command: unused (argv[0] is the executable).
	 */
	readonly path: string;
	/** command only: the exact argument vector (argv[0] absolute: it goes to `tutti.agentPaths`, its name stays). */
	readonly argv?: readonly string[];
	/** command only: the working directory (relative to the workspace when inside it). */
	readonly cwd?: string;
	/** command only: extra environment variables. */
	readonly env?: Readonly<Record<string, string>>;
	/** Default: the adapter's name, made unique. */
	readonly id?: string;
	readonly model?: string;
	/** Claude Code only: `--allowedTools` entries ("Read", "Bash(npm test:*)"). */
	readonly allowedTools?: readonly string[];
	/** Claude Code only: a tool call outside allowedTools asks the developer (`ask`) or is denied silently. */
	readonly approvals?: 'ask' | 'allowed-tools-only';
}

export type AgentTargetsUpdate =
	| {
		readonly ok: true; readonly id: string; readonly targets: readonly Record<string, unknown>[];
		/** This machine's executable of the new target, for `tutti.agentPaths` ('' when it needs none). */
		readonly machinePath: string;
	}
	| { readonly ok: false; readonly error: string };

/** The ids already taken in the current setting value (anything that is not a list counts as empty). */
export function existingTargetIds(current: unknown): string[] {
	if (!Array.isArray(current)) { return []; }
	return current.flatMap((t: unknown) => (typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'string' ? [(t as { id: string }).id] : []));
}

/** `base`, or `base-2`, `base-3`, … the first one not taken. */
export function uniqueTargetId(base: string, taken: readonly string[]): string {
	const set = new Set(taken);
	if (!set.has(base)) { return base; }
	for (let n = 2; ; n++) {
		if (!set.has(`${base}-${n}`)) { return `${base}-${n}`; }
	}
}

/** Splits "Read, Edit,Bash(npm test:*)" into entries; commas inside parentheses stay. */
export function parseAllowedTools(text: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let current = '';
	for (const ch of text) {
		if (ch === '(') { depth++; }
		if (ch === ')') { depth = Math.max(0, depth - 1); }
		if ((ch === ',' || ch === '\n') && depth === 0) {
			if (current.trim() !== '') { out.push(current.trim()); }
			current = '';
			continue;
		}
		current += ch;
	}
	if (current.trim() !== '') { out.push(current.trim()); }
	return out;
}

/** A path that names an executable on this machine only (absolute, on POSIX or Windows). */
export function isMachinePath(file: string): boolean {
	return path.posix.isAbsolute(file) || path.win32.isAbsolute(file);
}

/** The executable's file name, as the folder's setting keeps it (`/usr/local/bin/claude` → `claude`). */
function executableName(file: string): string {
	return path.win32.basename(path.posix.basename(file));
}

/** A working directory as the folder's setting keeps it: relative to the workspace when inside it. */
function folderRelative(cwd: string, workspace: string | undefined): string {
	if (workspace === undefined || !isMachinePath(cwd)) { return cwd; }
	const rel = path.relative(workspace, cwd);
	return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? cwd : rel.split(path.sep).join('/');
}

/**
 * The setting's new value with `target` appended, or why it cannot be written (the Host would refuse it). An absolute
 * executable is left out of it (claude/codex: no `path`; command: argv[0] by its name) and returned as `machinePath`.
 */
export function withAgentTarget(current: unknown, target: NewAgentTarget, workspace?: string): AgentTargetsUpdate {
	const existing: Record<string, unknown>[] = Array.isArray(current) ? current.filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null) : [];
	const taken = existingTargetIds(existing);
	const requested = target.id?.trim();
	if (requested !== undefined && requested !== '' && taken.includes(requested)) {
		return { ok: false, error: `An agent target named "${requested}" already exists; choose another name.` };
	}
	const argv = target.adapter === 'command' ? [...(target.argv ?? [])] : [];
	const executable = target.adapter === 'command' ? (argv[0] ?? '') : target.path.trim();
	const machinePath = isMachinePath(executable) ? executable : '';
	const base = target.adapter === 'command' && executable !== '' ? executableName(executable).replace(/[^\w.-]+/g, '-') || 'command' : target.adapter;
	const id = requested !== undefined && requested !== '' ? requested : uniqueTargetId(base, taken);
	const entry: Record<string, unknown> = { id, adapter: target.adapter };
	if (target.adapter === 'command') {
		entry['argv'] = machinePath !== '' ? [executableName(machinePath), ...argv.slice(1)] : argv;
		if (target.cwd !== undefined && target.cwd.trim() !== '') { entry['cwd'] = folderRelative(target.cwd.trim(), workspace); }
		if (target.env !== undefined && Object.keys(target.env).length > 0) { entry['env'] = { ...target.env }; }
	} else if (executable !== '' && machinePath === '') {
		entry['path'] = executable;
	}
	if (target.model !== undefined && target.model.trim() !== '') { entry['model'] = target.model.trim(); }
	if (target.adapter === 'claude' && target.allowedTools !== undefined && target.allowedTools.length > 0) { entry['allowedTools'] = [...target.allowedTools]; }
	if (target.adapter === 'claude' && target.approvals !== undefined) { entry['approvals'] = target.approvals; }
	const targets = [...existing, entry];
	const checked = hostConfigFile.safeParse({ agentTargets: targets });
	if (!checked.success) {
		return { ok: false, error: `tutti.agentTargets would be invalid: ${z.prettifyError(checked.error).replace(/\s*\n\s*/g, ' ')}` };
	}
	return { ok: true, id, targets, machinePath };
}

/** `tutti.agentPaths` with `id`'s executable set (the user's other entries kept; anything not an object counts as empty). */
export function withAgentPath(current: unknown, id: string, machinePath: string): Record<string, string> {
	const kept = typeof current === 'object' && current !== null && !Array.isArray(current)
		? Object.fromEntries(Object.entries(current).filter((e): e is [string, string] => typeof e[1] === 'string'))
		: {};
	return { ...kept, [id]: machinePath };
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/**
 * A command line as an argument vector, split as a POSIX shell splits words ('…' and "…" quote, \ escapes); nothing
 * else of a shell applies, so an unquoted `|`, `;`, `&`, `<`, `>`, `$` or backquote is refused, naming it.
 */
export function splitCommandLine(text: string): Parsed<string[]> {
	const words: string[] = [];
	let word: string | null = null;
	for (let i = 0; i < text.length; i++) {
		const c = text[i]!;
		if (c === "'") {
			const end = text.indexOf("'", i + 1);
			if (end < 0) { return { ok: false, error: "a ' is not closed" }; }
			word = (word ?? '') + text.slice(i + 1, end);
			i = end;
		} else if (c === '"') {
			let j = i + 1;
			let quoted = '';
			for (; j < text.length && text[j] !== '"'; j++) {
				if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) { j++; }
				quoted += text[j];
			}
			if (j >= text.length) { return { ok: false, error: 'a " is not closed' }; }
			word = (word ?? '') + quoted;
			i = j;
		} else if (c === '\\') {
			word = (word ?? '') + (text[i + 1] ?? '');
			i++;
		} else if (/\s/.test(c)) {
			if (word !== null) { words.push(word); word = null; }
		} else if ('|;&<>$`'.includes(c)) {
			return { ok: false, error: `"${c}" would need a shell, and the command runs without one: quote it, or put the pipeline in a script and run that` };
		} else {
			word = (word ?? '') + c;
		}
	}
	if (word !== null) { words.push(word); }
	return words.length === 0 ? { ok: false, error: 'write the command to run' } : { ok: true, value: words };
}

/** `NAME=value` pairs, separated like command-line words (`A=1 B="two words"`); empty text: none. */
export function parseEnvPairs(text: string): Parsed<Record<string, string>> {
	if (text.trim() === '') { return { ok: true, value: {} }; }
	const words = splitCommandLine(text);
	if (!words.ok) { return words; }
	const env: Record<string, string> = {};
	for (const word of words.value) {
		const eq = word.indexOf('=');
		const name = eq < 0 ? word : word.slice(0, eq);
		if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
			return { ok: false, error: `"${word}" is not NAME=value (a name is letters, digits and _, not starting with a digit)` };
		}
		env[name] = word.slice(eq + 1);
	}
	return { ok: true, value: env };
}
