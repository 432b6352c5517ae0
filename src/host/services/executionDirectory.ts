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
 * directory, so a link pointing out of the workspace is refused; the directory must exist.
 */
export function resolveRunDirectory(workspace: string, executionDirectory: string): { cwd: string } | { error: string } {
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
	return { cwd: real };
}
