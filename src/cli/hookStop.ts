// `tutti hook stop`: the Stop hook command of agents Tutti launches (Claude Code `--settings`, Codex `-c`). Drains
// the hook's JSON from stdin, asks the Host (session from TUTTI_SESSION_TOKEN only) and prints the decision.
// Fails open: no token, no Host, any problem → `{}` with exit 0 (nothing that blocks).
import type { CallOutcome } from './client.js';
import type { ExitCode } from './cliError.js';

export const hookConnectTimeoutMs = 3_000;
const drainCapMs = 2_000;

export interface HookIo {
	env: Readonly<Record<string, string | undefined>>;
	stdout: (text: string) => void;
	/** Reads (and discards) the hook event from stdin; resolves at EOF or after a short cap. */
	drainStdin?: () => Promise<void>;
}

/** Reads stdin to its end (or gives up after a short cap), ignoring errors. */
export function drainProcessStdin(): Promise<void> {
	return new Promise((resolve) => {
		const stdin = process.stdin;
		if (stdin.isTTY || stdin.readableEnded || stdin.destroyed) { resolve(); return; }
		const finish = (): void => { clearTimeout(cap); stdin.pause(); stdin.removeAllListeners('data'); resolve(); };
		const cap = setTimeout(finish, drainCapMs);
		stdin.on('data', () => { /* discarded */ });
		stdin.once('end', finish);
		stdin.once('error', finish);
		stdin.resume();
	});
}

/** The JSON the agent CLI reads: a block, a release note, or `{}` (allow). */
export function hookOutput(resultJson: string): string {
	const result = JSON.parse(resultJson) as { decision?: unknown; reason?: unknown; systemMessage?: unknown };
	if (result.decision === 'block' && typeof result.reason === 'string' && result.reason !== '') {
		return JSON.stringify({ decision: 'block', reason: result.reason });
	}
	if (typeof result.systemMessage === 'string' && result.systemMessage !== '') {
		return JSON.stringify({ systemMessage: result.systemMessage });
	}
	return '{}';
}

export async function runStopHook(io: HookIo, call: () => Promise<CallOutcome>): Promise<ExitCode> {
	let out = '{}';
	try {
		await (io.drainStdin ?? drainProcessStdin)();
		const token = io.env['TUTTI_SESSION_TOKEN'];
		if (token !== undefined && token !== '') {
			const outcome = await call();
			if (outcome.ok) { out = hookOutput(outcome.resultJson); }
		}
	} catch {
		out = '{}';
	}
	io.stdout(`${out}\n`);
	return 0;
}
