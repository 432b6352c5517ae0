// What the product runs for "what can start next" on a manual issue: one dispatch pass of the real Dispatcher
// (the issue's kept ready set, src/store/taskCache.ts, then the selected rows checked again) over a real Store holding
// one manual issue of 1k/10k/100k tasks, in two shapes: the graph of readySet.ts (40% completed and accepted, 10%
// running, 50% not started; up to 2 dependencies on the previous 50 tasks), and a chain whose head runs (every other
// task waits, nothing is ready: the pass that used to read every waiting task). Admission admits nothing, so every
// pass selects and writes nothing: pure selection cost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher } from '../src/host/services/dispatcher.js';
import { Store } from '../src/store/database.js';
import { fmtMs, median } from './stats.js';

export interface DispatchPassRow { tasks: number; readyFound: number; passMs: number; chainPassMs: number }

const issueId = 'bench-manual';

async function populate(store: Store, n: number, shape: 'graph' | 'chain'): Promise<void> {
	let seed = 42;
	const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
	await store.transaction((tx) => {
		tx.run('INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
			[issueId, 'Bench', '', 'in_progress', 'manual', 1, 1]);
	});
	for (let from = 0; from < n; from += 10_000) {
		await store.transaction((tx) => {
			for (let i = from; i < Math.min(n, from + 10_000); i++) {
				const r = rand();
				const status = shape === 'chain' ? (i === 0 ? 'running' : 'not_started') : r < 0.4 ? 'completed' : r < 0.5 ? 'running' : 'not_started';
				tx.run('INSERT INTO tasks (issue_id, task_id, title, status, sort_index, agent_target_id, acceptance_state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
					[issueId, `t${i}`, `Task ${i}`, status, i, 'sh', status === 'completed' ? 'user_accepted' : '', 1, 1]);
				const edges = shape === 'chain' ? 0 : Math.floor(rand() * 3);
				const deps: string[] = shape === 'chain' && i > 0 ? [`t${i - 1}`] : [];
				for (let e = 0; e < edges && i > 0; e++) {
					const d = `t${Math.max(0, i - 1 - Math.floor(rand() * 50))}`;
					if (!deps.includes(d)) { deps.push(d); }
				}
				deps.forEach((d, position) => {
					tx.run('INSERT INTO task_dependencies (issue_id, task_id, depends_on_task_id, position) VALUES (?, ?, ?, ?)', [issueId, `t${i}`, d, position]);
				});
			}
		});
	}
}

/** Median time of one pass over a fresh store of `n` tasks in `shape`, and how many ready tasks it selected. */
async function timePasses(n: number, shape: 'graph' | 'chain'): Promise<{ readyFound: number; passMs: number }> {
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-dispatch-'));
	const store = await Store.open({ dir: join(dir, '.tutti') });
	try {
		await populate(store, n, shape);
		let readyFound = 0;
		const dispatcher = new Dispatcher({
			store, log: () => undefined,
			config: { agentTargets: [{ id: 'sh', adapter: 'command', argv: ['true'] }], maxParallelRuns: 4, autoAcceptDefault: false },
			admission: { admit: (_tx, _issue, tasks) => { readyFound = tasks.length; return []; }, launch: () => Promise.resolve(), reopenChangedParents: () => Promise.resolve([]), countEndedTurns: () => Promise.resolve() },
		});
		const pass = async (): Promise<number> => {
			const t0 = performance.now();
			dispatcher.trigger();
			await dispatcher.whenIdle();
			return performance.now() - t0;
		};
		for (let i = 0; i < 5; i++) { await pass(); }
		const times: number[] = [];
		for (let i = 0; i < (n >= 100_000 ? 30 : 100); i++) { times.push(await pass()); }
		dispatcher.dispose();
		return { readyFound, passMs: median(times) };
	} finally {
		await store.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function benchDispatchPass(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<DispatchPassRow[]> {
	const rows: DispatchPassRow[] = [];
	for (const n of sizes) {
		const graph = await timePasses(n, 'graph');
		const chain = await timePasses(n, 'chain');
		rows.push({ tasks: n, readyFound: graph.readyFound, passMs: graph.passMs, chainPassMs: chain.passMs });
	}
	return rows;
}

export function formatDispatchPass(rows: readonly DispatchPassRow[]): string {
	const lines = ['| tasks in one manual issue | one dispatch pass, next 4 ready (median) | ready tasks it found | a chain whose head runs: one pass, nothing ready (median) |', '|---|---|---|---|'];
	for (const r of rows) {
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${fmtMs(r.passMs)} | ${r.readyFound} | ${fmtMs(r.chainPassMs)} |`);
	}
	const small = rows[0];
	const large = rows[rows.length - 1];
	if (small && large && small !== large) {
		lines.push('', `${large.tasks.toLocaleString('en')} ÷ ${small.tasks.toLocaleString('en')} tasks: ${(large.passMs / small.passMs).toFixed(2)}× (graph), ${(large.chainPassMs / small.chainPassMs).toFixed(2)}× (chain).`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	void benchDispatchPass().then((rows) => { console.log(formatDispatchPass(rows)); });
}
