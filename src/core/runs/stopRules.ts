// Honest Stop outcomes: a Run is the developer's cancellation only when a person's
// Stop that took effect covers it; every other death is the agent's failure.
import type { RunStatus, RunOutcome, StopAnswer, StopEvent, StopReason } from '../model.js';

/** `requestedBy` of an archive the developer asked for; an agent's archive (`plan issue stop`) records its session id. */
export const developerArchiveRequester = 'developer';

/**
 * The reason of the Stops an archive sends to its Runs: the developer's archive (a source-session Stop) is a person's
 * Stop of every Run it ends ("Interrupted after … — you stopped this"); an agent's archive is the Host's.
 */
export function archiveStopReason(requestedBy: string): Extract<StopReason, 'person' | 'host'> {
	return requestedBy === developerArchiveRequester ? 'person' : 'host';
}

/** A Stop event with the answer recorded for it (null = not answered yet). */
export type AnsweredStopEvent = Pick<StopEvent, 'eventId' | 'runId' | 'reason' | 'requestedAtUnixMs'> & { answer: StopAnswer | null };

/** The Run facts the rules read: which Run, and when it ended (0 while it has not). */
export interface StoppedRun {
	runId: string;
	completedAtUnixMs: number;
}

/** `took` and `end-owed` took effect (the interrupt was taken, or the Stop ends the process); the rest did not. */
export function stopTookEffect(answer: StopAnswer | null | undefined): boolean {
	return answer === 'took' || answer === 'end-owed';
}

function covers(e: AnsweredStopEvent, run: StoppedRun): boolean {
	return e.reason === 'person' && e.runId === run.runId && (run.completedAtUnixMs <= 0 || e.requestedAtUnixMs <= run.completedAtUnixMs);
}

/**
 * Answer-blind: a person's Stop was requested for this Run before it ended. Used for host deference — a host
 * stop or eviction after it writes no event of its own, so the person's Stop stays the reason.
 */
export function personStopCoversRun(stopEvents: readonly AnsweredStopEvent[], run: StoppedRun): boolean {
	return stopEvents.some((e) => covers(e, run));
}

/** A covering person's Stop took effect. Every covering event counts, not only the latest. */
export function personStopDecidesRun(stopEvents: readonly AnsweredStopEvent[], run: StoppedRun): boolean {
	return stopEvents.some((e) => covers(e, run) && stopTookEffect(e.answer));
}

/**
 * How a claude/codex Turn's structured stream ended: its final result line was a success (`ok`), an error (`error`),
 * or never came (`missing`). Command targets have no stream: their exit code alone decides.
 */
export type TurnResult = 'ok' | 'error' | 'missing';

export interface RunEnd {
	/** The process exit code; null when it died by a signal or never reported one. */
	exitCode: number | null;
	/** Set when the process could not be started at all. */
	spawnError?: string | null;
	/** The end of the Turn's stream (claude/codex); absent for command targets. */
	turnResult?: TurnResult;
	stopEvents: readonly AnsweredStopEvent[];
	/** The Run; events for other Runs are ignored. Omit only when `stopEvents` are already this Run's. */
	runId?: string;
	/** When the Run ended; Stops requested later do not cover it. 0/omitted = unknown (all count). */
	endedAtUnixMs?: number;
}

/** Why a failed Run failed: its process (exit code, signal, spawn error), an error result, or no result at all. */
export type RunFailure = 'process' | 'agent_error' | 'no_result';

export interface RunVerdict {
	status: Extract<RunStatus, 'completed' | 'failed' | 'canceled'>;
	outcome: RunOutcome;
	/** Set for a failure only. */
	failure: RunFailure | null;
	/**
	 * A covering person's Stop has no answer yet (and none took): the verdict is provisional (a failure). The
	 * Host should settle only once the answer lands, then decide again ("a turn that ends before its Stop's
	 * answer is recorded gets its outcome decided when the answer lands").
	 */
	awaitingStopAnswer: boolean;
}

/**
 * The verdict for a Run whose process ended:
 * - exit code 0 (and it started) with a successful result line, or without a stream (command targets) →
 *   completed/success: the agent's own verdict stands, even after a Stop;
 * - otherwise — a non-zero exit, a signal, a spawn error, or exit 0 whose stream ends in an error result or in no
 *   result line at all (Claude Code answers SIGINT before the response opened with exit 0 and no result) —
 *   canceled/cancellation only if a person's Stop that took effect covers the Run (any covering event: a later press
 *   that did nothing never erases an earlier one that took); otherwise failed/failure, saying why.
 */
export function decideRunOutcome(end: RunEnd): RunVerdict {
	const events = end.runId === undefined ? end.stopEvents : end.stopEvents.filter((e) => e.runId === end.runId);
	const run: StoppedRun = { runId: end.runId ?? '', completedAtUnixMs: end.endedAtUnixMs ?? 0 };
	const relevant = events.map((e) => ({ ...e, runId: run.runId }));
	const exitedCleanly = end.exitCode === 0 && !end.spawnError;
	if (exitedCleanly && (end.turnResult === undefined || end.turnResult === 'ok')) {
		return { status: 'completed', outcome: 'success', failure: null, awaitingStopAnswer: false };
	}
	if (personStopDecidesRun(relevant, run)) { return { status: 'canceled', outcome: 'cancellation', failure: null, awaitingStopAnswer: false }; }
	const unanswered = relevant.some((e) => covers(e, run) && e.answer === null);
	const failure: RunFailure = !exitedCleanly ? 'process' : end.turnResult === 'error' ? 'agent_error' : 'no_result';
	return { status: 'failed', outcome: 'failure', failure, awaitingStopAnswer: unanswered };
}

/**
 * Merges a newly recorded answer into the stored one for the SAME Stop event: a non-taking answer never
 * overwrites one that took effect, and null never erases an answer. Otherwise the newer answer wins.
 */
export function mergeStopAnswer(existing: StopAnswer | null, incoming: StopAnswer | null): StopAnswer | null {
	if (incoming === null) { return existing; }
	if (stopTookEffect(existing) && !stopTookEffect(incoming)) { return existing; }
	return incoming;
}

/**
 * The answer for a Stop of a Run's process after interrupting (SIGINT to the group) and escalating:
 * - the Run was not running when the Stop arrived → `no-effect` (nothing to stop);
 * - `exited`: the process group ended → `took`;
 * - `still_running`: it survived the escalation → `declined` (the end could not be proven);
 * - `not_running`: there was no live process (it had already died on its own) → `no-effect`; unless this Stop itself
 *   canceled an approval request the agent was waiting on (`stopCanceledAWait`): the agent was told "stopped" and ended
 *   on that before the signal reached it, so its end is the Stop's doing → `took`.
 * A Run whose launch never happened is not an interrupt: the Host cancels the launch and records `took` itself;
 * a signal that could not be delivered at all is `interrupt-unconfirmed`, also recorded by the Host.
 */
export function answerForInterrupt(result: 'exited' | 'still_running' | 'not_running', runWasRunning: boolean, stopCanceledAWait = false): StopAnswer {
	if (!runWasRunning) { return 'no-effect'; }
	switch (result) {
		case 'exited': return 'took';
		case 'still_running': return 'declined';
		case 'not_running': return stopCanceledAWait ? 'took' : 'no-effect';
	}
}
