// A real Host on a real git workspace for the security tier: the repository (branch main, one commit) is made
// before the Host starts (worktree isolation is decided then), tasks run `command` targets in their worktrees.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostHandle, startHost } from '../integration/harness.js';
import { initRepo } from '../integration/delivery/gitRepoKit.js';

export function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A `command` target in a worktree running `script` with sh (TUTTI_TASK_ID and `extraEnv` in its environment). */
export function shTarget(id: string, script: string, extraEnv: Record<string, string> = {}): Record<string, unknown> {
	return { id, adapter: 'command', argv: ['sh', '-c', script], isolation: 'worktree', env: extraEnv };
}

export interface GitWorkspace {
	root: string;
	workspace: string;
	host: HostHandle;
	dispose(): Promise<void>;
}

/**
 * `root/ws` as a git repository holding `files`, `prepare` run on it before the Host starts, then a Host with
 * `config` (written to .tutti/config.json as it is; a function of `root` for paths beside the workspace).
 */
export async function gitWorkspace(prefix: string, files: Record<string, string>, config: Record<string, unknown> | ((root: string) => Record<string, unknown>),
	prepare: (workspace: string) => void = () => undefined): Promise<GitWorkspace> {
	const root = mkdtempSync(join(tmpdir(), prefix));
	const workspace = join(root, 'ws');
	mkdirSync(workspace);
	initRepo(workspace, { '.gitignore': '.tutti/\n', ...files });
	prepare(workspace);
	const host = await startHost({ workspace, config: configFor(typeof config === 'function' ? config(root) : config) as never });
	return {
		root, workspace, host,
		async dispose() {
			try { await host.dispose(); } finally { rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }); }
		},
	};
}

/** The config.json a git workspace of these tests holds. */
export function configFor(config: Record<string, unknown>): Record<string, unknown> {
	return { maxParallelRuns: 4, ...config };
}
