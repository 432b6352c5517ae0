// Real git repositories for the code-delivery tests: a repo with a first commit, files, commits, and a snapshot of
// a working tree (index + files) to prove that a refusal touched nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export function sh(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function write(root: string, path: string, text: string): void {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
}

/**
 * Makes `dir` a git repository on branch `main` (identity Dev One) with one commit holding `files` — by default
 * README.md and a .gitignore that ignores Tutti's `.tutti/`. Returns that commit.
 */
export function initRepo(dir: string, files: Record<string, string> = { 'README.md': 'hello\n', '.gitignore': '.tutti/\n' }): string {
	sh(dir, 'init', '-q', '-b', 'main');
	sh(dir, 'config', 'user.name', 'Dev One');
	sh(dir, 'config', 'user.email', 'dev@example.test');
	for (const [path, text] of Object.entries(files)) { write(dir, path, text); }
	sh(dir, 'add', '-A');
	sh(dir, 'commit', '-q', '-m', 'initial');
	return sh(dir, 'rev-parse', 'HEAD');
}

/** A fresh repository on branch `main` with one commit holding README.md; the caller removes `root`. */
export function newRepo(): { root: string; repo: string; first: string } {
	const root = mkdtempSync(join(tmpdir(), 'tutti-delivery-'));
	const repo = join(root, 'repo');
	mkdirSync(repo);
	return { root, repo, first: initRepo(repo, { 'README.md': 'hello\n' }) };
}

/** Commits `files` on a new branch `name` made from `from`, without touching the checked-out tree; returns the sha. */
export function commitOnBranch(repo: string, name: string, from: string, files: Record<string, string>): string {
	const tree = mkdtempSync(join(tmpdir(), 'tutti-branch-'));
	try {
		sh(repo, 'worktree', 'add', '-q', '-b', name, tree, from);
		for (const [path, text] of Object.entries(files)) { write(tree, path, text); }
		sh(tree, 'add', '-A');
		sh(tree, 'commit', '-q', '-m', `${name}: ${Object.keys(files).join(', ')}`);
		return sh(tree, 'rev-parse', 'HEAD');
	} finally {
		sh(repo, 'worktree', 'remove', '--force', tree);
		rmSync(tree, { recursive: true, force: true });
	}
}

/**
 * Every file under `dir` (except .git, and what `skip` names) with its content, plus the index and HEAD: equal
 * snapshots = untouched. A workspace's snapshot skips `.tutti` (the Host's own store and trees).
 */
export function snapshotTree(dir: string, skip: readonly string[] = []): string {
	const files: string[] = [];
	const walk = (d: string): void => {
		for (const name of readdirSync(d).sort()) {
			if (name === '.git' || (d === dir && skip.includes(name))) { continue; }
			const full = join(d, name);
			if (statSync(full).isDirectory()) { walk(full); } else { files.push(`${relative(dir, full)}=${readFileSync(full, 'utf8')}`); }
		}
	};
	walk(dir);
	return [sh(dir, 'rev-parse', 'HEAD'), sh(dir, 'ls-files', '--stage'), sh(dir, 'status', '--porcelain'), ...files].join('\n');
}
