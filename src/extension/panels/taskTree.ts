// Where "Open the task's tree" may open a terminal: only inside the workspace's .tutti/worktrees/, however the path
// was spelled (`..`, an absolute path, a symbolic link out), because the path comes from a message. vscode-free.
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

export type TreePath = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly error: string };

function inside(base: string, target: string): boolean {
	const rel = relative(base, target);
	return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The real path of a task's tree (relative to the workspace), or why it is refused. */
export function taskTreePath(workspace: string | undefined, tree: string): TreePath {
	if (workspace === undefined) { return { ok: false, error: 'Open a workspace folder first: task trees are inside it.' }; }
	if (tree === '') { return { ok: false, error: 'The task has no tree any more (it was removed).' }; }
	const base = join(workspace, '.tutti', 'worktrees');
	const target = resolve(workspace, tree);
	if (!inside(base, target)) {
		return { ok: false, error: `Refused to open ${tree}: a task's tree is inside ${join('.tutti', 'worktrees')} of the workspace.` };
	}
	let real: string;
	let realBase: string;
	try {
		real = realpathSync(target);
		realBase = realpathSync(base);
	} catch {
		return { ok: false, error: `The task's tree ${tree} does not exist any more.` };
	}
	if (!inside(realBase, real)) {
		return { ok: false, error: `Refused to open ${tree}: it leads outside ${join('.tutti', 'worktrees')} of the workspace.` };
	}
	return { ok: true, path: real };
}
