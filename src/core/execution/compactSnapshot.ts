// The compact plan snapshot's rules: which tasks the source agent sees at a wake, and how much of each,
// so the answer stays flat in the graph's size. Pure; the Host reads the rows and maps the result.

/** Every bound of the compact snapshot. */
export const compactLimits = {
	/** Tasks in `tasks`. */
	tasks: 50,
	/** Ids in `readyTaskIds`. */
	readyTaskIds: 50,
	/** Active and pending checkpoints listed. */
	checkpoints: 50,
	/** Dependency ids per slim task. */
	dependencies: 20,
	/** Characters of a slim task's title. */
	titleChars: 160,
	/** Ready ids in the recovery hint's example schedule command (readyTaskIds has the list). */
	hintReadyIds: 10,
} as const;

export interface CompactSelectionInput {
	/** The active checkpoint's subject task ('' when it has none). */
	subjectTaskId: string;
	/** Running tasks, in backlog order. */
	runningTaskIds: readonly string[];
	/** Tasks written after the reader's revision, in backlog order. */
	changedTaskIds: readonly string[];
	/** The ready tasks the snapshot lists (already bounded), in backlog order. */
	readyTaskIds: readonly string[];
	limit?: number;
}

export interface CompactSelection {
	taskIds: string[];
	/** Tasks that qualified but did not fit. */
	omittedTaskCount: number;
}

/**
 * The tasks the agent acts on now, in order of precedence: the subject task, the running tasks, what changed since
 * it last read, then the listed ready tasks (their ids are in `readyTaskIds` anyway). Each task once.
 */
export function selectCompactTasks(input: CompactSelectionInput): CompactSelection {
	const limit = input.limit ?? compactLimits.tasks;
	const qualified = new Set<string>();
	for (const id of [input.subjectTaskId, ...input.runningTaskIds, ...input.changedTaskIds, ...input.readyTaskIds]) {
		if (id !== '') { qualified.add(id); }
	}
	const taskIds = [...qualified].slice(0, limit);
	return { taskIds, omittedTaskCount: qualified.size - taskIds.length };
}

/** A title cut to `compactLimits.titleChars` characters (the last one … when cut). */
export function clipTitle(title: string): string {
	const max = compactLimits.titleChars;
	return title.length > max ? `${title.slice(0, max - 1)}…` : title;
}

/** At most `compactLimits.dependencies` dependency ids, and how many more there are (0 when none). */
export function clipDependencies(ids: readonly string[]): { dependencyTaskIds: string[]; more: number } {
	const max = compactLimits.dependencies;
	return { dependencyTaskIds: ids.slice(0, max), more: Math.max(0, ids.length - max) };
}
