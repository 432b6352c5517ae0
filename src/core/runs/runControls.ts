// What the developer may do to one Run right now, and whether a person's Stop is already ending it. The Host derives
// both for every Run it sends; the panel draws them ("Stop run", "Stopping…", "Stop again") and derives nothing.
import type { RunOutcome, RunStatus, StopAnswer, StopReason } from '../model.js';
import { stopTookEffect } from './stopRules.js';

export interface RunControlFacts {
	readonly status: RunStatus;
	readonly outcome: RunOutcome | null;
	/** The Run's Stop events with their answers (null: not answered yet). */
	readonly stopNotes: readonly { readonly reason: StopReason; readonly answer: StopAnswer | null }[];
}

export interface RunControls {
	/** Stop the Run (`tutti.stopRun`): it has not settled. */
	readonly stop: boolean;
}

/** The Run has not settled: no outcome yet, and it is starting or running. */
export function isLiveRun(run: Pick<RunControlFacts, 'status' | 'outcome'>): boolean {
	return run.outcome === null && (run.status === 'running' || run.status === 'not_started');
}

/** A person's Stop is in force on a Run that has not settled: not answered yet, or it took effect and the Run is ending. */
export function isStopping(run: RunControlFacts): boolean {
	return isLiveRun(run) && run.stopNotes.some((n) => n.reason === 'person' && (n.answer === null || stopTookEffect(n.answer)));
}

/** Stop while the Run has not settled (again while a Stop is in force: a later press may take where the first did not). */
export function runControls(run: RunControlFacts): RunControls {
	return { stop: isLiveRun(run) };
}
