// How a settled Run reads to the developer: "Completed in 2m 03s", "Interrupted after 2m 03s — you
// stopped this", "Failed after 2m 03s — the agent stopped while this was in progress", and for a claude/codex Turn
// that exited without its final result, "Ended without a result after 2m 03s".
import type { Run, RunOutcome, StopNote } from '../model.js';
import { stopTookEffect } from './stopRules.js';

function pad2(n: number): string {
	return n < 10 ? `0${n}` : String(n);
}

/** "0.4s", "9.9s" (under ten seconds), "45s", "2m 03s", "1h 02m" (rounded down; negative or NaN reads "0.0s"). */
export function formatDuration(ms: number): string {
	const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
	if (safe < 10_000) { return `${(Math.floor(safe / 100) / 10).toFixed(1)}s`; }
	const total = Math.floor(safe / 1000);
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h > 0) { return `${h}h ${pad2(m)}m`; }
	if (m > 0) { return `${m}m ${pad2(s)}s`; }
	return `${s}s`;
}

type LabelledRun = Pick<Run, 'status' | 'outcome' | 'errorMessage' | 'createdAtUnixMs' | 'startedAtUnixMs' | 'completedAtUnixMs'>;

/** Wall time of a settled Run: from start (or creation, if it never started) to completion; 0 while running. */
export function runDurationMs(run: Pick<Run, 'createdAtUnixMs' | 'startedAtUnixMs' | 'completedAtUnixMs'>): number {
	if (run.completedAtUnixMs <= 0) { return 0; }
	const from = run.startedAtUnixMs > 0 ? run.startedAtUnixMs : run.createdAtUnixMs;
	return Math.max(0, run.completedAtUnixMs - from);
}

/** The outcome of a settled Run; for rows settled without one, derived from status and the Stop notes. */
function effectiveOutcome(run: LabelledRun, stopNotes: readonly Pick<StopNote, 'answer'>[]): RunOutcome | null {
	if (run.outcome) { return run.outcome; }
	switch (run.status) {
		case 'completed':
		case 'pending_acceptance': return 'success';
		case 'canceled': return stopNotes.some((n) => stopTookEffect(n.answer)) ? 'cancellation' : 'failure';
		case 'failed': return 'failure';
		default: return null;
	}
}

/** The error message of a Run whose claude/codex Turn exited 0 without a result line (its label says so first). */
export const noResultMessage = 'the agent exited without a final result (its stream has no result line)';

/** How the error of a Run refused before its agent started begins (its label is that error). */
export const couldNotStart = 'Could not start: ';

/** First line of an error, at most 160 characters. */
function errorSummary(message: string): string {
	const line = message.trim().split('\n')[0]!.trim();
	return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** The label for a settled Run, or null while it has not settled. */
export function outcomeLabel(run: LabelledRun, stopNotes: readonly Pick<StopNote, 'answer'>[] = []): string | null {
	if (run.status === 'running' || run.status === 'not_started') { return null; }
	const outcome = effectiveOutcome(run, stopNotes);
	const took = formatDuration(runDurationMs(run));
	switch (outcome) {
		case 'success': return `Completed in ${took}`;
		case 'cancellation': return `Interrupted after ${took} — you stopped this`;
		case 'failure': {
			if (run.errorMessage === noResultMessage) { return `Ended without a result after ${took}`; }
			const why = errorSummary(run.errorMessage);
			// Refused before its agent started (a worktree setup that failed, parents that conflict): said as such.
			if (run.startedAtUnixMs === 0 && why.startsWith(couldNotStart)) { return why.replace(/:$/, ''); }
			return `Failed after ${took} — ${why || 'the agent stopped while this was in progress'}`;
		}
		default: return null;
	}
}
