// The files a task changed, as the review shows them: `git diff --numstat base result`.
import { git } from '../worktrees/git.js';

export interface ChangedFile {
	path: string;
	added: number;
	deleted: number;
	/** git counts no lines in a binary file. */
	binary: boolean;
}

/** Parses `git diff --numstat -z` output (renames reported as their new path). */
export function parseNumstat(out: string): ChangedFile[] {
	const fields = out.split('\0');
	const files: ChangedFile[] = [];
	for (let i = 0; i < fields.length; i += 1) {
		const field = fields[i]!;
		if (field === '') { continue; }
		const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
		if (!match) { continue; }
		let path = match[3]!;
		if (path === '') {
			// A rename: "added\tdeleted\t" then the old and the new path as their own fields.
			i += 2;
			path = fields[i] ?? '';
		}
		const binary = match[1] === '-' || match[2] === '-';
		files.push({ path, added: binary ? 0 : Number(match[1]), deleted: binary ? 0 : Number(match[2]), binary });
	}
	return files;
}

export async function changedFiles(repo: string, base: string, result: string): Promise<ChangedFile[]> {
	if (base === '' || result === '' || base === result) { return []; }
	return parseNumstat((await git(repo, ['diff', '--numstat', '-z', '-M', base, result, '--'])).stdout);
}
