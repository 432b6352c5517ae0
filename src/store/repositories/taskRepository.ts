// Tasks and their dependency edges. History is never deleted (superseded rows stay), except for
// `issue task delete` on a manual issue's not-started task, which the issue service guards.
import type { AcceptanceState, Task, TaskStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { bool, flag, num, str } from './rowValues.js';

function taskFromRow(row: Row, dependencyTaskIds: string[]): Task {
	return {
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		title: str(row, 'title'),
		content: str(row, 'content'),
		status: str(row, 'status') as TaskStatus,
		sortIndex: num(row, 'sort_index'),
		agentTargetId: str(row, 'agent_target_id'),
		modelPlanId: str(row, 'model_plan_id'),
		model: str(row, 'model'),
		permissionModeId: str(row, 'permission_mode_id'),
		reasoningEffort: str(row, 'reasoning_effort'),
		executionDirectory: str(row, 'execution_directory'),
		dependencyTaskIds,
		parallelizable: bool(row, 'parallelizable'),
		autoAccept: bool(row, 'auto_accept'),
		acceptanceState: str(row, 'acceptance_state') as AcceptanceState,
		latestRunId: str(row, 'latest_run_id'),
		supersededAtUnixMs: num(row, 'superseded_at'),
		supersededByTaskId: str(row, 'superseded_by_task_id'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

/** Every task's dependencies in the issue, in their recorded order, by task id. */
export function dependenciesOf(r: Reader, issueId: string): Map<string, string[]> {
	const deps = new Map<string, string[]>();
	for (const row of r.all('SELECT task_id, depends_on_task_id FROM task_dependencies WHERE issue_id = ? ORDER BY task_id, position', [issueId])) {
		const taskId = str(row, 'task_id');
		const list = deps.get(taskId) ?? [];
		list.push(str(row, 'depends_on_task_id'));
		deps.set(taskId, list);
	}
	return deps;
}

/**
 * Every insert and update stamps the row with the issue's task change counter + 1 (migration 10), so "what changed
 * since revision N" is the rows above N. One bound parameter: the issue id.
 */
const nextChangeRevision = '(SELECT coalesce(max(change_revision), 0) + 1 FROM tasks WHERE issue_id = ?)';

function writeDependencies(tx: Tx, task: Task): void {
	tx.run('DELETE FROM task_dependencies WHERE issue_id = ? AND task_id = ?', [task.issueId, task.taskId]);
	task.dependencyTaskIds.forEach((dep, position) => {
		tx.run('INSERT INTO task_dependencies (issue_id, task_id, depends_on_task_id, position) VALUES (?,?,?,?)', [task.issueId, task.taskId, dep, position]);
	});
}

export const taskRepository = {
	/** Every task of the issue, history included, ordered by sortIndex then taskId. */
	listByIssue(r: Reader, issueId: string): Task[] {
		const deps = dependenciesOf(r, issueId);
		return r.all('SELECT * FROM tasks WHERE issue_id = ? ORDER BY sort_index, task_id', [issueId])
			.map((row) => taskFromRow(row, deps.get(str(row, 'task_id')) ?? []));
	},
	get(r: Reader, issueId: string, taskId: string): Task | undefined {
		const row = r.get('SELECT * FROM tasks WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		if (!row) { return undefined; }
		const deps = r.all('SELECT depends_on_task_id FROM task_dependencies WHERE issue_id = ? AND task_id = ? ORDER BY position', [issueId, taskId])
			.map((d) => str(d, 'depends_on_task_id'));
		return taskFromRow(row, deps);
	},
	nextSortIndex(r: Reader, issueId: string): number {
		const row = r.get('SELECT coalesce(max(sort_index), -1) + 1 AS next FROM tasks WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'next') : 0;
	},
	insert(tx: Tx, task: Task): void {
		tx.run(
			`INSERT INTO tasks (issue_id, task_id, title, content, status, sort_index, agent_target_id, model_plan_id, model,
			 permission_mode_id, reasoning_effort, execution_directory, parallelizable, auto_accept, acceptance_state,
			 latest_run_id, superseded_at, superseded_by_task_id, created_at, updated_at, change_revision)
			 VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,${nextChangeRevision})`,
			[task.issueId, task.taskId, task.title, task.content, task.status, task.sortIndex, task.agentTargetId, task.modelPlanId,
				task.model, task.permissionModeId, task.reasoningEffort, task.executionDirectory, flag(task.parallelizable),
				flag(task.autoAccept), task.acceptanceState, task.latestRunId, task.supersededAtUnixMs, task.supersededByTaskId,
				task.createdAtUnixMs, task.updatedAtUnixMs, task.issueId],
		);
		writeDependencies(tx, task);
	},
	/** Writes every column and the dependency list. */
	update(tx: Tx, task: Task): void {
		tx.run(
			`UPDATE tasks SET title = ?, content = ?, status = ?, sort_index = ?, agent_target_id = ?, model_plan_id = ?, model = ?,
			 permission_mode_id = ?, reasoning_effort = ?, execution_directory = ?, parallelizable = ?, auto_accept = ?,
			 acceptance_state = ?, latest_run_id = ?, superseded_at = ?, superseded_by_task_id = ?, updated_at = ?,
			 change_revision = ${nextChangeRevision}
			 WHERE issue_id = ? AND task_id = ?`,
			[task.title, task.content, task.status, task.sortIndex, task.agentTargetId, task.modelPlanId, task.model,
				task.permissionModeId, task.reasoningEffort, task.executionDirectory, flag(task.parallelizable), flag(task.autoAccept),
				task.acceptanceState, task.latestRunId, task.supersededAtUnixMs, task.supersededByTaskId, task.updatedAtUnixMs,
				task.issueId, task.issueId, task.taskId],
		);
		writeDependencies(tx, task);
	},
	/** The issue's task change counter: the highest change revision of its tasks (0 without tasks). */
	taskRevision(r: Reader, issueId: string): number {
		const row = r.get('SELECT coalesce(max(change_revision), 0) AS revision FROM tasks WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'revision') : 0;
	},
	/** Ids of the issue's tasks written after change revision `since`, in backlog order. */
	changedSince(r: Reader, issueId: string, since: number): string[] {
		return r.all('SELECT task_id FROM tasks WHERE issue_id = ? AND change_revision > ? ORDER BY sort_index, task_id', [issueId, since])
			.map((row) => str(row, 'task_id'));
	},
	/** Ids of the issue's active tasks in `status`, in backlog order (an indexed read: as many rows as it returns). */
	activeIdsWithStatus(r: Reader, issueId: string, status: TaskStatus): string[] {
		return r.all('SELECT task_id FROM tasks WHERE issue_id = ? AND status = ? AND superseded_at = 0 ORDER BY sort_index, task_id', [issueId, status])
			.map((row) => str(row, 'task_id'));
	},
	/** The distinct agent targets and models of the issue's active not-started tasks (what it will launch). */
	pendingLaunchTargets(r: Reader, issueId: string): { agentTargetId: string; model: string }[] {
		return r.all(
			`SELECT DISTINCT agent_target_id, model FROM tasks WHERE issue_id = ? AND status = 'not_started' AND superseded_at = 0
			 ORDER BY agent_target_id, model`, [issueId],
		).map((row) => ({ agentTargetId: str(row, 'agent_target_id'), model: str(row, 'model') }));
	},
	/** Only for a manual issue's task that never ran (the service checks); managed issues never delete. */
	delete(tx: Tx, issueId: string, taskId: string): void {
		tx.run('DELETE FROM task_dependencies WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		tx.run('DELETE FROM tasks WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
	},
	/**
	 * Task ids of any issue that are `id` or start with `id-` (what a readable id derived from a title must avoid: the
	 * worktree folder and branch a task id names are the workspace's, not the issue's).
	 */
	idsLike(r: Reader, id: string): Set<string> {
		// A range on the text, not LIKE: '_' and '%' in an id would be patterns there ('-' + 1 is '.').
		return new Set(r.all('SELECT DISTINCT task_id FROM tasks WHERE task_id = ? OR (task_id >= ? AND task_id < ?)', [id, `${id}-`, `${id}.`])
			.map((row) => str(row, 'task_id')));
	},
	/** Active tasks that depend on `taskId`. */
	dependents(r: Reader, issueId: string, taskId: string): string[] {
		return r.all(
			`SELECT d.task_id FROM task_dependencies d JOIN tasks t ON t.issue_id = d.issue_id AND t.task_id = d.task_id
			 WHERE d.issue_id = ? AND d.depends_on_task_id = ? AND t.superseded_at = 0`, [issueId, taskId],
		).map((row) => str(row, 'task_id'));
	},
};
