// Human labels for the panel: durations, token counts and the words for each enum value. Pure.
import type { BlockerReason, CheckpointKind, ExecutionStatus, StopAnswer, TaskStatus, TranscriptEntryDto } from './snapshotTypes.js';

/** "0s", "45s", "2m 03s", "1h 02m 03s" (the same shape as the Host's outcome labels). */
export function formatDuration(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	const pad = (n: number): string => String(n).padStart(2, '0');
	if (h > 0) { return `${h}h ${pad(m)}m ${pad(s)}s`; }
	if (m > 0) { return `${m}m ${pad(s)}s`; }
	return `${s}s`;
}

/** One formatter for every count (`toLocaleString` builds a new one per call: milliseconds per snapshot at 1,000 tasks). */
const countFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
	return countFormat.format(n);
}

/** A Host-provided USD figure: "$1.20", small ones to two significant digits ("$0.00035") so they never read $0.00. */
export function formatUsd(usd: number): string {
	if (usd !== 0 && Math.abs(usd) < 0.01) { return `$${usd.toPrecision(2)}`; }
	return `$${usd.toFixed(2)}`;
}

/** Wall-clock time of day in UTC ("14:03:05Z"): stable across machines and unambiguous in a shared screenshot. */
export function formatClock(unixMs: number): string {
	if (unixMs <= 0) { return '—'; }
	return `${new Date(unixMs).toISOString().slice(11, 19)}Z`;
}

export const taskStatusLabel: Readonly<Record<TaskStatus, string>> = {
	not_started: 'Not started',
	running: 'Running',
	pending_acceptance: 'Awaiting acceptance',
	completed: 'Completed',
	failed: 'Failed',
	canceled: 'Canceled',
};

export const executionStatusLabel: Readonly<Record<ExecutionStatus, string>> = {
	awaiting_schedule: 'Awaiting schedule',
	running: 'Running',
	awaiting_main: 'Waiting for the source agent',
	pending_goal_review: 'Goal review',
	orphaned_source: 'Source session gone',
	completed: 'Completed',
	archiving: 'Stopping',
	archived: 'Stopped',
};

export const checkpointKindLabel: Readonly<Record<CheckpointKind, string>> = {
	initial_schedule: 'Initial schedule',
	task_settled: 'Task settled',
	task_failed: 'Task failed',
	task_canceled: 'Task canceled',
	watchdog: 'Watchdog',
	all_tasks_terminal: 'All tasks terminal',
	changes_requested: 'Changes requested',
	goal_changes_requested: 'Goal changes requested',
	task_accepted: 'Accepted by you',
	checks_failed: 'Checks failed',
	run_stalled: 'Run stalled',
};

export const blockerLabel: Readonly<Record<BlockerReason, string>> = {
	task_superseded: 'Superseded: replaced by a newer task',
	task_not_started: 'Not started yet',
	missing_agent_target: 'No agent target is set for this task',
	dependency_unsatisfied: 'Waiting for a dependency to complete and be accepted',
};

export const stopAnswerLabel: Readonly<Record<StopAnswer, string>> = {
	'took': 'took effect',
	'end-owed': 'took effect (the process is being ended)',
	'declined': 'declined: the agent could not be interrupted',
	'interrupt-unconfirmed': 'not confirmed: the interrupt got no answer',
	'no-effect': 'no effect: nothing was running',
};

/** What kind of transcript line it is, in words. */
export const transcriptKindLabel: Readonly<Record<TranscriptEntryDto['kind'], string>> = {
	assistant: 'Agent', tool: 'Ran', edit: 'Edited', error: 'Error', user: 'Sent', result: 'Result', output: 'Output', stderr: 'stderr',
};

export function stopReasonLabel(reason: 'person' | 'host' | 'evict'): string {
	return reason === 'person' ? 'you' : reason === 'host' ? 'Tutti' : 'Tutti (evicted)';
}

/** At most `max` characters (code points), with an ellipsis when cut. */
export function truncate(s: string, max: number): string {
	const flat = s.replace(/\s+/g, ' ').trim();
	// Without surrogate pairs a character is one UTF-16 unit: no need to split the string into code points.
	if (!/[\uD800-\uDFFF]/.test(flat)) { return flat.length <= max ? flat : `${flat.slice(0, Math.max(1, max - 1))}…`; }
	const chars = Array.from(flat);
	return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/**
 * At most `max` characters, cut in the middle when longer ("Migrate the users … orders table"): plans name tasks that
 * differ at the end as often as at the start, so both ends stay. Whitespace is flattened like `truncate`.
 */
export function middleTruncate(s: string, max: number): string {
	const flat = s.replace(/\s+/g, ' ').trim();
	const chars = /[\uD800-\uDFFF]/.test(flat) ? Array.from(flat) : null;
	const length = chars ? chars.length : flat.length;
	if (length <= max) { return flat; }
	const keep = Math.max(2, max - 1);
	const head = Math.ceil(keep * 0.55);
	const tail = keep - head;
	const part = (from: number, to: number): string => (chars ? chars.slice(from, to).join('') : flat.slice(from, to));
	return `${part(0, head).trimEnd()}…${part(length - tail, length).trimStart()}`;
}
