// Where a task's git worktree lives and which branch it is on: `.tutti/worktrees/<taskId>` on `tutti/<taskId>`.
// Pure rules: a task id becomes a directory name and a branch name only when it is safe as both.
import { join } from 'node:path';

/** Isolation a Run gets from its agent target (`"isolation"` in `.tutti/config.json`; default `none`). */
export type Isolation = 'none' | 'worktree';

/** The workspace-relative folder holding every task worktree. */
export const worktreesFolder = join('.tutti', 'worktrees');

/** Why this task id cannot name a worktree folder and branch, or null when it can. */
export function worktreeTaskIdProblem(taskId: string): string | null {
	if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/.test(taskId)) {
		return `task id '${taskId}' cannot name a worktree: use letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 120 characters)`;
	}
	if (taskId.includes('..') || taskId.endsWith('.lock') || taskId.endsWith('.')) {
		return `task id '${taskId}' cannot name a git branch (no '..', no trailing '.' or '.lock')`;
	}
	return null;
}

/** `.tutti/worktrees/<taskId>` relative to the workspace (recorded on the Run as its executionDirectory). */
export function worktreeRelativePath(taskId: string): string {
	return join(worktreesFolder, taskId);
}

/** `tutti/<taskId>` */
export function worktreeBranch(taskId: string): string {
	return `tutti/${taskId}`;
}

/**
 * The chain of task ids whose worktree a launch of `taskId` may reuse, nearest first: the task itself, then the
 * task it superseded (rework), then that one's predecessor, … A rework goes back to the tree of the work it redoes.
 */
export function reworkChain(taskId: string, supersededBy: ReadonlyMap<string, string>): string[] {
	const predecessorOf = new Map<string, string>();
	for (const [oldId, newId] of supersededBy) {
		if (newId !== '') { predecessorOf.set(newId, oldId); }
	}
	const chain = [taskId];
	let current = predecessorOf.get(taskId);
	while (current !== undefined && !chain.includes(current)) {
		chain.push(current);
		current = predecessorOf.get(current);
	}
	return chain;
}
