// Durable commit latency of a one-task update at 1k / 10k / 100k tasks (real schema: issues + tasks), beside the
// naive alternative of exporting and durably writing the whole database per commit.
// Run: node --import tsx bench/storeCommit.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/store/database.js';
import { readFileIfExists, writeFileAtomically } from '../src/store/snapshot.js';
import { loadSqlJs } from '../src/store/sqlJsLoader.js';

export interface StoreCommitBenchRow {
	readonly tasks: number;
	readonly issues: number;
	/** Size of the snapshot file (bytes). */
	readonly databaseBytes: number;
	/** Durable commit through the Store (transaction + journal frame + fdatasync), ms. */
	readonly journalMedianMs: number;
	readonly journalP90Ms: number;
	readonly journalCommits: number;
	/** The same update followed by export() + temp file + fsync + rename + dir fsync, ms. */
	readonly exportMedianMs: number;
	readonly exportP90Ms: number;
	readonly exportCommits: number;
	/** One snapshot through the Store (export + atomic write + journal rotation), ms. */
	readonly snapshotMs: number;
}

export interface StoreCommitBenchOptions {
	readonly sizes?: readonly number[];
	readonly commits?: number;
	readonly log?: (line: string) => void;
}

const tasksPerIssue = 100;
const taskContent = 'Implement the change described in the issue, run the tests, and report what changed. '.repeat(2);
const updateSql = 'UPDATE tasks SET status = ?, updated_at = ? WHERE issue_id = ? AND task_id = ?';

