// The `tutti` CLI (dist/cli.js) run from outside VS Code in the test workspace, as a developer or as an agent
// session: it finds the window's Host by its discovery file, with the extension host's environment (same TMPDIR).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeServerEnv } from '../harness/codeServer.js';
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';

export const cliScript = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

export type CliJson = Record<string, unknown>;

export interface CliCaller {
	/** Runs `tutti ARGS --json` (add `--as-user` yourself for developer actions) and returns its JSON. */
	(args: readonly string[]): CliJson;
}

function failure(args: readonly string[], error: unknown): Error {
	const { stdout, stderr } = error as { stdout?: string; stderr?: string };
	return new Error(`tutti ${args.join(' ')} failed: ${stdout ?? ''}${stderr ?? ''}`.slice(0, 2000));
}

/** A synchronous CLI caller; `sessionToken` makes it an agent session (TUTTI_SESSION_TOKEN). */
export function tuttiCli(session: VsCodeSession, workspace: string, sessionToken?: string): CliCaller {
	const env = codeServerEnv(session.runDir, sessionToken ? { TUTTI_SESSION_TOKEN: sessionToken } : {});
	return (args) => {
		try {
			const out = execFileSync(process.execPath, [cliScript, ...args, '--json'], { cwd: workspace, env, encoding: 'utf8', timeout: 30_000 });
			return JSON.parse(out) as CliJson;
		} catch (error) {
			throw failure(args, error);
		}
	};
}

/** The same, without blocking the event loop (so Playwright can watch the page while the write happens). */
export function tuttiCliAsync(session: VsCodeSession, workspace: string, args: readonly string[], sessionToken?: string): Promise<CliJson> {
	const env = codeServerEnv(session.runDir, sessionToken ? { TUTTI_SESSION_TOKEN: sessionToken } : {});
	return new Promise((resolveJson, reject) => {
		execFile(process.execPath, [cliScript, ...args, '--json'], { cwd: workspace, env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
			if (error) {
				reject(failure(args, { stdout, stderr }));
				return;
			}
			resolveJson(JSON.parse(stdout) as CliJson);
		});
	});
}

/** Waits (bounded) until the window's Host answers the CLI: a new window starts its own in-process Host. */
export async function waitForHost(session: VsCodeSession, workspace: string, timeoutMs = 30_000): Promise<void> {
	const cli = tuttiCli(session, workspace);
	await pollFor('the window\'s Host to answer `tutti issue list`', timeoutMs, async () => (cli(['issue', 'list', '--as-user']) ? true : undefined), 500);
}

/**
 * `tutti.agentPaths[id]` as VS Code stored it for the user on this machine: the user settings, or the remote machine's
 * settings (code-server's window is a remote one, where machine-scoped settings go); undefined when neither has it.
 */
export function agentPathOf(session: VsCodeSession, id: string): string | undefined {
	for (const file of [join(session.runDir, 'data', 'Machine', 'settings.json'), join(session.runDir, 'data', 'User', 'settings.json')]) {
		if (!existsSync(file)) { continue; }
		const paths = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['tutti.agentPaths'] as Record<string, string> | undefined;
		if (paths?.[id] !== undefined) { return paths[id]; }
	}
	return undefined;
}
