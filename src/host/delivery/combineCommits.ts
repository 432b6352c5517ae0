// Combining commits without touching any working tree: `git merge-tree --write-tree` computes each merge in the
// object database and `git commit-tree` records one merge commit whose parents are all the heads (an octopus made
// of clean two-way merges). Used for a task's base (the merge of its parents' accepted commits) and for
// integration (the base branch's head first, then the accepted commits). A conflict changes nothing anywhere and
// names the two commits that conflict and every conflicting path.
import { git, gitExit } from '../worktrees/git.js';
import { type GitIdentity, identityEnv } from './gitIdentity.js';

export type Combination =
	/** `commit` is one of the inputs when the others are its ancestors (no merge commit needed). */
	| { kind: 'combined'; commit: string; mergeCommit: boolean }
	| { kind: 'conflict'; between: [string, string]; paths: string[] };

/** Whether `ancestor` is reachable from `descendant` (equal commits count). */
export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
	const result = await gitExit(repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
	if (result.exitCode > 1) { throw new Error(`git merge-base --is-ancestor ${ancestor} ${descendant} failed: ${result.stderr.trim()}`); }
	return result.exitCode === 0;
}

/** The full sha of `rev` (a commit). */
export async function resolveCommit(repo: string, rev: string): Promise<string> {
	return (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`])).stdout.trim();
}

/** The commits of `commits` (full shas, order kept) that no other of them contains: one `git merge-base --independent`. */
export async function headsOf(repo: string, commits: readonly string[]): Promise<string[]> {
	const unique = [...new Set(commits)];
	if (unique.length <= 1) { return unique; }
	const independent = new Set((await git(repo, ['merge-base', '--independent', ...unique])).stdout.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
	return unique.filter((c) => independent.has(c));
}

interface TwoWay { clean: boolean; tree: string; paths: string[] }

async function mergeTree(repo: string, a: string, b: string): Promise<TwoWay> {
	const result = await gitExit(repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', a, b]);
	if (result.exitCode > 1) { throw new Error(`git merge-tree ${a} ${b} failed: ${result.stderr.trim() || result.stdout.trim()}`); }
	const [tree = '', ...rest] = result.stdout.split('\0');
	return { clean: result.exitCode === 0, tree: tree.trim(), paths: [...new Set(rest.filter((p) => p !== ''))] };
}

/** The paths that conflict when `a` and `b` are merged ([] when they merge cleanly), computed without any tree. */
export async function conflictingPaths(repo: string, a: string, b: string): Promise<string[]> {
	const merged = await mergeTree(repo, a, b);
	return merged.clean ? [] : merged.paths;
}

/** Dates a commit at its newest parent's commit time, so the same parents and tree always make the same commit. */
async function newestParentDate(repo: string, heads: readonly string[]): Promise<Record<string, string>> {
	const times = (await git(repo, ['show', '-s', '--format=%ct', ...heads])).stdout.split('\n').filter((l) => l.trim() !== '').map(Number);
	const date = `@${Math.max(...times)} +0000`;
	return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

/**
 * Combines `commits` (first = first parent): heads that contain all the others answer as they are; otherwise one
 * merge commit with message `message` whose parents are every head, in order. `dated: 'newest-parent'` makes the
 * answer a function of its inputs (a preview asked twice names one commit); otherwise it is dated now.
 */
export async function combineCommits(
	repo: string, commits: readonly string[], message: string, identity: GitIdentity, dated: 'now' | 'newest-parent' = 'now',
): Promise<Combination> {
	if (commits.length === 0) { throw new Error('combineCommits needs at least one commit'); }
	const heads = await headsOf(repo, commits);
	if (heads.length === 1) { return { kind: 'combined', commit: heads[0]!, mergeCommit: false }; }
	const env = { ...identityEnv(identity), ...(dated === 'newest-parent' ? await newestParentDate(repo, heads) : {}) };
	let current = heads[0]!;
	let tree = '';
	for (let i = 1; i < heads.length; i += 1) {
		const next = heads[i]!;
		const merged = await mergeTree(repo, current, next);
		if (!merged.clean) {
			// Name the earlier head that conflicts with `next` on its own, when one does.
			let culprit = heads[i - 1]!;
			for (const earlier of heads.slice(0, i)) {
				if (!(await mergeTree(repo, earlier, next)).clean) { culprit = earlier; break; }
			}
			return { kind: 'conflict', between: [culprit, next], paths: merged.paths };
		}
		tree = merged.tree;
		if (i < heads.length - 1) {
			// An intermediate commit only to merge the next head against (unreferenced; git gc drops it).
			current = (await git(repo, ['commit-tree', tree, '-p', current, '-p', next, '-m', 'intermediate'], { env })).stdout.trim();
		}
	}
	const parents = heads.flatMap((h) => ['-p', h]);
	const commit = (await git(repo, ['commit-tree', tree, ...parents, '-m', message], { env })).stdout.trim();
	return { kind: 'combined', commit, mergeCommit: true };
}
