// A task's working directory must stay inside the workspace: no `..` escape, no absolute path elsewhere and
// no symlink that leads out. Checked lexically when a task is written and again (with symlinks) at launch.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

function inside(root: string, candidate: string): boolean {
	const rel = relative(root, candidate);
	return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Lexical check for task writers; returns the problem or null. Empty means the workspace itself. */
export function executionDirectoryProblem(workspace: string, executionDirectory: string): string | null {
	if (executionDirectory === '') { return null; }
	if (executionDirectory.includes('\0')) { return 'executionDirectory must not contain NUL characters'; }
	const full = resolve(workspace, executionDirectory);
	if (!inside(resolve(workspace), full)) {
		return `executionDirectory '${executionDirectory}' is outside the workspace ${workspace}`;
	}
	return null;
}

/**
 * The absolute working directory for a Run, or an error message. Resolves symlinks of both the workspace and the
 * directory, so a link pointing out of the workspace is refused; the directory must exist. `within`: the
 * workspace-relative folder the directory must also stay inside (a task's worktree), so a symlink that a repository
 * ships in the tree never moves the agent (and a codex sandbox's writable root) into the developer's checkout.
 */
export function resolveRunDirectory(workspace: string, executionDirectory: string, within?: string): { cwd: string } | { error: string } {
	const lexical = executionDirectoryProblem(workspace, executionDirectory);
	if (lexical !== null) { return { error: lexical }; }
	let root: string;
	let real: string;
	try {
		root = realpathSync(workspace);
	} catch (e) {
		return { error: `the workspace ${workspace} cannot be read: ${(e as Error).message}` };
	}
	const full = resolve(workspace, executionDirectory);
	try {
		real = realpathSync(full);
	} catch {
		return { error: `executionDirectory '${executionDirectory}' does not exist in the workspace (${full})` };
	}
	if (!inside(root, real)) {
		return { error: `executionDirectory '${executionDirectory}' leads outside the workspace through a symbolic link (to ${real})` };
	}
	if (within !== undefined) {
		let tree: string;
		try {
			tree = realpathSync(resolve(workspace, within));
		} catch {
			return { error: `the task's worktree ${within} does not exist` };
		}
		if (!inside(tree, real)) {
			return { error: `executionDirectory '${executionDirectory}' leads outside the task's worktree ${within} through a symbolic link (to ${real})` };
		}
	}
	return { cwd: real };
}
