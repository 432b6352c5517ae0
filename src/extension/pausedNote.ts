// How the extension names an issue's pause: who paused it (the developer's pause only the developer lifts).
import type { IssueDto } from '../protocol/dto.js';

const byWhom: Record<NonNullable<IssueDto['pausedBy']>, string> = {
	developer: 'paused by the developer',
	source: 'paused by its source agent',
	agent: 'paused by an agent',
};

/** '' while dispatch runs; else "paused by …" (a paused issue that names nobody: just "paused"). */
export function pausedNote(issue: Pick<IssueDto, 'dispatchPaused' | 'pausedBy'>): string {
	if (!issue.dispatchPaused) { return ''; }
	return issue.pausedBy === undefined ? 'paused' : byWhom[issue.pausedBy];
}
