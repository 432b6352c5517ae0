// When the developer's review is the only step owed on a managed execution (autoAccept off). Only the
// developer accepts a task in `pending_acceptance`; while every task that could still run waits (directly or through
// other waiting tasks) on such a task, nothing is ready, no Run runs and no later checkpoint is queued, the source
// agent has nothing to decide: "what next" for it is the bounded wait for that review, the watchdog spends no Turn,
// and the developer's decision becomes the source agent's next checkpoint at once.
import type { CheckpointKind, ExecutionStatus, TaskStatus } from '../model.js';

export interface ReviewOwedInput {
	executionStatus: ExecutionStatus;
	/** The active checkpoint, or null when none is active. */
	activeCheckpoint: { kind: CheckpointKind | string; subjectTaskId: string } | null;
	/** A `pending` checkpoint is queued (the agent would owe an acknowledge to reach it). */
	hasPendingCheckpoint: boolean;
	tasks: readonly { taskId: string; status: TaskStatus; superseded: boolean; dependencyTaskIds: readonly string[] }[];
}

/** Execution statuses in which Runs were scheduled and the source agent waits between checkpoints. */
const liveStatuses: readonly ExecutionStatus[] = ['running', 'awaiting_main'];

/**
 * Active checkpoints that ask the source agent for nothing once its subject is settled: a settlement, the developer's
 * acceptance, a watchdog, a result whose checks failed (in review: the agent may rework it, or leave it to the
 * developer). (A failure, a request for changes, initial scheduling and Goal Review always ask for a step.)
 */
export const reviewWaitCheckpointKinds: readonly string[] = ['task_settled', 'task_accepted', 'watchdog', 'checks_failed'];

type RuleTask = Omit<ReviewOwedInput['tasks'][number], 'dependencyTaskIds'> & { readonly dependencyTaskIds?: readonly string[] };

/** Whether a not-started task waits on a task in review, directly or through other waiting tasks. */
function waitsOnReview(task: RuleTask, byId: ReadonlyMap<string, RuleTask>, memo: Map<string, boolean>): boolean {
	const known = memo.get(task.taskId);
	if (known !== undefined) { return known; }
	memo.set(task.taskId, false); // a cycle never waits on review
	const waits = (task.dependencyTaskIds ?? []).some((id) => {
		const dep = byId.get(id);
		if (dep === undefined || dep.superseded) { return false; }
		if (dep.status === 'pending_acceptance') { return true; }
		return dep.status === 'not_started' && waitsOnReview(dep, byId, memo);
	});
	memo.set(task.taskId, waits);
	return waits;
}

/** Some live not-started task does not wait (directly or through other waiting tasks) on a task in review. */
export function notStartedCanMove(live: readonly RuleTask[]): boolean {
	const byId = new Map(live.map((t) => [t.taskId, t]));
	const memo = new Map<string, boolean>();
	return live.some((t) => t.status === 'not_started' && !waitsOnReview(t, byId, memo));
}

/** What the rule asks of the live tasks (a caller that keeps an index of them answers without walking them all). */
export interface LiveTaskAnswers {
	readonly anyRunning: boolean;
	/** The live tasks in review, in backlog order. */
	readonly inReview: readonly string[];
	/** Asked only when nothing runs and a task is in review. */
	notStartedCanMove(): boolean;
}

/** reviewOnlyOwed, from the answers about the live tasks instead of the tasks. */
export function reviewOnlyOwedFrom(input: Omit<ReviewOwedInput, 'tasks'>, live: LiveTaskAnswers): string[] {
	if (!liveStatuses.includes(input.executionStatus) || input.hasPendingCheckpoint) { return []; }
	if (input.activeCheckpoint !== null && !reviewWaitCheckpointKinds.includes(input.activeCheckpoint.kind)) { return []; }
	if (live.anyRunning || live.inReview.length === 0) { return []; }
	return live.notStartedCanMove() ? [] : [...live.inReview];
}

/** The tasks in review when the developer's decision on them is the only step owed; [] when anyone else can move. */
export function reviewOnlyOwed(input: ReviewOwedInput): string[] {
	const live = input.tasks.filter((t) => !t.superseded);
	return reviewOnlyOwedFrom(input, {
		anyRunning: live.some((t) => t.status === 'running'),
		inReview: live.filter((t) => t.status === 'pending_acceptance').map((t) => t.taskId),
		notStartedCanMove: () => notStartedCanMove(live),
	});
}

/** The one task to await: the active checkpoint's subject when it is in review, else the only task in review. */
export function reviewToAwait(input: Pick<ReviewOwedInput, 'activeCheckpoint'>, inReview: readonly string[]): string | undefined {
	const subject = input.activeCheckpoint?.subjectTaskId ?? '';
	if (subject !== '' && inReview.includes(subject)) { return subject; }
	return inReview.length === 1 ? inReview[0] : undefined;
}
