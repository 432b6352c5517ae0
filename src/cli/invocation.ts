// What a command line asks for (a control-plane call, `tutti host`, help, or a structured error), and the checks
// and conversions that turn a command's parsed flags into the call's params. Shared by the quick parser
// (quickParse.ts, the usual case) and the commander program (commanderParse.ts, help and everything unusual).
import type { Method } from '../protocol/controlPlane.js';
import { operationsNotJsonMessage } from '../protocol/operationsShape.js';
import { type CliError, type ExitCode, cliError } from './cliError.js';
import { type CommandSpec, type FlagSpec, commandName } from './commandTable.js';

export type Invocation =
	| {
		kind: 'call';
		/** `tutti plan issue get` */
		command: string;
		method: Method;
		params: Record<string, unknown>;
		json: boolean;
		asUser: boolean;
		/** `run log --follow` */
		follow: boolean;
		/** A flag's value still to be read from stdin or a file (`--operations-json -`, `--operations-file PATH`); see applyInput. */
		input?: PendingInput;
	}
	| { kind: 'host'; workspace: string; json: boolean }
	/** `tutti mcp`: the permission-prompt MCP server on stdio (for the claude Runs Tutti starts). */
	| { kind: 'mcp' }
	| { kind: 'help'; text: string }
	| { kind: 'error'; error: CliError; exitCode: ExitCode; json: boolean; helpText?: string };

/** Where a flag's value is read from, before the call: stdin or a file. */
export interface PendingInput {
	flag: FlagSpec;
	/** The param it fills (flag.param). */
	param: string;
	source: { kind: 'stdin' } | { kind: 'file'; path: string };
}

/** The call a command's parsed flags (`opts`, keyed as commander names them) ask for, or the first problem. */
export function toCall(spec: CommandSpec, opts: Record<string, unknown>, json: boolean): Invocation {
	const command = commandName(spec.path);
	const chosen = (spec.alternatives ?? []).filter((a) => opts[attributeName(a.flag)] !== undefined && opts[attributeName(a.flag)] !== false);
	if (chosen.length > 1) {
		return invalid(json, `${chosen.map((a) => `--${a.flag}`).join(' and ')} cannot be combined: give one of them`, command);
	}
	const method = chosen[0]?.method ?? spec.method;
	const params: Record<string, unknown> = {};
	let input: PendingInput | undefined;
	for (const flag of spec.flags) {
		const raw = opts[attributeName(flag.name)];
		const fromFile = flag.file === undefined ? undefined : opts[attributeName(flag.file)];
		if (flag.methods !== undefined && !flag.methods.includes(method)) {
			if (raw !== undefined && chosen[0] !== undefined) {
				return invalid(json, `--${flag.name} cannot be combined with --${chosen[0].flag}`, command);
			}
			continue;
		}
		if (flag.param === null) {
			continue;
		}
		if (fromFile !== undefined) {
			if (raw !== undefined) {
				return invalid(json, `give either --${flag.name} or --${flag.file}, not both`, command);
			}
			input = { flag, param: flag.param, source: { kind: 'file', path: String(fromFile) } };
			continue;
		}
		if (raw === undefined) {
			if (flag.required) {
				// Checked here rather than by commander, so that a mistyped flag is reported as unknown first.
				const or = flag.file === undefined ? '' : ` (or --${flag.file} <path>)`;
				return invalid(json, `required option '${flagLabel(flag)}'${or} not specified`, command);
			}
			continue;
		}
		if (flag.file !== undefined && raw === '-') {
			input = { flag, param: flag.param, source: { kind: 'stdin' } };
			continue;
		}
		const converted = convert(flag, raw);
		if (!converted.ok) {
			return invalid(json, converted.problem, command, converted.reasonCode);
		}
		params[flag.param] = converted.value;
	}
	return {
		kind: 'call', command, method, params, json, asUser: opts['asUser'] === true, follow: opts['follow'] === true,
		...(input !== undefined ? { input } : {}),
	};
}

/** Where a pending input came from, for messages: `--operations-json -` (stdin) or `--operations-file plan.json`. */
export function inputLabel(input: PendingInput): string {
	return input.source.kind === 'stdin' ? `--${input.flag.name} - (stdin)` : `--${input.flag.file ?? input.flag.name} ${input.source.path}`;
}

/**
 * The call with its pending input filled in from `text` (read from stdin or the file), under the same checks as the
 * flag's inline value; an empty text is refused with a message saying how to send it.
 */
export function applyInput(invocation: Extract<Invocation, { kind: 'call' }>, text: string): Invocation {
	const { input, ...call } = invocation;
	if (input === undefined) {
		return invocation;
	}
	if (text.trim() === '') {
		const how = input.source.kind === 'stdin'
			? `pipe the JSON into it, for example \`${invocation.command} … --${input.flag.name} - < plan.json\``
			: 'write the JSON into that file first';
		return invalid(call.json, `${inputLabel(input)} is empty: ${how}`, invocation.command);
	}
	const converted = convert(input.flag, text);
	if (!converted.ok) {
		// Malformed operations are answered in the same words from any source, as the Host answers a malformed shape.
		const message = converted.reasonCode === undefined ? `${inputLabel(input)}: ${converted.problem}` : converted.problem;
		return invalid(call.json, message, invocation.command, converted.reasonCode);
	}
	return { ...call, params: { ...call.params, [input.param]: converted.value } };
}

