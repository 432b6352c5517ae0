// The one readiness predicate, shared by manual dispatch, managed schedule
// admission and the `plan issue get` snapshot so they cannot drift. O(tasks + edges).
import type { BlockerReason, Checkpoint, Task } from '../model.js';

export interface Readiness {
	ready: boolean;
	/** '' exactly when ready. */
	blockerReason: BlockerReason | '';
}

export interface ReadinessOptions {
	/**
	 * The subject task of an active `task_settled` checkpoint. While it is `pending_acceptance` it is projected as
	 * completed and accepted for its dependents (schedule accepts it atomically), without changing what the
	 * snapshot shows for the task itself. See {@link projectedAcceptedTaskId}.
	 */
	projectAcceptedTaskId?: string;
}

/** A task is history once it was superseded (its row stays for audit; counts, lists and scheduling skip it). */
export function isSuperseded(task: Pick<Task, 'supersededAtUnixMs'>): boolean {
	return task.supersededAtUnixMs > 0;
}

type ReadinessTask = Pick<Task, 'taskId' | 'status' | 'agentTargetId' | 'dependencyTaskIds' | 'acceptanceState' | 'supersededAtUnixMs' | 'sortIndex'>;

/**
 * Whether a dependency satisfies an edge: it exists, is not superseded, is `completed`, and is accepted —
 * `user_accepted`, or `auto_checked` (what an auto-accepted task records on completion; a task with
 * autoAccept=false never gets it, so it needs the developer's or the source agent's acceptance).
 * Failed or canceled parents never satisfy an edge (manual issues use the same rule).
 * Identical to `satisfiesDependency` in readyIndex.ts.
 */
export function dependencySatisfied(dep: Pick<Task, 'status' | 'acceptanceState' | 'supersededAtUnixMs'> | undefined): boolean {
	return dep !== undefined && dep.supersededAtUnixMs === 0 && dep.status === 'completed'
		&& (dep.acceptanceState === 'user_accepted' || dep.acceptanceState === 'auto_checked');
}

/** The task to project as accepted for readiness: the subject of an active `task_settled` checkpoint. */
export function projectedAcceptedTaskId(activeCheckpoint: Pick<Checkpoint, 'kind' | 'status' | 'subjectTaskId'> | null | undefined): string | undefined {
	if (!activeCheckpoint || activeCheckpoint.status !== 'active' || activeCheckpoint.kind !== 'task_settled') { return undefined; }
	return activeCheckpoint.subjectTaskId || undefined;
}

function dependencyView(task: ReadinessTask | undefined, projectId: string | undefined): Pick<Task, 'status' | 'acceptanceState' | 'supersededAtUnixMs'> | undefined {
	if (task && task.taskId === projectId && task.status === 'pending_acceptance') {
		return { status: 'completed', acceptanceState: 'user_accepted', supersededAtUnixMs: task.supersededAtUnixMs };
	}
	return task;
}

/** The first blocker of one task, checked in the order superseded → not started → target → dependencies. */
export function blockerFor(task: ReadinessTask, byId: ReadonlyMap<string, ReadinessTask>, opts: ReadinessOptions = {}): BlockerReason | '' {
	if (isSuperseded(task)) { return 'task_superseded'; }
	if (task.status !== 'not_started') { return 'task_not_started'; }
	if (task.agentTargetId.trim() === '') { return 'missing_agent_target'; }
	for (const depId of task.dependencyTaskIds) {
		if (!dependencySatisfied(dependencyView(byId.get(depId), opts.projectAcceptedTaskId))) { return 'dependency_unsatisfied'; }
	}
	return '';
}

function indexById(tasks: readonly ReadinessTask[]): Map<string, ReadinessTask> {
	const byId = new Map<string, ReadinessTask>();
	for (const t of tasks) { byId.set(t.taskId, t); }
	return byId;
}

/** Readiness of every task given (superseded ones included: they read `task_superseded`). */
export function computeReadiness(tasks: readonly ReadinessTask[], opts: ReadinessOptions = {}): Map<string, Readiness> {
	const byId = indexById(tasks);
	const result = new Map<string, Readiness>();
	for (const t of tasks) {
		const blockerReason = blockerFor(t, byId, opts);
		result.set(t.taskId, { ready: blockerReason === '', blockerReason });
	}
	return result;
}

function compareDispatchOrder(a: ReadinessTask, b: ReadinessTask): number {
	return a.sortIndex - b.sortIndex || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

/** Ready active tasks, ordered by sortIndex then taskId (the order `readyTaskIds` and the dispatcher use). */
export function readyTaskIds(tasks: readonly ReadinessTask[], opts: ReadinessOptions = {}): string[] {
	const byId = indexById(tasks);
	const ready: ReadinessTask[] = [];
	let sorted = true;
	for (const t of tasks) {
		if (blockerFor(t, byId, opts) !== '') { continue; }
		if (sorted && ready.length > 0 && compareDispatchOrder(ready[ready.length - 1]!, t) > 0) { sorted = false; }
		ready.push(t);
	}
	if (!sorted) { ready.sort(compareDispatchOrder); }
	return ready.map((t) => t.taskId);
}
