// Ready-set computation at 1k/10k/100k tasks in one issue, as pure code: `readyTaskIds` (core
// blockers.ts), a full pass over the issue's tasks, which `plan issue get` computes per call (the dispatcher runs the
// same rule over SQL pages of candidates). Beside it the incremental ReadyIndex (core/graph/readyIndex.ts), built and
// tested but not yet wired into either path. Goal: ≤ 2 ms at 100k.
import type { Task } from '../src/core/model.js';
import { readyTaskIds } from '../src/core/graph/blockers.js';
import { ReadyIndex } from '../src/core/graph/readyIndex.js';
import { fmtMs, median, timeMs } from './stats.js';

export interface ReadySetRow { tasks: number; buildMs: number; nextMs: number; upsertMs: number; fullRecomputeMs: number }

function makeTasks(n: number): Task[] {
	let seed = 42;
	const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
	const tasks: Task[] = [];
	for (let i = 0; i < n; i++) {
		const deps: string[] = [];
		const edges = Math.floor(rand() * 3);
		for (let e = 0; e < edges && i > 0; e++) {
			const d = `t${Math.max(0, i - 1 - Math.floor(rand() * 50))}`;
			if (!deps.includes(d)) { deps.push(d); }
		}
		const r = rand();
		tasks.push({
			issueId: 'bench', taskId: `t${i}`, title: `Task ${i}`, content: '', sortIndex: i,
			status: r < 0.4 ? 'completed' : r < 0.5 ? 'running' : 'not_started',
			acceptanceState: r < 0.4 ? 'user_accepted' : '', agentTargetId: 'sh', modelPlanId: '', model: '', permissionModeId: '',
			reasoningEffort: '', executionDirectory: '', dependencyTaskIds: deps, parallelizable: true, autoAccept: true,
			latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: 0, updatedAtUnixMs: 0,
		});
	}
	return tasks;
}

/** What `plan issue get` does per call: the whole ready list of the issue (then it shows all of it). */
function fullRecompute(tasks: readonly Task[]): string[] {
	return readyTaskIds(tasks);
}

export function benchReadySet(sizes: readonly number[] = [1_000, 10_000, 100_000]): ReadySetRow[] {
	return sizes.map((n) => {
		const tasks = makeTasks(n);
		let index!: ReadyIndex;
		const buildMs = timeMs(() => { index = new ReadyIndex(tasks); });
		const nextMs = median(Array.from({ length: 200 }, () => timeMs(() => index.next(50))));
		const upserts: number[] = [];
		for (let i = 0; i < 200; i++) {
			const t = tasks[(i * 7919) % n]!;
			const changed: Task = t.status === 'completed' ? { ...t, status: 'not_started', acceptanceState: '' } : { ...t, status: 'completed', acceptanceState: 'user_accepted' };
			upserts.push(timeMs(() => index.upsert(changed)));
		}
		const fullRecomputeMs = median(Array.from({ length: n >= 100_000 ? 5 : 20 }, () => timeMs(() => fullRecompute(tasks))));
		return { tasks: n, buildMs, nextMs, upsertMs: median(upserts), fullRecomputeMs };
	});
}

export function formatReadySet(rows: readonly ReadySetRow[]): string {
	const lines = ['| tasks | ReadyIndex: next 50 ready (median) | ReadyIndex: upkeep when one task settles (median) | `readyTaskIds` full pass, what `plan issue get` runs today (median) | ratio full pass / index next | index build (once) |', '|---|---|---|---|---|---|'];
	for (const r of rows) {
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${fmtMs(r.nextMs)} | ${fmtMs(r.upsertMs)} | ${fmtMs(r.fullRecomputeMs)} | ${(r.fullRecomputeMs / Math.max(r.nextMs, 1e-6)).toFixed(0)}x | ${fmtMs(r.buildMs)} |`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	console.log(formatReadySet(benchReadySet()));
}
