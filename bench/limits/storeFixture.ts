// A Store filled with N tasks in the real schema (issues of 100 tasks each), shared by the limit benchmarks.
import { Store } from '../../src/store/database.js';

const tasksPerIssue = 100;
const taskContent = 'Implement the change described in the issue, run the tests, and report what changed. '.repeat(2);
const statuses = ['completed', 'completed', 'completed', 'completed', 'running', 'not_started', 'not_started', 'not_started', 'not_started', 'not_started'];

export const updateSql = 'UPDATE tasks SET status = ?, updated_at = ? WHERE issue_id = ? AND task_id = ?';
export const updateContentSql = 'UPDATE tasks SET content = ?, updated_at = ? WHERE issue_id = ? AND task_id = ?';

export function issueId(i: number): string {
	return `issue-${String(i).padStart(6, '0')}`;
}

/** A random task of a store filled by `populateStore`, as [issueId, taskId]. */
export function randomTask(tasks: number): [string, string] {
	const t = Math.floor(Math.random() * tasks);
	return [issueId(Math.floor(t / tasksPerIssue)), `task-${t}`];
}

export async function populateStore(store: Store, tasks: number): Promise<void> {
	const issues = Math.max(1, Math.ceil(tasks / tasksPerIssue));
	await store.transaction((tx) => {
		for (let i = 0; i < issues; i++) {
			tx.run(
				'INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
				[issueId(i), `Issue ${i}`, 'Goal of the issue', 'in_progress', 'manual', 1_700_000_000_000, 1_700_000_000_000],
			);
		}
	});
	for (let from = 0; from < tasks; from += 10_000) {
		await store.transaction((tx) => {
			for (let t = from; t < Math.min(tasks, from + 10_000); t++) {
				tx.run(
					'INSERT INTO tasks (issue_id, task_id, title, content, status, sort_index, agent_target_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
					[issueId(Math.floor(t / tasksPerIssue)), `task-${t}`, `Task ${t}`, taskContent, statuses[t % 10]!, t % tasksPerIssue, 'codex', 1_700_000_000_000, 1_700_000_000_000],
				);
			}
		});
	}
}
