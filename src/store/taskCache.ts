// The Host's in-memory view of an issue's tasks for reads that must stay flat in the graph's size (the compact
// `plan issue get`): the few columns readiness and the slim task need, and the ready set (core ReadyIndex), brought
// up to date at each read from the rows written since the view's change revision (an indexed query, O(changes)).
// A deleted row, a reload of the store from disk, or a large batch of changes rebuilds the issue's view from the rows.
import { ReadyIndex } from '../core/graph/readyIndex.js';
import type { AcceptanceState, Task, TaskStatus } from '../core/model.js';
import { issueRepository } from './repositories/issueRepository.js';
import { num, str } from './repositories/rowValues.js';
import { dependenciesOf, taskRepository } from './repositories/taskRepository.js';
import type { Reader, Row } from './tx.js';

/** The columns of a task the view keeps (no content: it can be large and no flat read shows it). */
export type CachedTask = Pick<Task, 'issueId' | 'taskId' | 'title' | 'status' | 'sortIndex' | 'agentTargetId' | 'dependencyTaskIds'
	| 'acceptanceState' | 'latestRunId' | 'supersededAtUnixMs' | 'supersededByTaskId' | 'updatedAtUnixMs'>;

/** More changed rows than this since the last read: read the issue's rows again instead of one by one. */
const rebuildAbove = 256;

const columns = 'issue_id, task_id, title, status, sort_index, agent_target_id, acceptance_state, latest_run_id, superseded_at, superseded_by_task_id, updated_at';

function cachedFromRow(row: Row, dependencyTaskIds: string[]): CachedTask {
	return {
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		title: str(row, 'title'),
		status: str(row, 'status') as TaskStatus,
		sortIndex: num(row, 'sort_index'),
		agentTargetId: str(row, 'agent_target_id'),
		dependencyTaskIds,
		acceptanceState: str(row, 'acceptance_state') as AcceptanceState,
		latestRunId: str(row, 'latest_run_id'),
		supersededAtUnixMs: num(row, 'superseded_at'),
		supersededByTaskId: str(row, 'superseded_by_task_id'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

/** One issue's tasks as of `revision`: every task by id (history included) and the ready set. */
export class IssueTaskView {
	readonly byId = new Map<string, CachedTask>();
	readonly ready: ReadyIndex;
	/** The tasks in backlog order, and each one's place in it; undefined until asked after a task was added or moved. */
	#order: CachedTask[] | undefined;
	readonly #place = new Map<string, number>();
	/** Values derived from the tasks by name, each with the key it was derived for; cleared when a task changes. */
	readonly #derived = new Map<string, { key: string; value: unknown }>();

	constructor(
		tasks: readonly CachedTask[],
		/** The issue's task change revision the view reflects. */
		public revision: number,
		/** The issue's deleted-row count the view reflects. */
		readonly deleted: number,
		/** The store's reload epoch the view was read at. */
		readonly epoch: number,
	) {
		for (const t of tasks) { this.byId.set(t.taskId, t); }
		this.ready = new ReadyIndex(tasks);
	}

	/** Every task (superseded history included) in backlog order (sortIndex, then taskId), as a read of every row lists them. */
	ordered(): readonly CachedTask[] {
		if (this.#order === undefined) {
			this.#order = [...this.byId.values()].sort((a, b) => a.sortIndex - b.sortIndex || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
			this.#place.clear();
			this.#order.forEach((t, i) => this.#place.set(t.taskId, i));
		}
		return this.#order;
	}

	/**
	 * A value derived from the tasks in backlog order, kept until a task changes or it is asked with another `key`
	 * (what else it was derived from): the same value, so what is derived from it in turn can be kept too.
	 */
	derived<T>(name: string, key: string, derive: (ordered: readonly CachedTask[]) => T): T {
		const known = this.#derived.get(name);
		if (known !== undefined && known.key === key) { return known.value as T; }
		const value = derive(this.ordered());
		this.#derived.set(name, { key, value });
		return value;
	}

	upsert(task: CachedTask): void {
		this.#derived.clear();
		const before = this.byId.get(task.taskId);
		this.byId.set(task.taskId, task);
		this.ready.upsert(task);
		const at = this.#place.get(task.taskId);
		if (this.#order !== undefined && before !== undefined && at !== undefined && before.sortIndex === task.sortIndex) {
			this.#order[at] = task;
		} else {
			this.#order = undefined;
		}
	}
}

function readView(r: Reader, issueId: string, epoch: number): IssueTaskView {
	const revision = taskRepository.taskRevision(r, issueId);
	const deleted = issueRepository.deletedTasks(r, issueId);
	const deps = dependenciesOf(r, issueId);
	const tasks = r.all(`SELECT ${columns} FROM tasks WHERE issue_id = ? ORDER BY sort_index, task_id`, [issueId])
		.map((row) => cachedFromRow(row, deps.get(str(row, 'task_id')) ?? []));
	return new IssueTaskView(tasks, revision, deleted, epoch);
}

/** Views of the issues read so far, each brought up to date when read. */
export class TaskCache {
	readonly #views = new Map<string, IssueTaskView>();

	/** The issue's view as of the data `r` reads; `epoch` changes whenever the store's data was replaced wholesale. */
	view(r: Reader, issueId: string, epoch: number): IssueTaskView {
		const known = this.#views.get(issueId);
		const revision = taskRepository.taskRevision(r, issueId);
		if (known && known.epoch === epoch && known.deleted === issueRepository.deletedTasks(r, issueId) && known.revision <= revision) {
			if (known.revision === revision) { return known; }
			const changed = r.all(`SELECT ${columns} FROM tasks WHERE issue_id = ? AND change_revision > ? LIMIT ?`, [issueId, known.revision, rebuildAbove + 1]);
			if (changed.length <= rebuildAbove) {
				for (const row of changed) {
					const taskId = str(row, 'task_id');
					const deps = r.all('SELECT depends_on_task_id FROM task_dependencies WHERE issue_id = ? AND task_id = ? ORDER BY position', [issueId, taskId])
						.map((d) => str(d, 'depends_on_task_id'));
					known.upsert(cachedFromRow(row, deps));
				}
				known.revision = revision;
				return known;
			}
		}
		const view = readView(r, issueId, epoch);
		this.#views.set(issueId, view);
		return view;
	}

	/** A view read now and not kept (inside a transaction, whose writes may still roll back). */
	static uncached(r: Reader, issueId: string): IssueTaskView {
		return readView(r, issueId, -1);
	}
}
