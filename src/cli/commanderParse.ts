// argv → what to do, through a commander program: help, "did you mean", and every command line the quick parser
// (quickParse.ts) leaves to it. Pure and total: commander runs with exitOverride and captured output, so nothing
// is printed and nothing exits. Loaded only when needed (parseCommandLine.ts): commander is most of the CLI's code.
import { Command, CommanderError, Option } from 'commander';
import { type CommandSpec, type FlagSpec, commandName, commandTable, commonFlagHelp, groupSummaries } from './commandTable.js';
import { type Invocation, flagLabel, invalid, toCall } from './invocation.js';

type Picked = { kind: 'spec'; spec: CommandSpec; opts: Record<string, unknown> } | { kind: 'host'; opts: Record<string, unknown> } | { kind: 'mcp' };

const programFooter = `
Every command takes --json and --help. Exit codes: 0 success, 2 invalid input, 1 any other error; with --json a
failure is one line {"error":{"reasonCode","message","hint","retryable"?}} on stdout.

Environment:
  TUTTI_SESSION_TOKEN      the agent session's token (set in the terminals and processes Tutti starts)
  TUTTI_IPC_HOOK           the Host's socket (default: the discovery file of the current workspace)
  TUTTI_CONNECT_TIMEOUT_MS how long to wait for an unavailable Host (default 20000)

The CLI reads a discovery file or credential, and sends to a socket, only when it is yours: owned by you, writable
by no one else, not a symlink (nor is its directory); it refuses any other, naming it, and sends nothing.

Examples:
  tutti host --workspace .
  tutti session open --role source --as-user --json
  tutti plan issue get --issue-id ISSUE --json`;

export function parseWithCommander(argv: readonly string[]): Invocation {
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
