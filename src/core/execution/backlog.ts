// The ordered checkpoint backlog: sequences, oldest-first promotion with revision
// rebinding, settlement kinds, and the `all_tasks_terminal` singleton with its rearm (fix #1918).
import type { Checkpoint, CheckpointKind, CheckpointStatus, ExecutionStatus, Run, RunOutcome, RunStatus, Task } from '../model.js';
import { isTerminalExecution } from './allowedActions.js';

type Seq = Pick<Checkpoint, 'sequence'>;

/** The sequence for the next checkpoint of an execution: max + 1 (1 for the first). Sequences are never reused. */
export function nextSequence(checkpoints: readonly Seq[]): number {
	let max = 0;
	for (const c of checkpoints) { if (c.sequence > max) { max = c.sequence; } }
	return max + 1;
}

/** The pending checkpoint to promote next: the lowest sequence. null when the backlog is empty. */
export function oldestPending<C extends Pick<Checkpoint, 'status' | 'sequence'>>(checkpoints: readonly C[]): C | null {
	let oldest: C | null = null;
	for (const c of checkpoints) {
		if (c.status === 'pending' && (oldest === null || c.sequence < oldest.sequence)) { oldest = c; }
	}
	return oldest;
}

/** A pending checkpoint exists after `active` (the acknowledge backlog rule). */
export function hasLaterPending(checkpoints: readonly Pick<Checkpoint, 'status' | 'sequence'>[], active: Pick<Checkpoint, 'sequence'> | null): boolean {
	return checkpoints.some((c) => c.status === 'pending' && (active === null || c.sequence > active.sequence));
}

/**
 * The promotion both schedule and acknowledge perform after resolving the active checkpoint: the oldest pending
 * checkpoint becomes active and is REBOUND to the execution's current revision (never left on the revision it was
 * queued at — that strands the source agent behind its own fence). Returns the promoted copy, or null.
 */
export function promoteOldestPending<C extends Pick<Checkpoint, 'status' | 'sequence' | 'graphRevision' | 'updatedAtUnixMs'>>(
	checkpoints: readonly C[], currentGraphRevision: number, nowUnixMs: number,
): C | null {
	const next = oldestPending(checkpoints);
	if (!next) { return null; }
	return { ...next, status: 'active' satisfies CheckpointStatus, graphRevision: currentGraphRevision, updatedAtUnixMs: nowUnixMs };
}

/** Settlement checkpoint kind for a settled Run's status (or outcome); null when the Run has not settled. */
export function settlementKindFor(statusOrOutcome: RunStatus | RunOutcome): Extract<CheckpointKind, 'task_settled' | 'task_failed' | 'task_canceled'> | null {
	switch (statusOrOutcome) {
		case 'completed':
		case 'pending_acceptance':
		case 'success': return 'task_settled';
		case 'failed':
		case 'failure': return 'task_failed';
		case 'canceled':
		case 'cancellation': return 'task_canceled';
		default: return null;
	}
}

/** The kinds of a Run's settlement checkpoint (`checks_failed`: it reported success, its checks failed). */
export const settlementKinds: readonly CheckpointKind[] = ['task_settled', 'task_failed', 'task_canceled', 'checks_failed'];

/** Settlement of a Run creates no checkpoint in a terminal execution (orphaned_source, completed, archiving, archived). */
export function settlementSuppressed(status: ExecutionStatus): boolean {
	return isTerminalExecution(status);
}

/**
 * Whether settling this Run should (re)establish the `all_tasks_terminal` boundary: at least one active task, no
 * active task `not_started` or `running`, and every settled Run (completed, pending_acceptance, failed, canceled)
 * already has its settlement checkpoint (matched by subjectRunId). Superseded tasks are ignored; Runs of
 * superseded tasks still count (their settlement must be reviewed first).
 */
export function shouldCreateTerminalCheckpoint(input: {
	tasks: readonly Pick<Task, 'status' | 'supersededAtUnixMs'>[];
	runs: readonly Pick<Run, 'runId' | 'status'>[];
	checkpoints: readonly Pick<Checkpoint, 'kind' | 'subjectRunId'>[];
}): boolean {
	let activeTasks = 0;
	for (const t of input.tasks) {
		if (t.supersededAtUnixMs > 0) { continue; }
		activeTasks++;
		if (t.status === 'not_started' || t.status === 'running') { return false; }
	}
	if (activeTasks === 0) { return false; }
	const settled = new Set<string>();
	for (const c of input.checkpoints) {
		if (settlementKinds.includes(c.kind) && c.subjectRunId) { settled.add(c.subjectRunId); }
	}
	return input.runs.every((r) => settlementKindFor(r.status) === null || settled.has(r.runId));
}

/**
 * What to do with the singleton terminal checkpoint once {@link shouldCreateTerminalCheckpoint} holds:
 * - none exists → `create` (status pending, sequence = nextSequence, current revision, requiresGoalReview);
 * - `superseded` (a rework after it was queued made it stale) → `rearm`: back to pending with sequence =
 *   nextSequence (after the replacement's settlement) and the current revision — never treat the old row as
 *   current, or the replacement strands in pending_acceptance;
 * - `resolved` → `rearm` as well: a resolved singleton in a live execution means follow-up work was scheduled
 *   from Goal Review (schedule resolves the active checkpoint), so the new work needs a fresh Goal Review.
 *   Tutti itself leaves it alone, which strands exactly like #1918. (`complete` also resolves it, but then the
 *   execution is completed and settlement is suppressed — pass `executionStatus` to make that explicit);
 * - `pending` or `active` → `none`: it is already queued / current (promotion rebinds its revision);
 * - `canceled` → `none`: only archiving cancels it, and archived executions take no new checkpoints.
 * A terminal `executionStatus` always yields `none`.
 */
export function terminalCheckpointAction(existing?: Pick<Checkpoint, 'status'> | null, executionStatus?: ExecutionStatus): 'create' | 'rearm' | 'none' {
	if (executionStatus !== undefined && settlementSuppressed(executionStatus)) { return 'none'; }
	if (!existing) { return 'create'; }
	switch (existing.status) {
		case 'superseded':
		case 'resolved': return 'rearm';
		case 'pending':
		case 'active':
		case 'canceled': return 'none';
	}
}

/**
 * The rows a graph mutation to `newGraphRevision` supersedes: pending `all_tasks_terminal` checkpoints bound to an
 * older revision (the graph they summarized no longer exists).
 */
export function staleTerminalCheckpointIds(checkpoints: readonly Pick<Checkpoint, 'checkpointId' | 'kind' | 'status' | 'graphRevision'>[], newGraphRevision: number): string[] {
	return checkpoints
		.filter((c) => c.kind === 'all_tasks_terminal' && c.status === 'pending' && c.graphRevision < newGraphRevision)
		.map((c) => c.checkpointId);
}
