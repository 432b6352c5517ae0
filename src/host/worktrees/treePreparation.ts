// A new task worktree has none of the developer's untracked set-up (no node_modules, no .env): `worktreeCopy`
// copies the untracked or ignored files matching its globs from the workspace into the tree (git matches the
// globs, so no file outside the workspace and nothing under .git/ can match; .tutti/ is skipped), and
// `worktreeSetup` runs an argv in the tree (never a shell string), bounded by a timeout, its output appended to
// the Run's stderr log. Both run once per tree (worktreeManager.ts records a prepared tree).
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './git.js';

export interface TreePreparation {
	/** Glob patterns relative to the workspace (git pathspec globs: `*` stays within a folder, `**` crosses folders). */
	copy: readonly string[];
	/** argv; empty: no setup. */
	setup: readonly string[];
	setupTimeoutMs: number;
}

export const noPreparation: TreePreparation = { copy: [], setup: [], setupTimeoutMs: 600_000 };

/** The preparation the Host's settings ask for. */
export function preparationOf(config: { worktreeCopy?: string[]; worktreeSetup?: string[]; worktreeSetupTimeoutSeconds?: number }): TreePreparation {
	return {
		copy: config.worktreeCopy ?? [], setup: config.worktreeSetup ?? [],
		setupTimeoutMs: (config.worktreeSetupTimeoutSeconds ?? noPreparation.setupTimeoutMs / 1000) * 1000,
	};
}

/**
 * Why a `worktreeCopy` pattern is refused, or null: patterns are relative to the workspace, so an absolute path, a
 * `..` segment, or anything under .git or .tutti is a mistake (git would refuse the first two; the last two never match).
 */
export function copyPatternProblem(glob: string): string | null {
	const segments = glob.replace(/\\/g, '/').split('/');
	if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~')) { return `'${glob}' is an absolute path`; }
	if (segments.includes('..')) { return `'${glob}' leaves the workspace ('..')`; }
	if (segments[0] === '.git' || segments[0] === '.tutti') { return `'${glob}' points into ${segments[0]}/, which is never copied`; }
	return null;
}

/** The untracked and ignored files of `workspace` matching `globs` (workspace-relative, `.tutti/` excluded). */
export async function filesToCopy(workspace: string, globs: readonly string[]): Promise<string[]> {
	if (globs.length === 0) { return []; }
	const problems = globs.map(copyPatternProblem).filter((p): p is string => p !== null);
	if (problems.length > 0) {
		throw new Error(`the worktreeCopy setting has patterns outside the workspace: ${problems.join('; ')}. Patterns are relative to the workspace (e.g. ".env", "config/*.local.json"): fix the setting, then schedule the task again`);
	}
	const specs = ['--', ...globs.map((g) => `:(glob)${g}`)];
	const [untracked, ignored] = await Promise.all([
		git(workspace, ['ls-files', '-z', '--others', '--exclude-standard', ...specs]),
		git(workspace, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', ...specs]),
	]);
	const files = new Set([...untracked.stdout.split('\0'), ...ignored.stdout.split('\0')]
		.filter((p) => p !== '' && !p.startsWith('.tutti/') && p !== '.tutti'));
	return [...files].sort();
}

/** Copies `files` from the workspace into the tree (symlinks as symlinks; existing files in the tree are kept). */
export function copyFiles(workspace: string, tree: string, files: readonly string[]): number {
	let copied = 0;
	for (const file of files) {
		const from = join(workspace, file);
		const to = join(tree, file);
		try {
			lstatSync(to);
			continue; // the tree already has it (tracked, or copied before): never overwrite
		} catch { /* absent: copy */ }
		mkdirSync(dirname(to), { recursive: true });
		const stat = lstatSync(from);
		if (stat.isSymbolicLink()) {
			symlinkSync(readlinkSync(from), to);
		} else if (stat.isFile()) {
			copyFileSync(from, to);
		} else {
			continue;
		}
		copied += 1;
	}
	return copied;
}

export type SetupResult =
	| { ok: true }
	| { ok: false; exitCode: number | null; timedOut: boolean; tail: string; why: string };

/** Runs `argv` in `tree`; its output goes to `logFile` (appended) and the last lines come back on failure. */
export function runSetup(tree: string, argv: readonly string[], timeoutMs: number, logFile: string | null): Promise<SetupResult> {
	const [command, ...args] = argv;
	if (command === undefined) { return Promise.resolve({ ok: true }); }
	const log = (text: string): void => {
		if (logFile === null) { return; }
		try {
			mkdirSync(dirname(logFile), { recursive: true, mode: 0o700 });
			appendFileSync(logFile, text, { mode: 0o600 });
		} catch { /* the log is best effort; the failure's tail reaches the Run's error message */ }
	};
	log(`[worktree setup] $ ${argv.map((a) => JSON.stringify(a)).join(' ')}\n`);
	return new Promise((resolve) => {
		let tail = '';
		const keep = (chunk: Buffer): void => {
			const text = chunk.toString('utf8');
			log(text);
			tail = (tail + text).slice(-4000);
		};
		const child = spawn(command, args, { cwd: tree, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			try { process.kill(-child.pid!, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
		}, timeoutMs);
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', (e) => {
			clearTimeout(timer);
			log(`[worktree setup] could not start: ${e.message}\n`);
			resolve({ ok: false, exitCode: null, timedOut: false, tail: e.message, why: `could not start ${command}: ${e.message}` });
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const lastLines = tail.trimEnd().split('\n').slice(-20).join('\n');
			if (code === 0 && !timedOut) {
				log('[worktree setup] done\n');
				resolve({ ok: true });
				return;
			}
			const why = timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : code !== null ? `exit ${code}` : `killed by ${signal ?? 'a signal'}`;
			log(`[worktree setup] failed (${why})\n`);
			resolve({ ok: false, exitCode: code, timedOut, tail: lastLines, why });
		});
	});
}
