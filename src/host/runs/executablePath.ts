// Which executable a Run starts. Repository content must never stand in for the developer's own programs: the
// target's executable is looked up on the PATH the agent gets *before* the `tutti` shim directory is put in front
// of it, only in absolute PATH entries (a relative one, or an empty one, means "the Run's working directory", which
// is repository content) and never in the workspace's `.tutti/` directory. A file inside `.tutti/` is refused
// altogether (Runs' worktrees under `.tutti/worktrees/` excepted: they are the developer's checkouts).
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Whether `path` is `root` itself or lies below it (both absolute). */
export function isInside(path: string, root: string): boolean {
	const rel = relative(root, path);
	return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The PATH entries an agent may search: absolute ones outside `tuttiDir`, in their order, without repeats. */
export function trustedPathEntries(pathValue: string | undefined, tuttiDir: string | undefined): string[] {
	const kept: string[] = [];
	for (const entry of (pathValue ?? '').split(delimiter)) {
		if (entry === '' || !isAbsolute(entry)) { continue; }
		if (tuttiDir !== undefined && isInside(resolve(entry), tuttiDir)) { continue; }
		if (!kept.includes(entry)) { kept.push(entry); }
	}
	return kept;
}

function isExecutableFile(path: string): boolean {
	try {
		if (!statSync(path).isFile()) { return false; }
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/**
 * The absolute path of `file` found in `entries` (trustedPathEntries), or `file` unchanged when it names a path
 * (contains a separator) or is found nowhere (the spawn then reports it not found). Windows resolves through its
 * own rules (PATHEXT) and is left to the spawn.
 */
export function resolveExecutable(file: string, entries: readonly string[], platform: NodeJS.Platform = process.platform): string {
	if (platform === 'win32' || file.includes('/') || (sep === '\\' && file.includes('\\'))) { return file; }
	for (const dir of entries) {
		const candidate = join(dir, file);
		if (isExecutableFile(candidate)) { return candidate; }
	}
	return file;
}

/**
 * Why the executable must not run (null: it may): it lies inside the workspace's `.tutti/` directory, where Tutti
 * writes its own files and a clone can plant any, outside the Runs' worktrees. `file` is resolved against `cwd`,
 * and through symlinks when it exists.
 */
export function tuttiDirExecutableProblem(file: string, cwd: string, tuttiDir: string): string | null {
	if (!file.includes('/') && !(sep === '\\' && file.includes('\\'))) { return null; }
	const absolute = resolve(cwd, file);
	let real = absolute;
	try { real = realpathSync(absolute); } catch { /* the spawn reports a missing file */ }
	const worktrees = join(tuttiDir, 'worktrees');
	const inside = (p: string): boolean => isInside(p, tuttiDir) && !isInside(p, worktrees);
	if (!inside(absolute) && !inside(real)) { return null; }
	return `refused to run ${file}: it lies inside ${tuttiDir}, where Tutti never runs an executable it did not write (a cloned repository can put files there)`;
}
