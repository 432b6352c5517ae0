// The `tutti` process: parse argv, find the Host, call it, print the result or the error, return the exit code.
import { resolve } from 'node:path';
import { type CliError, type ExitCode, cliError, errorEnvelope, exitCodeFor, humanError } from './cliError.js';
import { type AgentCall, runAgentJson, agentJsonMethods } from './agentJson.js';
import { type CallOptions, type CallOutcome, callHost } from './client.js';
import { hookConnectTimeoutMs, runStopHook } from './hookStop.js';
import { type Env, resolveEndpoint } from './discovery.js';
import { type HostEntry, loadHostEntry } from './hostEntry.js';
import { type McpEntry, loadMcpEntry } from './mcpEntry.js';
import { formatHuman } from './humanOutput.js';
import { readInput } from './inputText.js';
import { type Invocation, applyInput } from './invocation.js';
import { developerReadMethods } from './commandTable.js';
import { parseCommandLine } from './parseCommandLine.js';

export interface CliIo {
	env: Env;
	cwd: string;
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	sleep?: (ms: number) => Promise<void>;
	/** Drains stdin for `tutti hook stop` (tests; default: process.stdin). */
	drainStdin?: () => Promise<void>;
	/** Overrides how `tutti mcp` finds the MCP bundle (tests). */
	loadMcp?: () => McpEntry | null;
	/** Overrides how `tutti host` finds the Host bundle (tests). */
	loadHost?: () => HostEntry | null;
	/** stdin for `--operations-json -` (tests; default: process.stdin). */
	stdin?: () => NodeJS.ReadableStream;
}

const defaultConnectTimeoutMs = 20_000;
const followPollMs = 250;

export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
	let json = argv.includes('--json');
	try {
		const invocation = parseCommandLine(argv);
		switch (invocation.kind) {
			case 'help':
				io.stdout(invocation.text);
				return 0;
			case 'error':
				if (invocation.helpText && !invocation.json) {
					io.stderr(invocation.helpText);
				}
				return report(io, invocation.json, invocation.error, invocation.exitCode);
			case 'host':
				return await runHost(io, invocation.workspace, invocation.json);
			case 'mcp':
				return await runMcp(io);
			case 'call': {
				json = invocation.json;
				const ready = await withInput(io, invocation);
				if (ready.kind === 'error') {
					return report(io, ready.json, ready.error, ready.exitCode);
				}
				return ready.kind === 'call' ? await runCall(io, ready, argv) : 1;
			}
		}
	} catch (error) {
		return report(io, json, cliError('internal', `the tutti CLI failed: ${error instanceof Error ? error.message : String(error)}`, 'report this exact error'), 1);
	}
}

/** The call with a value read from stdin or a file filled in (`--operations-json -`, `--operations-file PATH`). */
async function withInput(io: CliIo, invocation: Extract<Invocation, { kind: 'call' }>): Promise<Invocation> {
	if (invocation.input === undefined) {
		return invocation;
	}
	const read = await readInput(invocation.input, io.cwd, io.stdin ?? (() => process.stdin));
	if (!read.ok) {
		return { kind: 'error', json: invocation.json, exitCode: 2, error: read.error };
	}
	return applyInput(invocation, read.text);
}