function percentile(sorted: readonly number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

function issueId(i: number): string {
	return `issue-${String(i).padStart(6, '0')}`;
}

async function populate(store: Store, tasks: number): Promise<number> {
	const issues = Math.max(1, Math.ceil(tasks / tasksPerIssue));
	const chunk = 10_000;
	await store.transaction((tx) => {
		for (let i = 0; i < issues; i++) {
			tx.run(
				'INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
				[issueId(i), `Issue ${i}`, 'Goal of the issue', 'in_progress', 'manual', 1_700_000_000_000, 1_700_000_000_000],
			);
		}
	});
	for (let from = 0; from < tasks; from += chunk) {
		await store.transaction((tx) => {
			for (let t = from; t < Math.min(tasks, from + chunk); t++) {
				const statuses = ['completed', 'completed', 'completed', 'completed', 'running', 'not_started', 'not_started', 'not_started', 'not_started', 'not_started'];
				tx.run(
					'INSERT INTO tasks (issue_id, task_id, title, content, status, sort_index, agent_target_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
					[issueId(Math.floor(t / tasksPerIssue)), `task-${t}`, `Task ${t}`, taskContent, statuses[t % 10] as string, t % tasksPerIssue, 'codex', 1_700_000_000_000, 1_700_000_000_000],
				);
			}
		});
	}
	return issues;
}

function randomTask(tasks: number): [string, string] {
	const t = Math.floor(Math.random() * tasks);
	return [issueId(Math.floor(t / tasksPerIssue)), `task-${t}`];
}

async function measureJournal(store: Store, tasks: number, commits: number): Promise<number[]> {
	const samples: number[] = [];
	for (let i = -20; i < commits; i++) {
		const [issue, task] = randomTask(tasks);
		const status = i % 2 === 0 ? 'running' : 'not_started';
		const start = process.hrtime.bigint();
		await store.transaction((tx) => tx.run(updateSql, [status, 1_700_000_000_000 + i, issue, task]));
		if (i >= 0) {
			samples.push(elapsedMs(start));
		}
	}
	return samples.sort((a, b) => a - b);
}

async function measureExport(databaseFile: string, workDir: string, tasks: number, commits: number): Promise<number[]> {
	const SQL = await loadSqlJs();
	const db = new SQL.Database(readFileIfExists(databaseFile));
	const target = join(workDir, 'export-per-commit.sqlite');
	const samples: number[] = [];
	try {
		for (let i = -2; i < commits; i++) {
			const [issue, task] = randomTask(tasks);
			const start = process.hrtime.bigint();
			db.run('BEGIN');
			db.run(updateSql, [i % 2 === 0 ? 'running' : 'not_started', 1_700_000_000_000 + i, issue, task]);
			db.run('COMMIT');
			await writeFileAtomically(target, db.export());
			if (i >= 0) {
				samples.push(elapsedMs(start));
			}
		}
	} finally {
		db.close();
	}
	return samples.sort((a, b) => a - b);
}

async function benchOne(tasks: number, commits: number): Promise<StoreCommitBenchRow> {
	const workDir = mkdtempSync(join(tmpdir(), 'tutti-bench-store-'));
	try {
		const store = await Store.open({ dir: join(workDir, '.tutti') });
		let issues: number;
		let snapshotMs: number;
		let journal: number[];
		try {
			issues = await populate(store, tasks);
			await store.snapshot();
			// A second, timed snapshot after one more commit (the first one may include populate's journal).
			await store.transaction((tx) => tx.run(updateSql, ['running', 1, issueId(0), 'task-0']));
			const start = process.hrtime.bigint();
			await store.snapshot();
			snapshotMs = elapsedMs(start);
			journal = await measureJournal(store, tasks, commits);
		} finally {
			await store.close();
		}
		const databaseBytes = readFileIfExists(store.paths.database)?.length ?? 0;
		const exportCommits = tasks >= 100_000 ? 7 : 15;
		const exported = await measureExport(store.paths.database, workDir, tasks, exportCommits);
		return {
			tasks,
			issues,
			databaseBytes,
			journalMedianMs: percentile(journal, 0.5),
			journalP90Ms: percentile(journal, 0.9),
			journalCommits: journal.length,
			exportMedianMs: percentile(exported, 0.5),
			exportP90Ms: percentile(exported, 0.9),
			exportCommits: exported.length,
			snapshotMs,
		};
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

/** Runs the benchmark at each size and returns the figures (bench/run.ts prints them with the others). */
export async function benchStoreCommit(options: StoreCommitBenchOptions = {}): Promise<StoreCommitBenchRow[]> {
	const rows: StoreCommitBenchRow[] = [];
	for (const tasks of options.sizes ?? [1_000, 10_000, 100_000]) {
		const row = await benchOne(tasks, options.commits ?? 300);
		options.log?.(`  ${tasks} tasks: journal ${row.journalMedianMs.toFixed(3)} ms, export ${row.exportMedianMs.toFixed(1)} ms`);
		rows.push(row);
	}
	return rows;
}

export function formatStoreCommitTable(rows: readonly StoreCommitBenchRow[]): string {
	const header = ['tasks', 'db size', 'journal commit median / p90', 'export per commit median / p90', 'export ÷ journal', 'one snapshot'];
	const lines = rows.map((r) => [
		r.tasks.toLocaleString('en-US'),
		`${(r.databaseBytes / 1024 / 1024).toFixed(1)} MB`,
		`${r.journalMedianMs.toFixed(3)} / ${r.journalP90Ms.toFixed(3)} ms (n=${r.journalCommits})`,
		`${r.exportMedianMs.toFixed(1)} / ${r.exportP90Ms.toFixed(1)} ms (n=${r.exportCommits})`,
		`${(r.exportMedianMs / r.journalMedianMs).toFixed(0)}×`,
		`${r.snapshotMs.toFixed(1)} ms`,
	]);
	const first = rows[0];
	const last = rows[rows.length - 1];
	const flatness = first && last && rows.length > 1
		? `\njournal commit at ${last.tasks.toLocaleString('en-US')} ÷ at ${first.tasks.toLocaleString('en-US')} tasks: ` +
			`${(last.journalMedianMs / first.journalMedianMs).toFixed(2)}× (goal: ≤ 1 ms median, flat in size)`
		: '';
	const table = [header, ...lines];
	const widths = header.map((_, c) => Math.max(...table.map((row) => (row[c] ?? '').length)));
	const render = (row: readonly string[]): string => `| ${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' | ')} |`;
	return [render(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(render)].join('\n') + flatness;
}

if (require.main === module) {
	console.log('Store durable commit latency (one-task UPDATE), journal + fdatasync vs whole-database export per commit');
	benchStoreCommit({ log: (line) => console.log(line) }).then(
		(rows) => console.log(`\n${formatStoreCommitTable(rows)}`),
		(e: unknown) => {
			console.error(e);
			process.exitCode = 1;
		},
	);
}
