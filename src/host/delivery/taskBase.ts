// Where a task's work starts: a task builds on its parents. No parent in a worktree → the issue's base commit; one
// → that parent's accepted commit; several → one merge commit of all of them ("Merge parents of <taskId>: <ids>").
// A rework goes back to the tree of the task it replaces and first merges in the parent commits that tree does not
// contain yet. Conflicting parents never start an agent on a broken tree in silence: the caller either fails the
// Run naming the paths (`onMergeConflict: "fail"`), or leaves the tree in the conflicted merge for the agent
// (`"agent"`, enterConflict) with the paths in its prompt.
import { git, gitExit } from '../worktrees/git.js';
import { combineCommits, isAncestor } from './combineCommits.js';
import { type GitIdentity, identityEnv } from './gitIdentity.js';
import { unmergedPaths } from './resultCommit.js';

export interface ParentCommit {
	taskId: string;
	/** The parent's accepted commit. */
	commit: string;
}

export type TaskBase =
	| { kind: 'ready'; commit: string; mergeCommit: boolean }
	/**
	 * `cleanCommit` merges every parent that merges cleanly; `conflicting` is the parent whose merge into it
	 * conflicts in `paths` (with `otherTaskId`, or with the task's own tree for a rework).
	 */
	| { kind: 'conflict'; otherTaskId: string; conflicting: ParentCommit; paths: string[]; cleanCommit: string };

export function parentMergeMessage(taskId: string, parents: readonly ParentCommit[]): string {
	return `Merge parents of ${taskId}: ${parents.map((p) => p.taskId).join(', ')}`;
}

/**
 * Combines `start` (the tree's current commit, or the first parent) with `parents`; on a conflict, finds the
 * largest clean prefix-free combination so that an agent can be handed exactly one conflicting merge.
 */
async function combineWithParents(repo: string, taskId: string, start: { taskId: string; commit: string } | null,
	parents: readonly ParentCommit[], identity: GitIdentity): Promise<TaskBase> {
	const all = start ? [start, ...parents] : [...parents];
	const message = parentMergeMessage(taskId, parents);
	const combined = await combineCommits(repo, all.map((p) => p.commit), message, identity);
	if (combined.kind === 'combined') { return { kind: 'ready', commit: combined.commit, mergeCommit: combined.mergeCommit }; }
	const [a, b] = combined.between;
	const conflicting = all.find((p) => p.commit === b && p !== start) ?? all.find((p) => p.commit === b)!;
	const other = all.find((p) => p.commit === a) ?? all[0]!;
	// Everything but the conflicting parent, merged (recursively, since more than one may conflict).
	const rest = parents.filter((p) => p !== conflicting);
	let cleanCommit = start?.commit ?? rest[0]?.commit ?? conflicting.commit;
	if (rest.length > 0) {
		const clean = await combineWithParents(repo, taskId, start, rest, identity);
		cleanCommit = clean.kind === 'ready' ? clean.commit : clean.cleanCommit;
	}
	return { kind: 'conflict', otherTaskId: other.taskId, conflicting, paths: combined.paths, cleanCommit };
}

/** The commit a new tree for `taskId` starts from. */
export async function newTreeBase(repo: string, taskId: string, issueBase: string, parents: readonly ParentCommit[], identity: GitIdentity): Promise<TaskBase> {
	if (parents.length === 0) { return { kind: 'ready', commit: issueBase, mergeCommit: false }; }
	if (parents.length === 1) { return { kind: 'ready', commit: parents[0]!.commit, mergeCommit: false }; }
	return combineWithParents(repo, taskId, null, parents, identity);
}

/**
 * A rework's existing tree (clean, its last result committed): merges in the parent commits it does not contain
 * yet by fast-forwarding it to their combination. A conflict leaves the tree as it was.
 */
export async function mergeMissingParents(treePath: string, taskId: string, parents: readonly ParentCommit[], identity: GitIdentity): Promise<TaskBase> {
	const head = (await git(treePath, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
	const missing: ParentCommit[] = [];
	for (const p of parents) {
		if (!(await isAncestor(treePath, p.commit, head))) { missing.push(p); }
	}
	if (missing.length === 0) { return { kind: 'ready', commit: head, mergeCommit: false }; }
	const base = await combineWithParents(treePath, taskId, { taskId, commit: head }, missing, identity);
	const target = base.kind === 'ready' ? base.commit : base.cleanCommit;
	if (target !== head) { await git(treePath, ['merge', '--ff-only', '--quiet', target]); }
	return base;
}

/**
 * Leaves `treePath` in the conflicted merge of `conflicting` (for an agent told to resolve it): answers the
 * unmerged paths. The tree must be clean.
 */
export async function enterConflict(treePath: string, taskId: string, conflicting: ParentCommit, identity: GitIdentity): Promise<string[]> {
	const merged = await gitExit(treePath, ['merge', '--no-ff', '--no-edit', '-m', parentMergeMessage(taskId, [conflicting]), conflicting.commit], { env: identityEnv(identity) });
	if (merged.exitCode === 0) { return []; }
	return unmergedPaths(treePath);
}
