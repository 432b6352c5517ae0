// Who holds an issue's pause (SECURITY.md, the authority table): the developer's pause or stop is lifted only by the
// developer; an agent's resume lifts only a pause of its own kind. Pure rules over the issue row.
import type { Issue, Pauser } from '../model.js';

/** Who paused a paused issue (one that names nobody is the developer's: fail closed); null while dispatch runs. */
export function pauserOf(issue: Pick<Issue, 'dispatchPaused' | 'pausedBy'>): Pauser | null {
	return issue.dispatchPaused ? (issue.pausedBy ?? 'developer') : null;
}

/** `{pausedBy}` while paused, nothing otherwise (what the DTOs carry). */
export function pausedByField(issue: Pick<Issue, 'dispatchPaused' | 'pausedBy'>): { pausedBy?: Pauser } {
	const pauser = pauserOf(issue);
	return pauser === null ? {} : { pausedBy: pauser };
}

/** Paused by someone other than the source session: the source's resume cannot lift it. */
export function sourceCannotResume(issue: Pick<Issue, 'dispatchPaused' | 'pausedBy'>): boolean {
	const pauser = pauserOf(issue);
	return pauser !== null && pauser !== 'source';
}

/**
 * The issue after `pauser` pauses (paused=true) or lifts (false) its dispatch, or null when nothing changes. The
 * developer pausing an issue an agent had paused takes the pause over (then only the developer lifts it).
 */
export function withPause(issue: Issue, paused: boolean, pauser: Pauser, nowUnixMs: number): Issue | null {
	if (issue.dispatchPaused === paused) {
		if (!paused || pauser !== 'developer' || pauserOf(issue) === 'developer') { return null; }
		return { ...issue, pausedBy: pauser, updatedAtUnixMs: nowUnixMs };
	}
	return { ...issue, dispatchPaused: paused, pausedBy: paused ? pauser : undefined, updatedAtUnixMs: nowUnixMs };
}
