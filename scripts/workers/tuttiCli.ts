// Runs the real `tutti` CLI (`node <dist/cli.js> …`) as a child process and reads its one JSON document.
// Used by the demo and its orchestrator, which must only talk to the Host through the CLI.
import { spawn } from 'node:child_process';

export interface CliError {
	reasonCode: string;
	message: string;
	hint: string;
	retryable?: boolean;
}

export interface CliOutcome {
	code: number;
	stdout: string;
	stderr: string;
	/** The parsed JSON document on stdout, or undefined when stdout held none. */
	json: unknown;
	/** The `{"error":{…}}` envelope's error, when the command failed with one. */
	error: CliError | undefined;
}

export function parseJsonOutput(stdout: string): unknown {
	const text = stdout.trim();
	if (text === '') {
		return undefined;
	}
	try {
		return JSON.parse(text);
	} catch {
		// Tolerate a stray line before the document: take the last line that parses.
		const lines = text.split('\n').reverse();
		for (const line of lines) {
			try {
				return JSON.parse(line);
			} catch {
				// keep looking
			}
		}
		return undefined;
	}
}

export function errorOf(json: unknown): CliError | undefined {
	if (json === null || typeof json !== 'object' || !('error' in json)) {
		return undefined;
	}
	const error = (json as { error: unknown }).error;
	if (error === null || typeof error !== 'object') {
		return undefined;
	}
	const e = error as Record<string, unknown>;
	return {
		reasonCode: typeof e.reasonCode === 'string' ? e.reasonCode : '',
		message: typeof e.message === 'string' ? e.message : '',
		hint: typeof e.hint === 'string' ? e.hint : '',
		retryable: typeof e.retryable === 'boolean' ? e.retryable : undefined,
	};
}

/** Spawns `node cliJs ...args` with `env`; never rejects for a non-zero exit. */
export function runTuttiCli(cliJs: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliOutcome> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliJs, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.on('error', reject);
		child.on('close', (code, signal) => {
			const json = parseJsonOutput(stdout);
			resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, json, error: errorOf(json) });
		});
		child.stdin.on('error', () => { /* the CLI may exit before reading stdin */ });
		child.stdin.end(input ?? '');
	});
}

/** A one-line description of a failed CLI call, with the exact error the Host returned. */
export function describeFailure(args: readonly string[], outcome: CliOutcome): string {
	const what = `tutti ${args.join(' ')}`;
	if (outcome.error) {
		return `${what} → exit ${outcome.code}: ${outcome.error.reasonCode}: ${outcome.error.message} (hint: ${outcome.error.hint})`;
	}
	return `${what} → exit ${outcome.code}: ${(outcome.stderr || outcome.stdout).trim().slice(0, 500)}`;
}
