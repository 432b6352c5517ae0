// Runs git with an argument array (never a shell string) and returns its output; a failure names the command.
// Every call runs with the repository's hooks off (`-c core.hooksPath=/dev/null`): Tutti's bookkeeping (worktrees,
// result commits, parent merges, branch bookkeeping) never runs a hook a repository or its tooling installed. Only
// the integration into the developer's checkout may run them, when the developer's setting `integrateRunsHooks`
// says so (integration.ts passes `runHooks`). No call ever starts an fsmonitor program (`core.fsmonitor=false`).
import { execFile, execFileSync } from 'node:child_process';

export interface GitResult {
	stdout: string;
	stderr: string;
}

export interface GitOptions {
	/** Extra environment (author identity, …) on top of the Host's. */
	env?: Record<string, string>;
	/** Run the repository's git hooks (only for the developer's integration, by the developer's setting). */
	runHooks?: boolean;
	/** Ends git (SIGTERM) after this long: for calls that wait on the network; the call then rejects with GitError. */
	timeoutMs?: number;
}

/** Points git's hook lookup at a path that can hold no hook. */
const hooksOff: readonly string[] = ['-c', 'core.hooksPath=/dev/null'];
/** Never starts an fsmonitor program (a path in core.fsmonitor, relative to the tree, is a hook by another name). */
const fsmonitorOff: readonly string[] = ['-c', 'core.fsmonitor=false'];

export class GitError extends Error {
	constructor(readonly args: readonly string[], readonly exitCode: number | null, readonly stderr: string) {
		super(`git ${args.join(' ')} failed${exitCode !== null ? ` (exit ${exitCode})` : ''}: ${stderr.trim() || 'no output'}`);
		this.name = 'GitError';
	}
}

/** `git <args>` in `cwd`, whatever its exit code; rejects only when git cannot be started. */
export function gitExit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult & { exitCode: number }> {
	return new Promise((resolve, reject) => {
		execFile('git', options.runHooks === true ? [...fsmonitorOff, ...args] : [...fsmonitorOff, ...hooksOff, ...args], {
			cwd, maxBuffer: 16 * 1024 * 1024, ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
			env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
		}, (error, stdout, stderr) => {
			if (error) {
				const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
				if ((error as { killed?: boolean }).killed === true && options.timeoutMs !== undefined) {
					reject(new GitError(args, null, `${stderr}\ngit did not finish within ${Math.round(options.timeoutMs / 1000)} s and was stopped`.trim()));
					return;
				}
				if (typeof code !== 'number') { reject(new GitError(args, null, stderr || error.message)); return; }
				resolve({ stdout, stderr, exitCode: code });
				return;
			}
			resolve({ stdout, stderr, exitCode: 0 });
		});
	});
}

/** `git <args>` in `cwd`. Rejects with GitError on a non-zero exit or when git cannot be started. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
	const result = await gitExit(cwd, args, options);
	if (result.exitCode !== 0) { throw new GitError(args, result.exitCode, result.stderr || result.stdout); }
	return { stdout: result.stdout, stderr: result.stderr };
}

/** Whether `dir` is inside a git work tree (checked once when the Host starts; no git on PATH counts as no). */
export function isGitWorkTree(dir: string): boolean {
	try {
		return execFileSync('git', [...fsmonitorOff, ...hooksOff, 'rev-parse', '--is-inside-work-tree'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim() === 'true';
	} catch {
		return false;
	}
}
