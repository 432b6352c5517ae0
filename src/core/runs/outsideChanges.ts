// Work that leaves its tree: a worktree Run's agent can still reach the developer's checkout or other task branches
// (`git -C ../..`, GIT_DIR, `cd`). Tutti cannot sandbox it, but never hides it: the developer's checkout (HEAD, the
// branch checked out, the index and tracked changes, the repository's .git/config and hooks) and the local branches
// are recorded before the Run and compared after it. What changed outside the Run's own tree and branch is its
// `outsideChanges`: such a Run is never accepted automatically and needs the developer. Nothing is undone.
//
// Attribution (what does not count): the Run's own branch; another task's branch while a Run of that task's tree
// was live in the window (its agent's commits and Tutti's bookkeeping for it are that Run's own); a ref or HEAD the
// developer's own Tutti command (integrate, finish --remove-worktrees) set to exactly the value it has now. Anything
// else that changed in the window is listed, whoever did it: with several Runs live at once, or the developer
// editing their checkout meanwhile, each Run live then lists it (Tutti cannot tell who wrote a file). Pure.

/** The developer's checkout and the local branches at one moment. */
export interface CheckoutSnapshot {
	readonly atUnixMs: number;
	/** HEAD's commit ('' before a first commit). */
	readonly head: string;
	/** The branch checked out ('' when HEAD is detached). */
	readonly branch: string;
	/**
	 * Each tracked path with changes (staged or not) → its status entry and the file's size and mtime; and the
	 * repository's `.git/config` and `.git/hooks/*` → size and mtime (a planted hook or config is an outside change).
	 */
	readonly tracked: Readonly<Record<string, string>>;
	/** `refs/heads/*` → commit. */
	readonly refs: Readonly<Record<string, string>>;
}

export interface OutsideAttribution {
	/** The Run's own branch (`refs/heads/tutti/<issue>/<tree task>`, or `refs/heads/tutti/<tree task>` for an older tree). */
	readonly ownRef: string;
	/** Branches of other trees that had a live Run during the window. */
	readonly liveOtherRefs: ReadonlySet<string>;
	/** Refs (and `HEAD`) the developer's Tutti commands set during the window → the values they set ('' = deleted). */
	readonly developerMoves: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The name an outside change of the checkout's HEAD (or the branch checked out) is listed under. */
export const checkoutHead = 'HEAD';

function movedByDeveloper(attribution: OutsideAttribution, name: string, value: string): boolean {
	return attribution.developerMoves.get(name)?.has(value) === true;
}

/** What changed outside the Run's tree and branch between `before` and `after`: HEAD first, then paths, then refs. */
export function outsideChanges(before: CheckoutSnapshot, after: CheckoutSnapshot, attribution: OutsideAttribution): string[] {
	const out: string[] = [];
	if ((before.head !== after.head || before.branch !== after.branch) && !movedByDeveloper(attribution, checkoutHead, after.head)) {
		out.push(checkoutHead);
	}
	const paths = new Set([...Object.keys(before.tracked), ...Object.keys(after.tracked)]);
	out.push(...[...paths].filter((p) => before.tracked[p] !== after.tracked[p]).sort());
	const refs = new Set([...Object.keys(before.refs), ...Object.keys(after.refs)]);
	for (const ref of [...refs].sort()) {
		const now = after.refs[ref] ?? '';
		if (ref === attribution.ownRef || (before.refs[ref] ?? '') === now) { continue; }
		if (attribution.liveOtherRefs.has(ref) || movedByDeveloper(attribution, ref, now)) { continue; }
		out.push(ref);
	}
	return out;
}

/** "README.md, refs/heads/tutti/b and 3 more" (at most `shown` names). */
export function outsideChangesList(changes: readonly string[], shown = 5): string {
	const names = changes.slice(0, shown).join(', ');
	return changes.length > shown ? `${names} and ${changes.length - shown} more` : names;
}

/** The words every surface uses for a Run with outside changes. */
export function outsideChangesLabel(changes: readonly string[]): string {
	return `changed files outside its worktree: ${outsideChangesList(changes)}`;
}
