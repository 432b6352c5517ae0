// A task's Runs as the panel draws them: outcome, duration, usage and Stop notes, and the latest Run that leads the
// detail. Whether a Run can be stopped and whether a person's Stop is ending it are the Host's (RunDto `controls`,
// `stopping`); a Run has settled once the Host gives it an outcome label. Pure.
import { formatClock, formatCount, formatDuration, formatUsd, stopAnswerLabel, stopReasonLabel, taskStatusLabel } from './format.js';
import type { RunDto, TaskStatus } from './snapshotTypes.js';

export interface StopNoteModel {
	readonly eventId: string;
	readonly text: string;
}

export interface RunModel {
	readonly runId: string;
	readonly status: TaskStatus;
	readonly statusLabel: string;
	/** The Host's outcome label when settled; "Running for 1m 02s" / "Starting" / "Stopping…" otherwise. */
	readonly outcomeLabel: string;
	/** The Host offers Stop (the Run has not settled). */
	readonly canStop: boolean;
	/** A person's Stop is in force (the Host's word): drawn as "Stopping…", its button reads "Stop again". */
	readonly stopping: boolean;
	readonly durationLabel: string;
	readonly agentTargetId: string;
	readonly summary: string;
	readonly errorMessage: string;
	readonly usageLabel: string;
	readonly stopNotes: readonly StopNoteModel[];
	readonly executionDirectory: string;
}

export interface LatestRunModel {
	readonly runId: string;
	readonly outcomeLabel: string;
	readonly status: TaskStatus;
	/** "Started 14:02:11Z · ended 14:04:13Z" (or "· still running"). */
	readonly timesLabel: string;
	readonly usageLabel: string;
	readonly summary: string;
	readonly errorMessage: string;
}

/** The Host labels a Run's outcome once it has settled (null while it starts or runs). */
export function hasSettled(r: RunDto): boolean {
	return r.outcomeLabel !== null;
}

/** The task's Runs, newest first. */
export function runsOfTask(runs: readonly RunDto[], taskId: string): RunDto[] {
	return runs.filter((r) => r.taskId === taskId).sort((a, b) => b.createdAtUnixMs - a.createdAtUnixMs || (a.runId < b.runId ? 1 : -1));
}

export function usageLabel(runs: readonly RunDto[]): string {
	let input = 0, output = 0, cacheRead = 0, cacheWrite = 0;
	for (const r of runs) {
		input += r.usage.inputTokens; output += r.usage.outputTokens;
		cacheRead += r.usage.cacheReadTokens; cacheWrite += r.usage.cacheWriteTokens;
	}
	if (input + output + cacheRead + cacheWrite === 0) { return 'No usage recorded'; }
	// One Run: its cost as the Host computed it (the agent's figure, else its model's price; null: unknown).
	const cost = runs.length === 1 ? ` · ${runs[0]!.costUsd === null ? 'cost unknown' : formatUsd(runs[0]!.costUsd)}` : '';
	return `${formatCount(input)} in · ${formatCount(output)} out · ${formatCount(cacheRead)} cache read · ${formatCount(cacheWrite)} cache write tokens${cost}`;
}

function outcomeLabel(r: RunDto): string {
	if (r.outcomeLabel !== null) { return r.outcomeLabel; }
	if (r.stopping) { return `Stopping… (running for ${formatDuration(r.durationMs)})`; }
	return r.status === 'running' ? `Running for ${formatDuration(r.durationMs)}` : 'Starting';
}

/** The Run's error, unless its outcome label already ends with it ("Failed after 2s — exited with code 3"). */
function errorNotInLabel(r: RunDto, label: string): string {
	const error = r.errorMessage.trim();
	return error !== '' && !error.includes('\n') && label.endsWith(error) ? '' : r.errorMessage;
}

export function runModel(r: RunDto): RunModel {
	return {
		runId: r.runId,
		status: r.status,
		statusLabel: taskStatusLabel[r.status],
		outcomeLabel: outcomeLabel(r),
		canStop: r.controls.stop,
		stopping: r.stopping,
		durationLabel: formatDuration(r.durationMs),
		agentTargetId: r.agentTargetId,
		summary: r.summary,
		errorMessage: errorNotInLabel(r, outcomeLabel(r)),
		usageLabel: usageLabel([r]),
		stopNotes: r.stopNotes.map((n) => ({
			eventId: n.eventId,
			text: `Stop by ${stopReasonLabel(n.reason)}: ${n.answer ? stopAnswerLabel[n.answer] : 'no answer yet'}`,
		})),
		executionDirectory: r.executionDirectory,
	};
}

export function latestRunModel(r: RunDto | undefined): LatestRunModel | null {
	if (!r) { return null; }
	const ended = r.completedAtUnixMs > 0 ? `ended ${formatClock(r.completedAtUnixMs)}` : hasSettled(r) ? 'end not recorded' : 'still running';
	const started = r.startedAtUnixMs > 0 ? `Started ${formatClock(r.startedAtUnixMs)}` : 'Not started yet';
	return {
		runId: r.runId, outcomeLabel: outcomeLabel(r), status: r.status,
		timesLabel: r.startedAtUnixMs > 0 ? `${started} · ${ended}` : started,
		usageLabel: usageLabel([r]), summary: r.summary, errorMessage: errorNotInLabel(r, outcomeLabel(r)),
	};
}

/** What the list view shows of a task's Runs: how long the latest took (or runs), and what all of them cost. */
export interface TaskRunFacts {
	readonly durationMs: number;
	/** USD of the Runs whose cost the Host knows. */
	readonly costUsd: number;
	/** Some Run's cost is unknown (a model without a price): the sum is a lower bound. */
	readonly costUnknown: boolean;
}

/** Each task's Run facts (tasks without a Run are absent). */
export function taskRunFacts(runs: readonly RunDto[]): Map<string, TaskRunFacts> {
	const latest = new Map<string, RunDto>();
	const cost = new Map<string, { usd: number; unknown: boolean }>();
	for (const r of runs) {
		const known = latest.get(r.taskId);
		if (known === undefined || r.createdAtUnixMs > known.createdAtUnixMs || (r.createdAtUnixMs === known.createdAtUnixMs && r.runId > known.runId)) { latest.set(r.taskId, r); }
		const c = cost.get(r.taskId) ?? { usd: 0, unknown: false };
		cost.set(r.taskId, r.costUsd === null ? { ...c, unknown: true } : { ...c, usd: c.usd + r.costUsd });
	}
	const out = new Map<string, TaskRunFacts>();
	for (const [taskId, r] of latest) {
		const c = cost.get(taskId)!;
		out.set(taskId, { durationMs: r.durationMs, costUsd: c.usd, costUnknown: c.unknown });
	}
	return out;
}

/** "$0.42", "$0.42 + unknown", "unknown", or "—" without a Run. */
export function costLabel(facts: TaskRunFacts | undefined): string {
	if (facts === undefined) { return '—'; }
	if (facts.costUnknown) { return facts.costUsd > 0 ? `${formatUsd(facts.costUsd)} + unknown` : 'unknown'; }
	return formatUsd(facts.costUsd);
}
