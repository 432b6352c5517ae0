// What the agent of a new attempt is told before its task (a rework, a retry, an update from base): which attempt it
// is, what the developer said, and what is in the folder already. An update from base starts an agent only when the
// merge of the base into the tree conflicts, and asks it only to finish that merge (the task is context, not work to
// redo). Pure: the Host fills the facts in.
import type { MergeSource, ReworkKind } from '../model.js';

export interface ReworkPromptFacts {
	kind: ReworkKind;
	/** This Run's attempt (2 for the first rework). */
	attempt: number;
	/** The Run this attempt follows ('' when none). */
	fromRunId: string;
	/** The developer's note (with the comments on the diff), '' when none. */
	note: string;
	/** retry: how the previous attempt ended ("failed: …", "canceled"), '' when unknown. */
	previousEnding?: string;
	/** update_from_base: the branch merged in, what was merged, and the paths that conflict. */
	merge?: { into: string; sources: readonly MergeSource[]; conflictPaths: readonly string[] };
}

function quoted(note: string): string[] {
	return note.split('\n').map((line) => (line === '' ? '>' : `> ${line}`));
}

function sourcesText(sources: readonly MergeSource[]): string {
	return sources.map((s) => `${s.label} (${s.commit.slice(0, 12)})`).join(' and ');
}

/** The lines in front of the task text of a new attempt; ends with a blank line. */
export function reworkPrompt(f: ReworkPromptFacts): string {
	const previous = f.fromRunId !== '' ? ` (Run ${f.fromRunId})` : '';
	switch (f.kind) {
		case 'changes_requested':
			return [
				`This is attempt ${f.attempt} of this task. The developer reviewed the result of the previous attempt${previous} and requested changes:`,
				...quoted(f.note),
				'The previous attempt\'s work is already in this folder (committed). Change it as the developer asks; the task it was for follows.',
				'',
			].join('\n');
		case 'retry':
			return [
				`This is attempt ${f.attempt} of this task: the previous attempt${previous} ${f.previousEnding !== undefined && f.previousEnding !== '' ? `ended ${f.previousEnding}` : 'did not finish'}, and the developer runs it again.`,
				...(f.note !== '' ? ['The developer says:', ...quoted(f.note)] : []),
				'Whatever the previous attempt left is in this folder. Do the task below.',
				'',
			].join('\n');
		case 'update_from_base': {
			const merge = f.merge ?? { into: 'the base branch', sources: [], conflictPaths: [] };
			const what = merge.sources.length > 0 ? sourcesText(merge.sources) : merge.into;
			return [
				`This Run (attempt ${f.attempt}) updates this task's work from ${merge.into}: merging ${what} into this folder conflicts in:`,
				...merge.conflictPaths.map((p) => `  - ${p}`),
				'Resolve each of these files so that both sides\' intent is kept (this task\'s work and the changes merged in), then `git add` them and `git commit` to conclude the merge.',
				'The Run fails if it ends with the merge unresolved. Do not redo or extend the task: it follows only so that you know what this folder\'s work is for.',
				'',
			].join('\n');
		}
	}
}
