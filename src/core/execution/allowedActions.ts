// What the source agent may do now, as shown in `plan issue get`.
import type { Checkpoint, CheckpointKind, Execution, ExecutionStatus, PlanAction } from '../model.js';
import { terminalExecutionStatuses } from '../model.js';

export interface AllowedActionsInput {
	execution: Pick<Execution, 'status'>;
	/** The execution's active checkpoint, or null when none is active. */
	activeCheckpoint: Pick<Checkpoint, 'kind' | 'status'> | null;
	/** Some Run of this issue is `running`. */
	hasRunningRun: boolean;
	/** A `pending` checkpoint queued after the active one exists (see backlog.ts `hasLaterPending`). */
	hasPendingCheckpoint: boolean;
	/** `readyTaskIds` is non-empty. */
	anyTaskReady: boolean;
	dispatchPaused: boolean;
	/** Paused by the developer (their pause or stop): only they resume, so `resume` is not the source's action. */
	pausedByDeveloper?: boolean;
}

/**
 * Kinds that `acknowledge` may resolve (never initial scheduling, never Goal Review nor the developer's request for
 * changes at Goal Review). A task's `changes_requested` is acknowledgeable like `task_failed`: the task stays failed;
 * the developer's `task_accepted` like `task_settled`; `checks_failed` like `task_failed` (its result waits for the developer);
 * a `run_stalled` (its Run still runs) to wait for the Run.
 */
export const acknowledgeableKinds: readonly CheckpointKind[] = ['task_settled', 'task_failed', 'task_canceled', 'watchdog', 'changes_requested', 'task_accepted', 'checks_failed', 'run_stalled'];

/** Execution statuses in which `schedule` passes its fence. */
export const scheduleStatuses: readonly ExecutionStatus[] = ['awaiting_schedule', 'awaiting_main'];

export function isTerminalExecution(status: ExecutionStatus): boolean {
	return terminalExecutionStatuses.includes(status);
}

/**
 * Acknowledge resolves a settlement or watchdog checkpoint without new work. It is legal only while other work
 * can still produce the next checkpoint — a Run is running, or a later checkpoint is pending — and never during
 * Goal Review. (Otherwise acknowledging would strand the execution with nothing left to wake it.)
 */
export function canAcknowledge(input: Pick<AllowedActionsInput, 'execution' | 'activeCheckpoint' | 'hasRunningRun' | 'hasPendingCheckpoint'>): boolean {
	const { execution, activeCheckpoint } = input;
	if (!activeCheckpoint || activeCheckpoint.status !== 'active') { return false; }
	if (isTerminalExecution(execution.status) || execution.status === 'pending_goal_review') { return false; }
	if (!acknowledgeableKinds.includes(activeCheckpoint.kind)) { return false; }
	return input.hasRunningRun || input.hasPendingCheckpoint;
}

/**
 * The legal `plan issue …` actions, in a stable order:
 * - terminal execution (orphaned_source, completed, archiving, archived) → [];
 * - `all_tasks_terminal` → complete, mutate, stop (plus schedule when a mutation at Goal Review made a task
 *   ready and the execution is back in `awaiting_main`, since schedule's fence then admits it);
 * - any other active checkpoint → mutate, schedule (if some task is ready and the status admits it), stop, and
 *   acknowledge under {@link canAcknowledge};
 * - no active checkpoint (Runs in progress) → [];
 * - paused: `schedule` is removed and `resume` appended (also without an active checkpoint: resume is not fenced),
 *   unless the developer paused it (then only they resume).
 */
export function allowedActions(input: AllowedActionsInput): PlanAction[] {
	const { execution, activeCheckpoint } = input;
	if (isTerminalExecution(execution.status)) { return []; }
	const actions: PlanAction[] = [];
	if (activeCheckpoint && activeCheckpoint.status === 'active') {
		const canSchedule = input.anyTaskReady && scheduleStatuses.includes(execution.status);
		if (activeCheckpoint.kind === 'all_tasks_terminal') {
			actions.push('complete', 'mutate');
			if (canSchedule) { actions.push('schedule'); }
			actions.push('stop');
		} else {
			actions.push('mutate');
			if (canSchedule) { actions.push('schedule'); }
			actions.push('stop');
			if (canAcknowledge(input)) { actions.push('acknowledge'); }
		}
	}
	if (!input.dispatchPaused) { return actions; }
	const unscheduled = actions.filter((a) => a !== 'schedule');
	return input.pausedByDeveloper === true ? unscheduled : [...unscheduled, 'resume'];
}
