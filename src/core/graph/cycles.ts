// Dependency cycles, found iteratively (no recursion: a 100k-task chain must not overflow the stack). O(tasks + edges).
import type { Task } from '../model.js';

/**
 * The first dependency cycle among `tasks`, as the path of task ids that closes it (e.g. `['a', 'b', 'a']`;
 * a self-dependency is `['a', 'a']`), or null when the graph is acyclic. Edges to ids not in `tasks` are ignored
 * (missing dependencies are a different rejection). Deterministic: tasks are visited in the given order.
 */
export function detectCycle(tasks: readonly Pick<Task, 'taskId' | 'dependencyTaskIds'>[]): string[] | null {
	const indexOf = new Map<string, number>();
	for (let i = 0; i < tasks.length; i++) { indexOf.set(tasks[i]!.taskId, i); }
	/** 0 = unvisited, 1 = on the current path, 2 = finished. */
	const state = new Uint8Array(tasks.length);
	const path = new Int32Array(tasks.length);
	const next = new Int32Array(tasks.length);
	for (let root = 0; root < tasks.length; root++) {
		if (state[root] !== 0 || indexOf.get(tasks[root]!.taskId) !== root) { continue; }
		let depth = 0;
		path[0] = root;
		next[0] = 0;
		state[root] = 1;
		while (depth >= 0) {
			const node = path[depth]!;
			const edges = tasks[node]!.dependencyTaskIds;
			const i = next[depth]!;
			if (i >= edges.length) {
				state[node] = 2;
				depth--;
				continue;
			}
			next[depth] = i + 1;
			const dep = indexOf.get(edges[i]!);
			if (dep === undefined) { continue; }
			if (state[dep] === 1) {
				const ids: string[] = [];
				let k = depth;
				while (path[k] !== dep) { k--; }
				for (; k <= depth; k++) { ids.push(tasks[path[k]!]!.taskId); }
				ids.push(tasks[dep]!.taskId);
				return ids;
			}
			if (state[dep] === 0) {
				state[dep] = 1;
				depth++;
				path[depth] = dep;
				next[depth] = 0;
			}
		}
	}
	return null;
}
