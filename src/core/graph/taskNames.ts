// A task's id names its git branch and its worktree folder (`tutti/<issue>/<task>`, `.tutti/worktrees/<issue>/<task>`),
// and its title becomes the first line of its result commit. Both are checked when the task is written, so that a
// name git cannot use is refused with the rule at once rather than when the task launches.

/** The task id rule in words (CLI help, error messages). */
export const taskIdRule = "letters, digits, '.', '_' and '-', starting with a letter or digit, at most 120 characters, without '..' and not ending in '.' or '.lock'";

/** Why `taskId` cannot name a git branch and a folder, or null when it can. */
export function taskIdProblem(taskId: string): string | null {
	if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/.test(taskId) || taskId.includes('..') || taskId.endsWith('.lock') || taskId.endsWith('.')) {
		return `task id ${JSON.stringify(taskId)} cannot name a git branch and worktree folder: use ${taskIdRule} (for example "fix-login")`;
	}
	return null;
}

/** Why `title` cannot be a git commit message, or null when it can (git takes any text but a NUL character). */
export function taskTitleProblem(title: string): string | null {
	if (title.includes('\0')) {
		return 'the task title contains a NUL character, which git cannot put into a commit message: remove it';
	}
	return null;
}
