// Stalled is not failed: a running Run whose agent shows no activity (no output, no tool call, no usage: all of them
// reach its output files) for its stall time is marked stalled, and activity lifts the mark. The mark never fails or
// stops the Run. These are the rules, over plain values; the Host probes the output files and keeps the marks. Pure.
import type { RunStall } from '../model.js';

/** How long a Run may be silent before it is marked stalled, when neither its target nor the workspace says. */
export const defaultStallSeconds = 600;

/** The longest stall time a setting may give (a week). */
export const maxStallSeconds = 604_800;

/**
 * The stall time of a Run, in ms: its target's `stallSeconds`, else the workspace's, else the default; 0 means its
 * Runs are never marked.
 */
export function stallMsFor(target: { readonly stallSeconds?: number | undefined } | undefined, workspaceStallSeconds: number | undefined): number {
	return (target?.stallSeconds ?? workspaceStallSeconds ?? defaultStallSeconds) * 1000;
}

/**
 * How often the Host probes running Runs: a tenth of the shortest stall time, between 1 and 10 seconds, so a mark
 * comes at most that late after the stall time and is lifted at most that late after the agent's next output.
 */
export function stallProbeIntervalMs(stallMs: readonly number[]): number {
	const shortest = Math.min(...stallMs.filter((ms) => ms > 0));
	if (!Number.isFinite(shortest)) { return 10_000; }
	return Math.min(10_000, Math.max(1_000, Math.floor(shortest / 10)));
}

/** What a probe of the Run's output saw: its current Turn process, the bytes written so far and when they were last written. */
export interface OutputProbe {
	readonly processId: string;
	readonly bytes: number;
	/** The files' last write (0: none yet). Only read to place the last activity of a Run first seen by this Host. */
	readonly writtenAtUnixMs: number;
}

/** What the Host remembers of a running Run between probes (in memory: a restart starts again from the files). */
export interface ActivityTrack {
	readonly processId: string;
	readonly bytes: number;
	readonly writtenAtUnixMs: number;
	readonly lastActivityAtUnixMs: number;
}

export interface ActivityInput {
	/** The previous probe's track; undefined when this Host has not probed the Run yet. */
	readonly previous: ActivityTrack | undefined;
	readonly probe: OutputProbe;
	readonly startedAtUnixMs: number;
	/** The Run's mark in force, if any (its last activity is a lower bound after a restart). */
	readonly mark: Pick<RunStall, 'lastActivityAtUnixMs'> | undefined;
	/** The agent waits for the developer (an approval it asked for): it is not silent, it is waiting for them. */
	readonly waitingForDeveloper: boolean;
	readonly nowUnixMs: number;
}

/**
 * The Run's activity after one probe. New output (more or fewer bytes, a later write, a new Turn process) is activity
 * now. A Run first seen (a Host start) had its last activity at its files' last write, never before its start nor
 * after now, and never before the last activity its mark recorded.
 */
export function trackActivity(input: ActivityInput): ActivityTrack {
	const { previous, probe, nowUnixMs } = input;
	const seen = { processId: probe.processId, bytes: probe.bytes, writtenAtUnixMs: probe.writtenAtUnixMs };
	if (input.waitingForDeveloper) { return { ...seen, lastActivityAtUnixMs: nowUnixMs }; }
	if (previous === undefined) {
		const written = Math.min(nowUnixMs, probe.writtenAtUnixMs);
		return { ...seen, lastActivityAtUnixMs: Math.max(input.startedAtUnixMs, written, input.mark?.lastActivityAtUnixMs ?? 0) };
	}
	const changed = previous.processId !== probe.processId || previous.bytes !== probe.bytes || previous.writtenAtUnixMs !== probe.writtenAtUnixMs;
	return { ...seen, lastActivityAtUnixMs: changed ? nowUnixMs : previous.lastActivityAtUnixMs };
}

export type StallStep = 'mark' | 'clear' | 'none';

/**
 * Mark a Run silent for at least its stall time (none when its stall time is 0); lift a mark once activity came
 * after the activity it recorded; otherwise nothing.
 */
export function stallStep(input: {
	readonly lastActivityAtUnixMs: number;
	readonly mark: Pick<RunStall, 'lastActivityAtUnixMs'> | undefined;
	readonly stallMs: number;
	readonly nowUnixMs: number;
}): StallStep {
	if (input.mark !== undefined) { return input.lastActivityAtUnixMs > input.mark.lastActivityAtUnixMs ? 'clear' : 'none'; }
	return input.stallMs > 0 && input.nowUnixMs - input.lastActivityAtUnixMs >= input.stallMs ? 'mark' : 'none';
}

/** "45 s", "12 min", "2 h 05 min" (rounded down). */
export function quietFor(ms: number): string {
	const seconds = Math.floor(Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000);
	if (seconds < 60) { return `${seconds} s`; }
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) { return `${minutes} min`; }
	const rest = minutes % 60;
	return `${Math.floor(minutes / 60)} h ${rest < 10 ? `0${rest}` : rest} min`;
}

/** The words every surface shows for a mark in force: "Stalled: no activity for 12 min" (never a failure word). */
export function stalledLabel(lastActivityAtUnixMs: number, nowUnixMs: number): string {
	return `Stalled: no activity for ${quietFor(nowUnixMs - lastActivityAtUnixMs)}`;
}