type Converted = { ok: true; value: unknown } | { ok: false; problem: string; reasonCode?: 'invalid_mutation_operation' };

const ok = (value: unknown): Converted => ({ ok: true, value });
const problem = (text: string): Converted => ({ ok: false, problem: text });

function convert(flag: FlagSpec, raw: unknown): Converted {
	const name = `--${flag.name}`;
	switch (flag.kind) {
		case 'string':
		case 'choice':
			return ok(String(raw));
		case 'list':
			return ok(Array.isArray(raw) ? raw.map(String) : [String(raw)]);
		case 'optionalValue': {
			if (raw === true) { return ok(flag.bare ?? true); }
			const text = String(raw);
			if (flag.choices !== undefined && !flag.choices.includes(text)) {
				return problem(`${name} takes ${flag.choices.join(' or ')}, or nothing (got ${quote(raw)})`);
			}
			return text === '' ? problem(`${name} needs a value when one is given with = (got "")`) : ok(text);
		}
		case 'bool': {
			const text = raw === true ? 'true' : String(raw).toLowerCase();
			return text === 'true' ? ok(true) : text === 'false' ? ok(false) : problem(`${name} must be true or false (got ${quote(raw)})`);
		}
		case 'positiveInt':
		case 'nonNegativeInt': {
			const text = String(raw);
			const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
			const min = flag.kind === 'positiveInt' ? 1 : 0;
			return Number.isSafeInteger(value) && value >= min ? ok(value) : problem(`${name} must be a whole number ≥ ${min} (got ${quote(raw)})`);
		}
		case 'budgetUsd': {
			const text = String(raw).trim();
			if (text === 'none') { return ok(null); }
			const value = /^\d{1,7}(\.\d{1,6})?$/.test(text) ? Number(text) : NaN;
			return Number.isFinite(value) && value <= 1_000_000 ? ok(value)
				: problem(`${name} must be an amount in US dollars ≥ 0 such as 5 or 2.50 (at most 1000000), or none (got ${quote(raw)})`);
		}
		case 'budgetTokens': {
			const text = String(raw).trim();
			if (text === 'none') { return ok(null); }
			const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
			return Number.isSafeInteger(value) ? ok(value) : problem(`${name} must be a whole number of tokens ≥ 0, or none (got ${quote(raw)})`);
		}
		case 'jsonStringArray':
			return jsonFlag(name, raw, { what: 'a JSON array of task ids', example: `${name} '["task-a","task-b"]'` },
				(v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'), 'a non-empty JSON array of task id strings');
		case 'jsonObject':
			return jsonFlag(name, raw, { what: 'a JSON object', example: `${name} '{"command":"npm test"}'` },
				(v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'a JSON object');
		case 'jsonArray':
			return jsonFlag(name, raw, { what: 'a JSON array', example: `${name} '[{"name":"test","argv":["npm","test"]}]'` }, (v) => Array.isArray(v), 'a JSON array');
		case 'jsonOperations':
			try {
				return ok(JSON.parse(String(raw)));
			} catch (error) {
				return { ok: false, problem: operationsNotJsonMessage((error as Error).message), reasonCode: 'invalid_mutation_operation' };
			}
	}
}

/** A flag whose value is JSON of one shape: parsed, checked, and both failures said with an example. */
function jsonFlag(name: string, raw: unknown, help: { what: string; example: string }, isShape: (v: unknown) => boolean, shape: string): Converted {
	let value: unknown;
	try {
		value = JSON.parse(String(raw));
	} catch {
		return problem(`${name} is not valid JSON (got ${quote(raw)}); write ${help.what} such as ${help.example}`);
	}
	return isShape(value) ? ok(value) : problem(`${name} must be ${shape}, such as ${help.example} (got ${quote(raw)})`);
}

function quote(raw: unknown): string {
	const text = String(raw);
	return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

export function invalid(json: boolean, message: string, command: string, reasonCode: 'invalid_input' | 'invalid_mutation_operation' = 'invalid_input'): Extract<Invocation, { kind: 'error' }> {
	return { kind: 'error', json, exitCode: 2, error: cliError(reasonCode, message, `run \`${command} --help\``) };
}

/** `--issue-id` → `issueId`, as commander names option values. */
export function attributeName(flagName: string): string {
	return flagName.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function flagLabel(flag: FlagSpec): string {
	const placeholder = flag.kind === 'bool' || flag.kind === 'optionalValue' ? (flag.valueName ?? '') : (flag.valueName ?? '<value>');
	return `--${flag.name}${placeholder ? ` ${placeholder}` : ''}`;
}
