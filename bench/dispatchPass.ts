// What the product runs for "what can start next" on a manual issue: one dispatch pass of the real Dispatcher
// (SQL pages of candidates + core readiness) over a real Store holding one manual issue of 1k/10k/100k tasks, the
// same graph shape as readySet.ts (40% completed and accepted, 10% running, 50% not started; up to 2 dependencies on
// the previous 50 tasks). Admission admits nothing, so every pass selects and writes nothing: pure selection cost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher } from '../src/host/services/dispatcher.js';
import { Store } from '../src/store/database.js';
import { fmtMs, median } from './stats.js';

export interface DispatchPassRow { tasks: number; readyFound: number; passMs: number }

const issueId = 'bench-manual';

async function populate(store: Store, n: number): Promise<void> {
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
				const status = r < 0.4 ? 'completed' : r < 0.5 ? 'running' : 'not_started';
				tx.run('INSERT INTO tasks (issue_id, task_id, title, status, sort_index, agent_target_id, acceptance_state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
					[issueId, `t${i}`, `Task ${i}`, status, i, 'sh', status === 'completed' ? 'user_accepted' : '', 1, 1]);
				const edges = Math.floor(rand() * 3);
				const deps: string[] = [];
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

export async function benchDispatchPass(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<DispatchPassRow[]> {
	const rows: DispatchPassRow[] = [];
	for (const n of sizes) {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-dispatch-'));
		const store = await Store.open({ dir: join(dir, '.tutti') });
		try {
			await populate(store, n);
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
			rows.push({ tasks: n, readyFound, passMs: median(times) });
		} finally {
			await store.close();
			rmSync(dir, { recursive: true, force: true });
		}
	}
	return rows;
}

export function formatDispatchPass(rows: readonly DispatchPassRow[]): string {
	const lines = ['| tasks in one manual issue | one dispatch pass, next 4 ready (median) | ready tasks it found |', '|---|---|---|'];
	for (const r of rows) {
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${fmtMs(r.passMs)} | ${r.readyFound} |`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	void benchDispatchPass().then((rows) => { console.log(formatDispatchPass(rows)); });
}