async function runCall(io: CliIo, invocation: Extract<Invocation, { kind: 'call' }>, argv: readonly string[]): Promise<ExitCode> {
	// Every call of this command shares these options; each kind of command below changes only what differs.
	const shared: Omit<CallOptions, 'params'> = {
		resolve: () => resolveEndpoint(io.env, io.cwd),
		method: invocation.method,
		asUser: invocation.asUser,
		// A session token always speaks for its session; without one, a read the developer makes needs no --as-user.
		userIfReadable: developerReadMethods.has(invocation.method),
		sessionToken: io.env['TUTTI_SESSION_TOKEN'] || undefined,
		connectTimeoutMs: connectTimeout(io.env),
		sameCommand: shellCommand(argv),
		sleep: io.sleep,
	};
	const call = (params: CallOptions['params'], differs: Partial<CallOptions> = {}): Promise<CallOutcome> => callHost({ ...shared, params, ...differs });
	if (invocation.method === 'hook/stop') {
		// The Stop hook fails open quickly: its own connect bound, and never as the developer.
		const hookCall = (): Promise<CallOutcome> => call({}, { asUser: false, connectTimeoutMs: hookConnectTimeout(io.env), requestTimeoutMs: 30_000 });
		return runStopHook({ env: io.env, stdout: io.stdout, ...(io.drainStdin ? { drainStdin: io.drainStdin } : {}) }, hookCall);
	}
	if (agentJsonMethods.has(invocation.method)) {
		// A long poll passes its deadline: connection retries and the request both end by then.
		const agentCall: AgentCall = (params, deadlineMs) => call(params,
			deadlineMs === undefined ? {} : { connectTimeoutMs: Math.max(0, deadlineMs - Date.now()), deadlineMs });
		return runAgentJson(io, invocation.method, invocation.params, agentCall, shared.sameCommand);
	}
	if (invocation.follow) {
		return follow(io, invocation, call);
	}
	const outcome = await call(invocation.params);
	if (!outcome.ok) {
		return report(io, invocation.json, outcome.error, exitCodeFor(outcome.error, outcome.status));
	}
	io.stdout(invocation.json ? `${outcome.resultJson}\n` : formatHuman(invocation.method, JSON.parse(outcome.resultJson)));
	return 0;
}

/** `run log --follow`: print new output as raw text until the Run has ended and everything is read. */
async function follow(io: CliIo, invocation: Extract<Invocation, { kind: 'call' }>, call: (p: Record<string, unknown>) => Promise<CallOutcome>): Promise<ExitCode> {
	const sleep = io.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
	let offset = typeof invocation.params['offset'] === 'number' ? invocation.params['offset'] : 0;
	for (;;) {
		const outcome = await call({ ...invocation.params, offset });
		if (!outcome.ok) {
			return report(io, invocation.json, outcome.error, exitCodeFor(outcome.error, outcome.status));
		}
		const slice = JSON.parse(outcome.resultJson) as { data?: unknown; nextOffset?: unknown; done?: unknown };
		const data = typeof slice.data === 'string' ? slice.data : '';
		if (data !== '') {
			io.stdout(data);
		}
		if (slice.done === true) {
			return 0;
		}
		const next = typeof slice.nextOffset === 'number' ? slice.nextOffset : offset;
		if (data === '' || next === offset) {
			await sleep(followPollMs);
		}
		offset = next;
	}
}

async function runHost(io: CliIo, workspace: string, json: boolean): Promise<ExitCode> {
	const entry = (io.loadHost ?? loadHostEntry)();
	if (entry === null) {
		return report(io, json, cliError('internal', 'the Host bundle (host.js next to cli.js) is missing', 'rebuild with `npm run build`, then run `tutti host --workspace DIR` again'), 1);
	}
	const code = await entry.runHostCommand({ workspace: resolve(io.cwd, workspace), env: io.env, stdout: io.stdout, stderr: io.stderr });
	return code === 0 ? 0 : code === 2 ? 2 : 1;
}

async function runMcp(io: CliIo): Promise<ExitCode> {
	const entry = (io.loadMcp ?? loadMcpEntry)();
	if (entry === null) {
		return report(io, false, cliError('internal', 'the MCP bundle (mcp.js next to cli.js) is missing', 'rebuild with `npm run build`'), 1);
	}
	return (await entry.runMcpCommand({ env: io.env, cwd: io.cwd, stderr: io.stderr })) === 0 ? 0 : 1;
}

function report(io: CliIo, json: boolean, error: CliError, exitCode: ExitCode): ExitCode {
	if (json) {
		io.stdout(errorEnvelope(error));
	} else {
		io.stderr(humanError(error));
	}
	return exitCode;
}

function hookConnectTimeout(env: Env): number {
	const raw = env['TUTTI_HOOK_CONNECT_TIMEOUT_MS'];
	return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : hookConnectTimeoutMs;
}

function connectTimeout(env: Env): number {
	const raw = env['TUTTI_CONNECT_TIMEOUT_MS'];
	const value = raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
	return Number.isFinite(value) ? value : defaultConnectTimeoutMs;
}

/** The command line as a shell would take it back, for "run the same command again" hints. */
export function shellCommand(argv: readonly string[]): string {
	return ['tutti', ...argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))].join(' ');
}
