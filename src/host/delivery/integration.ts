// `tutti issue integrate`: the accepted commits of an issue's tasks become one commit on a branch. The merge is
// computed in git's object database (combineCommits), never in anybody's working tree; the branch then moves by
// fast-forward when possible, otherwise to one merge commit "Integrate <title>". Where the branch is checked out
// (the developer's workspace, or another worktree) its tracked files must be clean and that tree moves with it
// (`git merge --ff-only`, which never overwrites an untracked file: it refuses and nothing changes). A refusal —
// conflict, dirty tree, untracked file in the way, branch moved meanwhile — changes nothing anywhere.
// The repository's hooks stay off (git.ts) unless the developer's setting `integrateRunsHooks` turns them on for
// the step that moves the branch (the merge in the checkout, or the update-ref).
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { git, gitExit } from '../worktrees/git.js';
import { combineCommits, resolveCommit } from './combineCommits.js';
import type { GitIdentity } from './gitIdentity.js';
import { squashCommits, type SquashInput } from './squash.js';

export interface IntegrateInput {
	/** The repository (the workspace). */
	repo: string;
	/** A branch name (not a ref path): `main`, `feature/x`. */
	into: string;
	/** The commits to integrate (accepted commits, in task order). */
	commits: readonly string[];
	/** The title, for the merge commit's message. */
	title: string;
	identity: GitIdentity;
	/**
	 * Run the repository's hooks (post-merge, reference-transaction, …) when the branch moves: the developer's
	 * `integrateRunsHooks` setting (default off: a hook the integrated work brings would run at once).
	 */
	runHooks?: boolean;
	/** Told the commit the branch is about to move to, and whether the workspace's own checkout moves with it. */
	beforeMove?: (commit: string, movesWorkspace: boolean) => void;
	/** New commits for the accepted work instead of its own history (squash.ts); `commits` is then unused. */
	squash?: Omit<SquashInput, 'repo' | 'previous' | 'identity'>;
	/** Verifies the integrated commit (the branch was at `previous`) before anything moves (the checks); a refusal changes nothing. */
	verify?: (commit: string, previous: string) => Promise<{ refused: string } | null>;
}

export type Integration =
	| { kind: 'integrated'; integratedCommit: string; fastForward: boolean; previousCommit: string; movedTree: string | null }
	| { kind: 'no_branch'; into: string }
	| { kind: 'not_a_repository' }
	| { kind: 'conflict'; between: [string, string]; paths: string[] }
	| { kind: 'dirty_tree'; tree: string; files: string[] }
	| { kind: 'blocked_tree'; tree: string; reason: string }
	| { kind: 'checks_failed'; commit: string; refused: string };

function samePath(a: string, b: string): boolean {
	try { return realpathSync(a) === realpathSync(b); } catch { return resolve(a) === resolve(b); }
}

/** Every worktree of the repository (absolute paths) with the branch it has checked out ('' when detached). */
async function worktrees(repo: string): Promise<{ tree: string; branch: string }[]> {
	const out = (await git(repo, ['worktree', 'list', '--porcelain', '-z'])).stdout;
	const trees: { tree: string; branch: string }[] = [];
	for (const field of out.split('\0')) {
		if (field.startsWith('worktree ')) { trees.push({ tree: field.slice('worktree '.length), branch: '' }); }
		if (field.startsWith('branch refs/heads/') && trees.length > 0) { trees[trees.length - 1]!.branch = field.slice('branch refs/heads/'.length); }
	}
	return trees;
}

/** The worktrees (absolute paths) that have `refs/heads/<branch>` checked out. */
export async function treesWithBranch(repo: string, branch: string): Promise<string[]> {
	return (await worktrees(repo)).filter((t) => t.branch === branch).map((t) => t.tree);
}

/** The branch a rebase in progress in `tree` will move when it ends (its HEAD is detached meanwhile), or null. */
async function branchBeingRebased(tree: string): Promise<string | null> {
	for (const dir of ['rebase-merge', 'rebase-apply']) {
		const path = (await gitExit(tree, ['rev-parse', '--git-path', `${dir}/head-name`])).stdout.trim();
		if (path === '') { continue; }
		try {
			const name = (await readFile(resolve(tree, path), 'utf8')).trim();
			if (name.startsWith('refs/heads/')) { return name.slice('refs/heads/'.length); }
		} catch {
			// No rebase of this kind in progress.
		}
	}
	return null;
}

