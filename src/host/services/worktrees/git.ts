// Runs git with an argument array (never a shell string) and returns its output; a failure names the command.
import { execFile } from 'node:child_process';

export interface GitResult {
	stdout: string;
	stderr: string;
}

export class GitError extends Error {
	constructor(readonly args: readonly string[], readonly exitCode: number | null, readonly stderr: string) {
		super(`git ${args.join(' ')} failed${exitCode !== null ? ` (exit ${exitCode})` : ''}: ${stderr.trim() || 'no output'}`);
		this.name = 'GitError';
	}
}

/** `git <args>` in `cwd`. Rejects with GitError on a non-zero exit or when git cannot be started. */
export function git(cwd: string, args: readonly string[]): Promise<GitResult> {
	return new Promise((resolve, reject) => {
		execFile('git', [...args], { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
			if (error) {
				const code = typeof (error as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? (error as unknown as { code: number }).code : null;
				reject(new GitError(args, code, stderr || error.message));
				return;
			}
			resolve({ stdout, stderr });
		});
	});
}
