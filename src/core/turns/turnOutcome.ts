// Exit → outcome of an agent Turn, pure. A worker Run's Turn is the developer's cancellation only when a
// person's Stop that took effect covers it, and a claude/codex stream that ends in an error result is a failure even
// after exit 0; a wake Turn (source session or independent reviewer) has no Stop events of its own: any signal
// ends it as a cancellation, a lost or unstartable process as a failure.
import type { RunOutcome } from '../model.js';
import { noResultMessage } from '../runs/outcome.js';
import { type AnsweredStopEvent, decideRunOutcome, type RunFailure, type TurnResult } from '../runs/stopRules.js';

/** How a Turn's process ended (the exit record the runner wrote). */
export interface ProcessEnd {
	exitCode: number | null;
	signal: string | null;
	/** Set when the process could not be started at all. */
	spawnError?: string | undefined;
	/** When it ended (0: unknown). */
	endedAtUnixMs: number;
}

/** What the agent's structured stream said at the end (absent for command targets and unreadable streams). */
export interface StreamEnd {
	result: { ok: boolean; text: string } | null;
	errors: readonly string[];
}

/** The factual error text of a process end (empty for a clean exit). */
export function exitMessage(end: Omit<ProcessEnd, 'endedAtUnixMs'>): string {
	if (end.spawnError) { return end.spawnError; }
	if (end.signal === 'lost') { return 'the agent process ended without recording an exit (killed or crashed)'; }
	if (end.signal) { return `killed by ${end.signal}`; }
	if (end.exitCode !== null && end.exitCode !== 0) { return `exited with code ${end.exitCode}`; }
	if (end.exitCode === null) { return 'ended without an exit code'; }
	return '';
}

export interface RunTurnOutcome {
	outcome: RunOutcome;
	/** Empty unless the outcome is a failure. */
	errorMessage: string;
	/** A covering person's Stop has no answer yet (none took): the caller records it as unconfirmed. */
	awaitingStopAnswer: boolean;
}

/** What a failed Run's error says: its process end, the agent's error result, or that no result came. */
function failureMessage(failure: RunFailure | null, end: ProcessEnd, stream: StreamEnd | null): string {
	switch (failure) {
		case null: return '';
		case 'process': return exitMessage(end) || 'the agent stopped while this was in progress';
		case 'no_result': return noResultMessage;
		case 'agent_error': {
			const detail = (stream?.result?.text.trim() || stream?.errors.join('; ')) ?? '';
			return `the agent reported an error${detail ? `: ${detail.slice(0, 500)}` : ''}`;
		}
	}
}

/**
 * The outcome of a worker Run from the exit of its current Turn, the Run's Stop events and the stream's end
 * (core/runs/stopRules.ts decides): a claude/codex stream decides with the exit — exit 0 ending in an error result
 * or in no result line is not a success (Claude Code answers SIGINT before the response opened with exit 0 and no
 * result line), and such an unfinished Turn is the developer's cancellation when their Stop took.
 */
export function runTurnOutcome(runId: string, end: ProcessEnd, stopEvents: readonly AnsweredStopEvent[], stream: StreamEnd | null): RunTurnOutcome {
	const turnResult: TurnResult | undefined = stream ? (stream.result === null ? 'missing' : stream.result.ok ? 'ok' : 'error') : undefined;
	const verdict = decideRunOutcome({
		exitCode: end.exitCode, spawnError: end.spawnError ?? null, stopEvents, runId, endedAtUnixMs: end.endedAtUnixMs,
		...(turnResult !== undefined ? { turnResult } : {}),
	});
	return { outcome: verdict.outcome, errorMessage: failureMessage(verdict.failure, end, stream), awaitingStopAnswer: verdict.awaitingStopAnswer };
}

/** The outcome of a wake Turn (source session or reviewer) from its process end. */
export function wakeTurnOutcome(end: Omit<ProcessEnd, 'endedAtUnixMs'>): RunOutcome {
	if (end.spawnError || end.signal === 'lost') { return 'failure'; }
	if (end.signal) { return 'cancellation'; }
	return end.exitCode === 0 ? 'success' : 'failure';
}

/** A Turn that completed (exit 0, a successful result) may hand its Run's next queued message to the agent. */
export function turnCompleted(end: Omit<ProcessEnd, 'endedAtUnixMs'>, stream: StreamEnd | null): boolean {
	return end.exitCode === 0 && end.signal === null && !end.spawnError && stream?.result?.ok === true;
}
