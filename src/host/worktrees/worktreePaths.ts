// Where a task's git worktree lives and which branch it is on. A new tree goes to `.tutti/worktrees/<issueId>/<taskId>`
// on `tutti/<issueId>/<taskId>`, so the same task id in two issues never meets; a tree made before names were per
// issue keeps `.tutti/worktrees/<taskId>` on `tutti/<taskId>`. Which of the two a tree has is recorded when it is made
// (worktreeManager.ts) and read from that record afterwards, never recomputed.
import { join, normalize, sep } from 'node:path';
import { taskIdProblem } from '../../core/graph/taskNames.js';

/** Isolation a Run gets from its agent target (`"isolation"` in `.tutti/config.json`; default `none`). */
export type Isolation = 'none' | 'worktree';

/** The workspace-relative folder holding every task worktree. */
export const worktreesFolder = join('.tutti', 'worktrees');

/** One task tree as it was made: the folder and branch every later step reads. */
export interface TreeRecord {
	issueId: string;
	taskId: string;
	/** Workspace-relative folder of the tree (what a Run records as its executionDirectory). */
	path: string;
	branch: string;
	/** worktreeCopy and worktreeSetup have run in this tree (they run once per tree). */
	prepared: boolean;
}

/** Why this task id (or issue id) cannot name a worktree folder and branch, or null when it can. */
export function worktreeTaskIdProblem(taskId: string): string | null {
	return taskIdProblem(taskId);
}

/** `.tutti/worktrees/<issueId>/<taskId>` relative to the workspace: where a new tree of the task is made. */
export function worktreeRelativePath(issueId: string, taskId: string): string {
	return join(worktreesFolder, issueId, taskId);
}

/** `tutti/<issueId>/<taskId>`: the branch of a new tree of the task. */
export function worktreeBranch(issueId: string, taskId: string): string {
	return `tutti/${issueId}/${taskId}`;
}

/** The names of a tree made before names were per issue: `.tutti/worktrees/<taskId>` on `tutti/<taskId>`. */
export function legacyTreeNames(taskId: string): { path: string; branch: string } {
	return { path: join(worktreesFolder, taskId), branch: `tutti/${taskId}` };
}

/**
 * Whether a record read from `.tutti/worktrees.json` names one of the two layouts for its own issue and task. The file
 * sits in the workspace, so a record pointing anywhere else (another folder, another branch) is not taken.
 */
export function isKnownLayout(record: Pick<TreeRecord, 'issueId' | 'taskId' | 'path' | 'branch'>): boolean {
	if (worktreeTaskIdProblem(record.issueId) !== null || worktreeTaskIdProblem(record.taskId) !== null) { return false; }
	const legacy = legacyTreeNames(record.taskId);
	return (record.path === worktreeRelativePath(record.issueId, record.taskId) && record.branch === worktreeBranch(record.issueId, record.taskId))
		|| (record.path === legacy.path && record.branch === legacy.branch);
}

/** Whether the workspace-relative `directory` is the tree folder `treePath` or lies inside it. */
export function isInsideTree(treePath: string, directory: string): boolean {
	const dir = normalize(directory);
	return dir === treePath || dir.startsWith(`${treePath}${sep}`);
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

/**
 * The tree a worktree Run worked in, from the directory it ran in (maybe a folder inside): `.tutti/worktrees/<issue>/<task>`,
 * or `.tutti/worktrees/<task>` for a tree an older Tutti made.
 */
export function treeOfDirectory(executionDirectory: string, issueId: string): string {
	const parts = executionDirectory.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
	const folder = worktreesFolder.split(sep);
	if (!folder.every((p, i) => parts[i] === p) || parts.length <= folder.length) { return ''; }
	const perIssue = parts[folder.length] === issueId && parts.length > folder.length + 1;
	return parts.slice(0, folder.length + (perIssue ? 2 : 1)).join(sep);
}
