// Removing a finished issue's worktrees and merged `tutti/*` branches (Finish and `tutti worktree prune`): what
// only frees disk goes, what holds work stays, and each thing kept says why. A tree goes only when it has no
// uncommitted change (untracked files included; ignored ones such as build output go with it) and no Run runs in
// it; a branch only when its work is on the branch the issue's work goes to (an ancestor of its tip, or the exact
// accepted commit a squash integration took), and only after its tree went. The branch is deleted by
// compare-and-delete, so one that moved meanwhile stays.
import type { CleanupItemDto } from '../../protocol/controlPlane.js';
import { git, gitExit } from '../worktrees/git.js';
import { diskUsage } from '../worktrees/diskUsage.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { isAncestor } from './combineCommits.js';
import { treesWithBranch } from './integration.js';

/** Where the issue's work goes, and what its squash integrations took. */
export interface CleanupTarget {
	/** The branch of the issue's last integration, else its base branch ('' when it has neither). */
	branch: string;
	/** Accepted commits a squash integration took, each with the commit it became part of. */
	squashed: readonly { acceptedCommit: string; integratedCommit: string }[];
}

export interface CleanupInput {
	repo: string;
	issueId: string;
	/** Every task id of the issue (superseded history included): each may name a branch. */
	taskIds: readonly string[];
	target: CleanupTarget;
	/** Run ids running in a task's tree, by task id. */
	busy: ReadonlyMap<string, string>;
}

interface TreeFacts { taskId: string; path: string; bytes: number; keep: string }
interface BranchFacts { taskId: string; branch: string; tip: string; keep: string }

async function uncommitted(path: string): Promise<string[]> {
	const result = await gitExit(path, ['status', '--porcelain', '--untracked-files=all']);
	if (result.exitCode !== 0) { return [`(git status failed: ${result.stderr.trim() || 'no output'})`]; }
	return result.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** Why the branch's work is not on the target ('' when it is). */
async function unmergedReason(repo: string, tip: string, target: CleanupTarget): Promise<string> {
	if (target.branch === '') { return 'the issue has no branch its work went to (it started from a detached HEAD and was never integrated)'; }
	const head = await gitExit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${target.branch}^{commit}`]);
	if (head.exitCode !== 0) { return `the branch ${target.branch} its work goes to does not exist`; }
	const targetHead = head.stdout.trim();
	if (await isAncestor(repo, tip, targetHead)) { return ''; }
	for (const s of target.squashed) {
		if (s.acceptedCommit === tip && await isAncestor(repo, s.integratedCommit, targetHead)) { return ''; }
	}
	const ahead = (await git(repo, ['rev-list', '--count', `${targetHead}..${tip}`])).stdout.trim();
	return `not merged into ${target.branch} (${ahead} commit${ahead === '1' ? '' : 's'} only on it)`;
}

async function readFacts(worktrees: WorktreeManager, input: CleanupInput): Promise<{ trees: TreeFacts[]; branches: BranchFacts[] }> {
	const trees: TreeFacts[] = [];
	for (const tree of worktrees.treesOnDisk(input.issueId)) {
		const busy = input.busy.get(tree.taskId);
		const changes = busy === undefined ? await uncommitted(tree.path) : [];
		const keep = busy !== undefined ? `Run ${busy} is running in it`
			: changes.length > 0 ? `it has uncommitted changes (${changes.slice(0, 5).join(', ')}${changes.length > 5 ? `, and ${changes.length - 5} more` : ''})` : '';
		trees.push({ taskId: tree.taskId, path: tree.path, bytes: await diskUsage(tree.path), keep });
	}
	const keptTrees = new Set(trees.filter((t) => t.keep !== '').map((t) => t.taskId));
	const branches: BranchFacts[] = [];
	const taskIds = [...new Set([...input.taskIds, ...trees.map((t) => t.taskId)])].sort();
	for (const taskId of taskIds) {
		// Only a branch this issue's tree was made on (its record names it: per issue, or an older Tutti's name).
		const record = worktrees.recordOf(input.issueId, taskId);
		if (record === undefined) { continue; }
		const branch = record.branch;
		const tip = await worktrees.branchTip(branch);
		if (tip === '') { continue; }
		let keep = keptTrees.has(taskId) ? 'its worktree is kept' : await unmergedReason(input.repo, tip, input.target);
		if (keep === '') {
			const elsewhere = (await treesWithBranch(input.repo, branch)).filter((p) => !trees.some((t) => t.taskId === taskId && t.path === p));
			if (elsewhere.length > 0) { keep = `it is checked out in ${elsewhere.join(', ')}`; }
		}
		branches.push({ taskId, branch, tip, keep });
	}
	return { trees, branches };
}

function treeItem(t: TreeFacts, state: CleanupItemDto['state'], reason = t.keep): CleanupItemDto {
	return { kind: 'tree', taskId: t.taskId, name: t.path, bytes: t.bytes, state, reason };
}

function branchItem(b: BranchFacts, state: CleanupItemDto['state'], reason = b.keep): CleanupItemDto {
	return { kind: 'branch', taskId: b.taskId, name: b.branch, bytes: 0, state, reason };
}

/** What removing would do: each tree and branch, removable or kept with its reason. Changes nothing. */
export async function planCleanup(worktrees: WorktreeManager, input: CleanupInput): Promise<CleanupItemDto[]> {
	const { trees, branches } = await readFacts(worktrees, input);
	return [
		...trees.map((t) => treeItem(t, t.keep === '' ? 'removable' : 'kept')),
		...branches.map((b) => branchItem(b, b.keep === '' ? 'removable' : 'kept')),
	];
}

/** Removes what is safe to remove (trees first, then their merged branches) and names what it kept. */
export async function applyCleanup(worktrees: WorktreeManager, input: CleanupInput): Promise<CleanupItemDto[]> {
	const { trees, branches } = await readFacts(worktrees, input);
	const items: CleanupItemDto[] = [];
	const gone = new Set<string>();
	for (const t of trees) {
		if (t.keep !== '') { items.push(treeItem(t, 'kept')); continue; }
		try {
			await worktrees.remove(input.issueId, t.taskId);
			gone.add(t.taskId);
			items.push(treeItem(t, 'removed', ''));
		} catch (e) {
			items.push(treeItem(t, 'kept', (e as Error).message));
		}
	}
	for (const b of branches) {
		const tree = trees.find((t) => t.taskId === b.taskId);
		if (b.keep !== '' || (tree !== undefined && !gone.has(b.taskId))) { items.push(branchItem(b, 'kept', b.keep || 'its worktree is kept')); continue; }
		const deleted = await worktrees.deleteBranch(input.issueId, b.taskId, b.tip);
		items.push(deleted ? branchItem(b, 'removed', '') : branchItem(b, 'kept', 'it moved while it was being removed'));
	}
	return items;
}

/** The bytes the removable (or removed) trees free. */
export function bytesFreed(items: readonly CleanupItemDto[]): number {
	return items.reduce((sum, i) => sum + (i.kind === 'tree' && i.state !== 'kept' ? i.bytes : 0), 0);
}
