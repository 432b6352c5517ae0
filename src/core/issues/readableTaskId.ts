// A readable task id from a task's title ("Write the session timeout test" → `write-the-session-timeout-test`), for
// tasks added without an id (the panel's task form, `tutti issue task add` without --task-id). The id names the
// task's worktree folder and branch (`.tutti/worktrees/<id>`, `tutti/<id>`), which are shared by every issue of the
// workspace, so it must be free in the whole workspace, not only in its issue. Pure.

/** Longest slug before a uniqueness suffix: long enough to tell titles apart, short enough to read in a list. */
export const readableTaskIdMaxChars = 48;

/** The title as lowercase ASCII words joined by '-', cut at a word boundary; 'task' when nothing readable is left. */
export function taskIdSlug(title: string): string {
	const words = title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((w) => w !== '');
	let slug = '';
	for (const word of words) {
		const next = slug === '' ? word : `${slug}-${word}`;
		if (next.length > readableTaskIdMaxChars) {
			if (slug === '') { slug = word.slice(0, readableTaskIdMaxChars); }
			break;
		}
		slug = next;
	}
	return slug === '' ? 'task' : slug;
}

/**
 * The slug of `title`, or the slug with the smallest suffix `-2`, `-3`, … that `taken` does not hold. `taken` is asked
 * about the plain slug first; every id returned names a git branch and a folder (letters, digits and '-').
 */
export function readableTaskId(title: string, taken: (taskId: string) => boolean): string {
	const slug = taskIdSlug(title);
	if (!taken(slug)) { return slug; }
	for (let n = 2; ; n++) {
		const id = `${slug}-${n}`;
		if (!taken(id)) { return id; }
	}
}
