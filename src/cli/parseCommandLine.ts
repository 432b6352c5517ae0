// argv → what to do: a control-plane call ({method, params}), `tutti host`, help text, or a structured error.
// Pure and total: commander runs with exitOverride and captured output, so nothing is printed and nothing exits.
import { Command, CommanderError, Option } from 'commander';
import type { Method } from '../protocol/controlPlane.js';
import { type CliError, type ExitCode, cliError } from './cliError.js';
import { type CommandSpec, type FlagSpec, commandName, commandTable, commonFlagHelp, groupSummaries } from './commandTable.js';

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

type Picked = { kind: 'spec'; spec: CommandSpec; opts: Record<string, unknown> } | { kind: 'host'; opts: Record<string, unknown> } | { kind: 'mcp' };

const programFooter = `
Every command takes --json and --help. Exit codes: 0 success, 2 invalid input, 1 any other error; with --json a
failure is one line {"error":{"reasonCode","message","hint","retryable"?}} on stdout.

Environment:
  TUTTI_SESSION_TOKEN      the agent session's token (set in the terminals and processes Tutti starts)
  TUTTI_IPC_HOOK           the Host's socket (default: the discovery file of the current workspace)
  TUTTI_CONNECT_TIMEOUT_MS how long to wait for an unavailable Host (default 20000)

Examples:
  tutti host --workspace .
  tutti session open --role source --as-user --json
  tutti plan issue get --issue-id ISSUE --json`;

export function parseCommandLine(argv: readonly string[]): Invocation {
	const json = argv.includes('--json');
	const output = { stdout: '', stderr: '' };
	let picked: Picked | undefined;
	try {
		const program = buildProgram(argv[0], output, (p) => { picked = p; });
		program.parse([...argv], { from: 'user' });
	} catch (error) {
		if (!(error instanceof CommanderError)) {
			return invalid(json, `cannot read the command line: ${error instanceof Error ? error.message : String(error)}`, nearestCommand(argv));
		}
		// `--help`, `tutti help [command]`: help on stdout, exit 0. A group without its subcommand: help as an error.
		if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || (error.code === 'commander.help' && error.exitCode === 0)) {
			return { kind: 'help', text: output.stdout };
		}
		if (error.code === 'commander.help') {
			const command = nearestCommand(argv);
			return { ...invalid(json, `${command} needs a subcommand`, command), helpText: output.stderr };
		}
		return invalid(json, error.message.replace(/^error:\s*/, ''), nearestCommand(argv));
	}
	if (picked === undefined) {
		return invalid(json, 'no command given', 'tutti');
	}
	if (picked.kind === 'mcp') {
		return { kind: 'mcp' };
	}
	if (picked.kind === 'host') {
		if (typeof picked.opts['workspace'] !== 'string') {
			return invalid(json, "required option '--workspace <dir>' not specified", 'tutti host');
		}
		return { kind: 'host', workspace: picked.opts['workspace'], json };
	}
	return toCall(picked.spec, picked.opts, json);
}

function toCall(spec: CommandSpec, opts: Record<string, unknown>, json: boolean): Invocation {
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
			return invalid(json, converted.problem, command);
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
		return invalid(call.json, `${inputLabel(input)}: ${converted.problem}`, invocation.command);
	}
	return { ...call, params: { ...call.params, [input.param]: converted.value } };
}

type Converted = { ok: true; value: unknown } | { ok: false; problem: string };

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
		case 'jsonStringArray': {
			const example = `${name} '["task-a","task-b"]'`;
			let value: unknown;
			try {
				value = JSON.parse(String(raw));
			} catch {
				return problem(`${name} is not valid JSON (got ${quote(raw)}); write a JSON array of task ids such as ${example}`);
			}
			if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
				return problem(`${name} must be a non-empty JSON array of task id strings, such as ${example} (got ${quote(raw)})`);
			}
			return ok(value);
		}
	}
}

