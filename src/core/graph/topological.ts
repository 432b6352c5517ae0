// Tasks in an order where every task comes after the tasks it depends on (directly or through others), keeping the
// given order otherwise: a squash integration makes one commit per task in this order, parents first. Pure; a
// dependency outside the list is ignored, a cycle (never stored: mutations refuse one) keeps the given order.
import type { Task } from '../model.js';

export function topologicalOrder<T extends Pick<Task, 'taskId' | 'dependencyTaskIds'>>(tasks: readonly T[]): T[] {
	const byId = new Map(tasks.map((t) => [t.taskId, t] as const));
	const placed = new Set<string>();
	const visiting = new Set<string>();
	const out: T[] = [];
	const place = (task: T): void => {
		if (placed.has(task.taskId) || visiting.has(task.taskId)) { return; }
		visiting.add(task.taskId);
		for (const dep of task.dependencyTaskIds) {
			const parent = byId.get(dep);
			if (parent !== undefined) { place(parent); }
		}
		visiting.delete(task.taskId);
		placed.add(task.taskId);
		out.push(task);
	};
	for (const task of tasks) { place(task); }
	return out;
}
