// The Store against its limits at 1k / 10k / 100k tasks, all in one run on this machine: durable commit latency and
// throughput with 1 and 8 concurrent writers (concurrent transactions share one journal fsync), beside the naive
// whole-database export per commit and native SQLite (better-sqlite3, WAL, synchronous=FULL) on a copy of the same
// database file. Medians and ratios only.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/database.js';
import { readFileIfExists, writeFileAtomically } from '../../src/store/snapshot.js';
import { loadSqlJs } from '../../src/store/sqlJsLoader.js';
import { ensureBenchPackages } from '../peers/benchPackages.js';
import { fmtMs, median, percentile } from '../stats.js';
import { measureNativeCommits, type NativeCommitFigures } from './nativeSqlite.js';
import { populateStore, randomTask, updateSql } from './storeFixture.js';

export interface CommitFigures {
	readonly latencyMs: number[];
	/** Wall time of the whole batch, ms (throughput = commits / wall). */
	readonly wallMs: number;
	/** Journal fsyncs during the batch (group commit: fewer than commits). */
	readonly syncs?: number;
}

export interface StoreLimitRow {
	readonly tasks: number;
	readonly databaseBytes: number;
	readonly journal1: CommitFigures;
	readonly journal8: CommitFigures;
	readonly export1: CommitFigures;
	readonly native?: NativeCommitFigures;
}

export interface StoreLimitResult {
	readonly rows: readonly StoreLimitRow[];
	readonly nativeError?: string;
}

const elapsed = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

async function journalCommits(store: Store, tasks: number, commits: number, writers: number): Promise<CommitFigures> {
	for (let i = 0; i < 20; i++) {
		const [issue, task] = randomTask(tasks);
		await store.transaction((tx) => tx.run(updateSql, ['running', i, issue, task]));
	}
	const syncsBefore = store.stats().syncs;
	const latencyMs: number[] = [];
	const perWriter = Math.ceil(commits / writers);
	const start = process.hrtime.bigint();
	await Promise.all(Array.from({ length: writers }, async (_, w) => {
		for (let i = 0; i < perWriter; i++) {
			const [issue, task] = randomTask(tasks);
			const t0 = process.hrtime.bigint();
			await store.transaction((tx) => tx.run(updateSql, [i % 2 === 0 ? 'running' : 'not_started', w * 1_000_000 + i, issue, task]));
			latencyMs.push(elapsed(t0));
		}
	}));
	return { latencyMs, wallMs: elapsed(start), syncs: store.stats().syncs - syncsBefore };
}

async function exportCommits(databaseFile: string, workDir: string, tasks: number, commits: number): Promise<CommitFigures> {
	const SQL = await loadSqlJs();
	const db = new SQL.Database(readFileIfExists(databaseFile));
	const target = join(workDir, 'export-per-commit.sqlite');
	const latencyMs: number[] = [];
	let wallMs = 0;
	try {
		for (let i = -2; i < commits; i++) {
			const [issue, task] = randomTask(tasks);
			const start = process.hrtime.bigint();
			db.run(updateSql, [i % 2 === 0 ? 'running' : 'not_started', i, issue, task]);
			await writeFileAtomically(target, db.export());
			if (i >= 0) {
				latencyMs.push(elapsed(start));
				wallMs += elapsed(start);
			}
		}
	} finally {
		db.close();
	}
	return { latencyMs, wallMs };
}