function quote(raw: unknown): string {
	const text = String(raw);
	return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function invalid(json: boolean, message: string, command: string): Extract<Invocation, { kind: 'error' }> {
	return { kind: 'error', json, exitCode: 2, error: cliError('invalid_input', message, `run \`${command} --help\``) };
}

/** `--issue-id` → `issueId`, as commander names option values. */
function attributeName(flagName: string): string {
	return flagName.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The longest known command (or group) that argv starts with, for "run `… --help`" hints. */
export function nearestCommand(argv: readonly string[]): string {
	const known = new Set<string>(['host', 'mcp', ...Object.keys(groupSummaries), ...commandTable.map((s) => s.path.join(' '))]);
	const words: string[] = [];
	for (const token of argv) {
		const next = [...words, token].join(' ');
		if (!known.has(next)) {
			break;
		}
		words.push(token);
	}
	return commandName(words);
}

/**
 * The commander program. Only the subtree of argv's first word is built (keeps start-up cheap); an unknown or
 * missing first word builds everything so help and "did you mean" see all commands.
 */
function buildProgram(first: string | undefined, output: { stdout: string; stderr: string }, pick: (p: Picked) => void): Command {
	const program = new Command('tutti')
		.exitOverride()
		.configureOutput({
			writeOut: (text) => { output.stdout += text; },
			writeErr: (text) => { output.stderr += text; },
			outputError: () => { /* reported as a structured error instead */ },
		})
		.description('Tutti: hand an issue to coding agents and keep control. Talks to the Host of this workspace.')
		.showSuggestionAfterError(true)
		.addHelpText('after', programFooter);
	const mine = commandTable.filter((spec) => spec.path[0] === first);
	const specs = mine.length > 0 ? mine : first === 'host' || first === 'mcp' ? [] : commandTable;
	if (first === 'host' || mine.length === 0) {
		program.command('host')
			.description('run the Host for a workspace headless, in the foreground; prints {"ready":true,"socket":…,"pid":…} once it accepts requests')
			.option('--workspace <dir>', 'the workspace folder (required)')
			.option('--json', 'accepted for symmetry (the host always prints JSON lines)')
			.addHelpText('after', '\nExamples:\n  tutti host --workspace .\n  tutti host --workspace /path/to/repo &')
			.action((opts: Record<string, unknown>) => pick({ kind: 'host', opts }));
	}
	if (first === 'mcp' || mine.length === 0) {
		program.command('mcp')
			.description("the permission prompt MCP server (stdio) of a claude Run: asks the developer about tool calls outside its allowedTools")
			.addHelpText('after', '\nClaude Code starts it for the Runs Tutti launches (--mcp-config, --permission-prompt-tool mcp__tutti__approve);\n'
				+ 'it reads TUTTI_IPC_HOOK, TUTTI_SESSION_TOKEN and TUTTI_RUN_ID from its environment. Answer with `tutti approval answer`.\n\nExamples:\n'
				+ '  claude -p --mcp-config \'{"mcpServers":{"tutti":{"command":"tutti","args":["mcp"]}}}\' --permission-prompt-tool mcp__tutti__approve -- "…"')
			.action(() => pick({ kind: 'mcp' }));
	}
	const groups = new Map<string, Command>();
	const groupFor = (path: readonly string[]): Command => {
		let parent = program;
		for (let i = 1; i <= path.length; i++) {
			const key = path.slice(0, i).join(' ');
			let group = groups.get(key);
			if (group === undefined) {
				group = parent.command(path[i - 1]!).description(groupSummaries[key] ?? '');
				groups.set(key, group);
			}
			parent = group;
		}
		return parent;
	};
	for (const spec of specs) {
		const leaf = groupFor(spec.path.slice(0, -1)).command(spec.path[spec.path.length - 1]!, { hidden: spec.hidden === true })
			.description(spec.summary);
		for (const flag of spec.flags) {
			leaf.addOption(optionFor(flag));
			if (flag.file !== undefined) {
				leaf.addOption(new Option(`--${flag.file} <path>`, `read ${flagLabel(flag)} from this file instead`));
			}
		}
		leaf.option('--json', commonFlagHelp.json).option('--as-user', commonFlagHelp.asUser);
		const examples = `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`;
		leaf.addHelpText('after', spec.details ? `${examples}\n\n${spec.details}` : examples);
		leaf.action((opts: Record<string, unknown>) => pick({ kind: 'spec', spec, opts }));
	}
	return program;
}

function flagLabel(flag: FlagSpec): string {
	const placeholder = flag.kind === 'bool' ? (flag.valueName ?? '') : (flag.valueName ?? '<value>');
	return `--${flag.name}${placeholder ? ` ${placeholder}` : ''}`;
}

function optionFor(flag: FlagSpec): Option {
	const option = new Option(flagLabel(flag), flag.required ? `${flag.description} (required)` : flag.description);
	if (flag.kind === 'choice' && flag.choices) {
		option.choices(flag.choices);
	}
	if (flag.kind === 'list') {
		option.argParser((value: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), value]);
	}
	return option;
}
