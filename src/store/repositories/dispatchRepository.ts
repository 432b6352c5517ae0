// Queries the manual dispatcher needs to stay cheap on large issues: it never loads a whole task graph per pass.
// These narrow the search only; whether a task is ready is decided by core (graph/blockers.ts) on the rows returned.
import type { Reader } from '../tx.js';
import { num, str } from './rowValues.js';

export interface TaskKey {
	taskId: string;
	sortIndex: number;
}

export const dispatchRepository = {
	/** Unpaused manual issues that have at least one active not-started task, oldest first. */
	manualIssuesWithWork(r: Reader): string[] {
		return r.all(
			`SELECT i.issue_id FROM issues i
			 WHERE i.planning_source = 'manual' AND i.dispatch_paused = 0 AND i.status <> 'archived'
			   AND EXISTS (SELECT 1 FROM tasks t WHERE t.issue_id = i.issue_id AND t.status = 'not_started' AND t.superseded_at = 0)
			 ORDER BY i.created_at, i.issue_id`,
		).map((row) => str(row, 'issue_id'));
	},

	/**
	 * Not-started active tasks with a target and no dependency that is anything but `completed`, in dispatch order
	 * (sortIndex, taskId), after `after`. A superset of the ready tasks: core still decides readiness.
	 */
	candidates(r: Reader, issueId: string, after: TaskKey | null, limit: number): TaskKey[] {
		return r.all(
			`SELECT t.task_id, t.sort_index FROM tasks t
			 WHERE t.issue_id = ? AND t.status = 'not_started' AND t.superseded_at = 0 AND t.agent_target_id <> ''
			   AND (? IS NULL OR t.sort_index > ? OR (t.sort_index = ? AND t.task_id > ?))
			   AND NOT EXISTS (
			     SELECT 1 FROM task_dependencies d LEFT JOIN tasks p ON p.issue_id = d.issue_id AND p.task_id = d.depends_on_task_id
			     WHERE d.issue_id = t.issue_id AND d.task_id = t.task_id AND (p.status IS NULL OR p.status <> 'completed'))
			 ORDER BY t.sort_index, t.task_id LIMIT ?`,
			[issueId, after ? 1 : null, after?.sortIndex ?? 0, after?.sortIndex ?? 0, after?.taskId ?? '', limit],
		).map((row) => ({ taskId: str(row, 'task_id'), sortIndex: num(row, 'sort_index') }));
	},
};