export async function benchStoreLimits(options: { sizes?: readonly number[]; commits?: number; log?: (line: string) => void } = {}): Promise<StoreLimitResult> {
	const log = options.log ?? ((): void => undefined);
	const packages = ensureBenchPackages(log);
	const nativeModule = 'path' in packages.betterSqlite3 ? packages.betterSqlite3.path : undefined;
	const commits = options.commits ?? 400;
	const rows: StoreLimitRow[] = [];
	for (const tasks of options.sizes ?? [1_000, 10_000, 100_000]) {
		const workDir = mkdtempSync(join(tmpdir(), 'tutti-bench-limits-'));
		try {
			const store = await Store.open({ dir: join(workDir, '.tutti') });
			let journal1: CommitFigures;
			let journal8: CommitFigures;
			try {
				await populateStore(store, tasks);
				await store.snapshot();
				journal1 = await journalCommits(store, tasks, commits, 1);
				journal8 = await journalCommits(store, tasks, commits, 8);
				await store.snapshot();
			} finally {
				await store.close();
			}
			const databaseBytes = readFileIfExists(store.paths.database)?.length ?? 0;
			const export1 = await exportCommits(store.paths.database, workDir, tasks, tasks >= 100_000 ? 7 : 15);
			let native: NativeCommitFigures | undefined;
			if (nativeModule !== undefined) {
				const copy = join(workDir, 'native.sqlite');
				copyFileSync(store.paths.database, copy);
				native = await measureNativeCommits(nativeModule, copy, tasks, updateSql, commits, 8);
			}
			log(`${tasks} tasks: journal ${fmtMs(median(journal1.latencyMs))} (8 writers ${fmtMs(median(journal8.latencyMs))}), export ${fmtMs(median(export1.latencyMs))}, native ${native ? fmtMs(median(native.singleMs)) : '–'}`);
			rows.push({ tasks, databaseBytes, journal1, journal8, export1, native });
		} finally {
			rmSync(workDir, { recursive: true, force: true });
		}
	}
	return { rows, nativeError: 'error' in packages.betterSqlite3 ? packages.betterSqlite3.error : undefined };
}

function perSecond(commits: number, wallMs: number): string {
	const rate = commits / (wallMs / 1000);
	return rate >= 1000 ? `${(rate / 1000).toFixed(1)}k/s` : `${rate.toFixed(0)}/s`;
}

export function formatStoreLimits(result: StoreLimitResult): string {
	const lines = [
		'| tasks | db | Tutti journal, 1 writer: median / p90 · throughput | Tutti journal, 8 writers: median · throughput · commits per fsync | export per commit: median · throughput | native WAL+FULL, 1 writer: median · throughput | native, 8 writers: median · throughput | export ÷ journal | journal ÷ native |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const r of result.rows) {
		const j1 = median(r.journal1.latencyMs);
		const j8 = median(r.journal8.latencyMs);
		const ex = median(r.export1.latencyMs);
		const n1 = r.native ? median(r.native.singleMs) : NaN;
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${(r.databaseBytes / 2 ** 20).toFixed(1)} MiB | ${fmtMs(j1)} / ${fmtMs(percentile(r.journal1.latencyMs, 90))} · ${perSecond(r.journal1.latencyMs.length, r.journal1.wallMs)} | ` +
			`${fmtMs(j8)} · ${perSecond(r.journal8.latencyMs.length, r.journal8.wallMs)} · ${(r.journal8.latencyMs.length / Math.max(1, r.journal8.syncs ?? 1)).toFixed(1)} | ` +
			`${fmtMs(ex)} · ${perSecond(r.export1.latencyMs.length, r.export1.wallMs)} (n=${r.export1.latencyMs.length}) | ` +
			(r.native ? `${fmtMs(n1)} · ${perSecond(r.native.singleMs.length, r.native.singleWallMs)} | ${fmtMs(median(r.native.concurrentMs))} · ${perSecond(r.native.concurrentMs.length, r.native.concurrentWallMs)} | ` : '– | – | ') +
			`${(ex / j1).toFixed(0)}× | ${r.native ? `${(j1 / n1).toFixed(1)}×` : '–'} |`);
	}
	const first = result.rows[0];
	const last = result.rows[result.rows.length - 1];
	if (first && last && result.rows.length > 1) {
		lines.push('', `Journal commit at ${last.tasks.toLocaleString('en')} ÷ at ${first.tasks.toLocaleString('en')} tasks: ${(median(last.journal1.latencyMs) / median(first.journal1.latencyMs)).toFixed(2)}× (goal: flat in size).` +
			` Export per commit has no concurrency to exploit (each commit writes the whole file), so its 8-writer throughput equals its 1-writer one.`);
	}
	const sqlite = result.rows.find((r) => r.native)?.native?.sqliteVersion;
	lines.push(result.nativeError ? `Native SQLite was not measured: ${result.nativeError}` : `Native: better-sqlite3 (SQLite ${sqlite ?? '?'}) on a copy of the Store's snapshot file, journal_mode=WAL, synchronous=FULL, autocommit UPDATE; 8 writers = 8 worker threads with their own connections.`);
	return lines.join('\n');
}

if (require.main === module) {
	benchStoreLimits({ log: (l) => console.error(l) }).then((r) => console.log(formatStoreLimits(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
