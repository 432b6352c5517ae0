// What the latest settled Run changed, drawn from the facts the Host recorded for it (where it worked, its result
// commit and `git diff --numstat`), for the review block above Accept / Request changes. Pure.
import { formatCount } from './format.js';
import { hasSettled } from './runModel.js';
import type { RunDto } from './snapshotTypes.js';

export interface ChangedFileModel {
	readonly path: string;
	/** "+12 −3", or "binary". */
	readonly countsLabel: string;
	/** The counts in words, for screen readers ("12 lines added, 3 deleted", "binary file"). */
	readonly countsSpoken: string;
}

export type ReviewChangesModel =
	| { readonly kind: 'files'; readonly files: readonly ChangedFileModel[] }
	| { readonly kind: 'sharedFolder' | 'noChanges' | 'notRecorded'; readonly message: string };

function plural(n: number, one: string, many: string): string {
	return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Null before any Run and while the latest one has not settled. */
export function reviewChanges(r: RunDto | undefined): ReviewChangesModel | null {
	if (!r || !hasSettled(r)) { return null; }
	if (!r.inWorktree) { return { kind: 'sharedFolder', message: 'Worked in the shared folder: its changes may include other changes' }; }
	if (r.changedFiles.length > 0) {
		return {
			kind: 'files',
			files: r.changedFiles.map((f) => ({
				path: f.path,
				countsLabel: f.binary ? 'binary' : `+${formatCount(f.added)} \u2212${formatCount(f.deleted)}`,
				countsSpoken: f.binary ? 'binary file' : `${plural(f.added, 'line', 'lines')} added, ${formatCount(f.deleted)} deleted`,
			})),
		};
	}
	return r.resultCommit === ''
		? { kind: 'notRecorded', message: 'Its result is not recorded yet' }
		: { kind: 'noChanges', message: 'No files changed' };
}
