// What "Open Changes" shows for a task (the task's own diff, never the working tree against HEAD): for a
// Run in a worktree, `baseCommit..resultCommit` file by file (a merge base compares against that merge); while it
// runs, its tree against its base; for a Run in the shared folder, the folder against the commit recorded at launch,
// labelled as possibly including other changes. vscode-free: the command turns this into `vscode.changes`.
import type { RunDto } from '../../protocol/dto.js';

export type DiffSide = { kind: 'commit'; sha: string } | { kind: 'workingTree' };

export type TaskDiffPlan =
	| { kind: 'files'; title: string; left: string; right: DiffSide; files: readonly string[]; note: string }
	/** The changes are whatever git finds between `left` and the working tree of `dir`. */
	| { kind: 'workingTree'; title: string; left: string; dir: string; note: string }
	| { kind: 'none'; why: string };

export function taskDiffPlan(taskTitle: string, run: Pick<RunDto, 'inWorktree' | 'baseCommit' | 'resultCommit' | 'changedFiles' | 'executionDirectory' | 'status'>): TaskDiffPlan {
	const title = `Changes of "${taskTitle}"`;
	if (run.baseCommit === '') {
		return { kind: 'none', why: `no commit was recorded when "${taskTitle}" started (it ran before Tutti recorded commits, or outside git)` };
	}
	if (!run.inWorktree) {
		return {
			kind: 'workingTree', title: `${title} (shared folder: may include other changes)`, left: run.baseCommit, dir: run.executionDirectory,
			note: 'shared folder: may include other changes',
		};
	}
	if (run.resultCommit === '') {
		return run.status === 'running'
			? { kind: 'workingTree', title: `${title} (in progress)`, left: run.baseCommit, dir: run.executionDirectory, note: 'in progress' }
			: { kind: 'none', why: `"${taskTitle}" has no result commit yet` };
	}
	if (run.changedFiles.length === 0) {
		return { kind: 'none', why: `"${taskTitle}" changed no files (its result is its base commit)` };
	}
	return {
		kind: 'files', title, left: run.baseCommit, right: { kind: 'commit', sha: run.resultCommit },
		files: run.changedFiles.map((f) => f.path), note: '',
	};
}

/** Which sides of a file's diff exist: a file the task added has no original, one it deleted no modified version. */
export type FileSides = 'both' | 'added' | 'deleted';

/**
 * The sides of a changed file from the status the Git extension reports for it between two commits (its API's
 * `Status`: INDEX_ADDED = 1 for `A`, DELETED = 6 / INDEX_DELETED = 2 for `D`); anything else, or no status, has both.
 * The diff editor drops a file whose side cannot be read, so an added file must not ask for its version at the base.
 */
export function fileSidesOf(status: number | undefined): FileSides {
	if (status === 1) { return 'added'; }
	if (status === 6 || status === 2) { return 'deleted'; }
	return 'both';
}
