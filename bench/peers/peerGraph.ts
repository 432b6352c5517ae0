// The generated 1,000-task graph both CLIs get: each task depends on 0–3 of the 50 tasks before it; 30% are done
// in task-master's file (Tutti tasks only finish through Runs, so there they are all not started).
export interface PeerTask {
	readonly n: number;
	readonly deps: number[];
	readonly done: boolean;
	readonly priority: 'high' | 'medium' | 'low';
}

export function generatePeerGraph(count = 1000): PeerTask[] {
	let seed = 42;
	const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
	const tasks: PeerTask[] = [];
	for (let n = 1; n <= count; n++) {
		const deps: number[] = [];
		const edges = Math.floor(rand() * 4);
		for (let e = 0; e < edges && n > 1; e++) {
			const d = Math.max(1, n - 1 - Math.floor(rand() * 50));
			if (!deps.includes(d)) { deps.push(d); }
		}
		tasks.push({ n, deps, done: rand() < 0.3, priority: (['high', 'medium', 'low'] as const)[n % 3]! });
	}
	return tasks;
}

const details = 'Implement the change described in the issue, run the tests, and report what changed.';

/** task-master's tagged tasks.json (`.taskmaster/tasks/tasks.json`). */
export function taskMasterTasksJson(tasks: readonly PeerTask[]): string {
	const now = new Date().toISOString();
	return JSON.stringify({
		master: {
			tasks: tasks.map((t) => ({
				id: t.n, title: `Task ${t.n}`, description: `Implement part ${t.n} of the feature`, details, testStrategy: 'Run the unit tests',
				status: t.done ? 'done' : 'pending', dependencies: t.deps, priority: t.priority, subtasks: [],
			})),
			metadata: { created: now, updated: now, description: 'tutti bench graph' },
		},
	}, null, 2);
}

export function tuttiTaskId(n: number): string {
	return `t${n}`;
}
