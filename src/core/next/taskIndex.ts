// An issue's tasks as the attention and "what is owed next" rules read them: the live ones by status, by id, and the
// one graph question the review rule asks, derived once per tasks array. The Host keeps an issue's array for as long
// as none of its tasks changes (src/store/taskCache.ts), so the many reads in between (the board, `issue list`,
// every wait) cost the few tasks they show, not the whole graph. A memo of pure functions: the arrays are never
// changed after they are read.
import { notStartedCanMove } from '../execution/reviewOwed.js';
import type { TaskStatus } from '../model.js';
import type { TaskFacts } from './facts.js';

export interface TaskIndex {
	/** Every task, superseded history included, by id. */
	readonly byId: ReadonlyMap<string, TaskFacts>;
	/** The tasks that are not superseded, in backlog order. */
	readonly live: readonly TaskFacts[];
	/** The live tasks with this status, in backlog order. */
	withStatus(status: TaskStatus): readonly TaskFacts[];
	/** The tasks (superseded ones too) whose latest Run the attention rule may show: one ran and did not complete. */
	readonly withRunShown: readonly TaskFacts[];
	/** The task's place in backlog order (-1: not a task of the issue). */
	position(taskId: string): number;
	/** The newest `updatedAtUnixMs` of any task (0: no tasks). */
	readonly lastUpdatedAtUnixMs: number;
	/** A live not-started task can still move without the developer's review (the review rule's graph question). */
	notStartedCanMove(): boolean;
}

const noTasks: readonly TaskFacts[] = [];
const indexes = new WeakMap<readonly TaskFacts[], TaskIndex>();

function buildIndex(tasks: readonly TaskFacts[]): TaskIndex {
	const byId = new Map<string, TaskFacts>();
	const positions = new Map<string, number>();
	const live: TaskFacts[] = [];
	const byStatus = new Map<TaskStatus, TaskFacts[]>();
	const withRunShown: TaskFacts[] = [];
	let lastUpdatedAtUnixMs = 0;
	tasks.forEach((t, i) => {
		byId.set(t.taskId, t);
		positions.set(t.taskId, i);
		lastUpdatedAtUnixMs = Math.max(lastUpdatedAtUnixMs, t.updatedAtUnixMs);
		if ((t.latestRunId ?? '') !== '' && t.status !== 'completed') { withRunShown.push(t); }
		if (t.superseded) { return; }
		live.push(t);
		const bucket = byStatus.get(t.status);
		if (bucket === undefined) { byStatus.set(t.status, [t]); } else { bucket.push(t); }
	});
	let canMove: boolean | undefined;
	return {
		byId, live, withRunShown, lastUpdatedAtUnixMs,
		withStatus: (status) => byStatus.get(status) ?? noTasks,
		position: (taskId) => positions.get(taskId) ?? -1,
		notStartedCanMove: () => (canMove ??= notStartedCanMove(live)),
	};
}

/** The index of this tasks array, built on first use and kept while the array lives. */
export function taskIndex(tasks: readonly TaskFacts[]): TaskIndex {
	let index = indexes.get(tasks);
	if (index === undefined) {
		index = buildIndex(tasks);
		indexes.set(tasks, index);
	}
	return index;
}
