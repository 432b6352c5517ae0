// Which of Tutti's task diffs is the active editor, and what its title bar offers: the diff editors Open Changes
// opens are known by their tab titles (each title names one task), so Accept Task and Request Changes (N comments)
// act on that task without asking which. vscode-free (unit-tested in test/unit/extension/reviewDiffTabs.test.ts).
import type { TaskRef } from '../commands/commandArgs.js';

export interface ReviewDiff extends TaskRef {
	readonly taskTitle: string;
}

/**
 * The diff editors' titles, each bound to its task. A title another task holds gets the task's id appended, so two
 * tasks with one title (a rework keeps its title) never share an editor title.
 */
export class ReviewDiffTabs {
	readonly #byTitle = new Map<string, ReviewDiff>();

	/** The title to open the task's diff under (the same one each time for the same task). */
	titleFor(task: ReviewDiff, note = ''): string {
		const plain = `Changes of "${task.taskTitle}"${note === '' ? '' : ` (${note})`}`;
		const holder = this.#byTitle.get(plain);
		const title = holder === undefined || sameTask(holder, task) ? plain : `${plain} · ${task.taskId}`;
		this.#byTitle.set(title, task);
		return title;
	}

	/**
	 * The task whose diff a tab with this label shows, if it is one of Tutti's. The multi-file diff editor labels its
	 * tab with the title and the number of files: `Changes of "X" (4 files)`.
	 */
	taskOf(tabLabel: string | undefined): ReviewDiff | undefined {
		if (tabLabel === undefined) { return undefined; }
		return this.#byTitle.get(tabLabel) ?? this.#byTitle.get(tabLabel.replace(/ \(\d+ files?\)$/, ''));
	}
}

function sameTask(a: TaskRef, b: TaskRef): boolean {
	return a.issueId === b.issueId && a.taskId === b.taskId;
}

/** Comments beyond this count share one title: "Request Changes (10+ comments)". */
export const maxCountedComments = 9;

/**
 * The Request Changes command the title bar shows for `comments` comments: its title carries the count (a menu
 * item's title is its command's, so each count has its own command; package.json's `when` clauses pick it).
 */
export function requestChangesCommandFor(comments: number): { readonly id: string; readonly title: string } {
	if (comments <= 0) { return { id: 'tutti.diff.requestChanges', title: 'Request Changes…' }; }
	if (comments > maxCountedComments) { return { id: 'tutti.diff.requestChangesMany', title: `Request Changes (${maxCountedComments + 1}+ comments)` }; }
	return { id: `tutti.diff.requestChanges${comments}`, title: `Request Changes (${comments} comment${comments === 1 ? '' : 's'})` };
}

/** Every Request Changes command of the title bar, 0 comments first. */
export function requestChangesCommands(): { readonly id: string; readonly title: string }[] {
	return Array.from({ length: maxCountedComments + 2 }, (_, n) => requestChangesCommandFor(n));
}