/** Tracked files with changes (staged or not) in `tree`; untracked files do not count. */
export async function dirtyTrackedFiles(tree: string): Promise<string[]> {
	const out = (await git(tree, ['status', '--porcelain', '--untracked-files=no', '-z'])).stdout;
	const files: string[] = [];
	const fields = out.split('\0');
	for (let i = 0; i < fields.length; i += 1) {
		const entry = fields[i]!;
		if (entry.length < 4) { continue; }
		files.push(entry.slice(3));
		if (entry[0] === 'R' || entry[0] === 'C') { i += 1; } // the source path of a rename follows
	}
	return files;
}

export async function operationInProgress(tree: string): Promise<string | null> {
	for (const [ref, what] of [['MERGE_HEAD', 'a merge'], ['REBASE_HEAD', 'a rebase'], ['CHERRY_PICK_HEAD', 'a cherry-pick'], ['REVERT_HEAD', 'a revert']] as const) {
		if ((await gitExit(tree, ['rev-parse', '--verify', '--quiet', ref])).exitCode === 0) { return what; }
	}
	return null;
}

export async function integrate(input: IntegrateInput): Promise<Integration> {
	const { repo, into } = input;
	const ref = `refs/heads/${into}`;
	if ((await gitExit(repo, ['rev-parse', '--git-dir'])).exitCode !== 0) { return { kind: 'not_a_repository' }; }
	if ((await gitExit(repo, ['check-ref-format', ref])).exitCode !== 0) { return { kind: 'no_branch', into }; }
	let previous: string;
	try {
		previous = await resolveCommit(repo, ref);
	} catch {
		return { kind: 'no_branch', into };
	}
	const all = await worktrees(repo);
	// A rebase detaches HEAD and moves the branch when it ends: integrating meanwhile would be overwritten. Only a
	// detached tree can be mid-rebase, so the task trees (each on its branch) cost no git process here.
	for (const { tree } of all.filter((t) => t.branch === '')) {
		if ((await branchBeingRebased(tree)) === into) { return { kind: 'blocked_tree', tree, reason: `a rebase of ${into} is in progress there` }; }
	}
	const combined = input.squash !== undefined
		? await squashCommits({ ...input.squash, repo, previous, identity: input.identity })
		: await combineCommits(repo, [previous, ...input.commits], `Integrate ${input.title.replace(/\s+/g, ' ').trim()}`, input.identity);
	if (combined.kind === 'conflict') { return combined; }
	const integratedCommit = combined.commit;
	const fastForward = !combined.mergeCommit;
	if (integratedCommit === previous) { return { kind: 'integrated', integratedCommit, fastForward: true, previousCommit: previous, movedTree: null }; }
	const verified = await input.verify?.(integratedCommit, previous);
	if (verified) { return { kind: 'checks_failed', commit: integratedCommit, refused: verified.refused }; }
	const trees = all.filter((t) => t.branch === into).map((t) => t.tree);
	for (const tree of trees) {
		const busy = await operationInProgress(tree);
		if (busy !== null) { return { kind: 'blocked_tree', tree, reason: `${busy} is in progress there` }; }
		const dirty = await dirtyTrackedFiles(tree);
		if (dirty.length > 0) { return { kind: 'dirty_tree', tree, files: dirty }; }
	}
	const tree = trees[0];
	input.beforeMove?.(integratedCommit, tree !== undefined && samePath(tree, repo));
	if (tree === undefined) {
		// Compare-and-swap: refused if the branch moved since it was read.
		const moved = await gitExit(repo, ['update-ref', '-m', `tutti: integrate ${input.title}`, ref, integratedCommit, previous], { runHooks: input.runHooks === true });
		if (moved.exitCode !== 0) { return { kind: 'blocked_tree', tree: repo, reason: `the branch ${into} moved meanwhile (${moved.stderr.trim()})` }; }
		return { kind: 'integrated', integratedCommit, fastForward, previousCommit: previous, movedTree: null };
	}
	const merged = await gitExit(tree, ['merge', '--ff-only', '--no-edit', integratedCommit], { runHooks: input.runHooks === true });
	if (merged.exitCode !== 0) {
		return { kind: 'blocked_tree', tree, reason: (merged.stderr.trim() || merged.stdout.trim()).split('\n').slice(0, 12).join('\n') };
	}
	return { kind: 'integrated', integratedCommit, fastForward, previousCommit: previous, movedTree: tree };
}
