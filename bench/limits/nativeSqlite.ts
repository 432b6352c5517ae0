// better-sqlite3 (native SQLite) in WAL mode with synchronous=FULL on a copy of the Store's own snapshot file (same
// schema, same rows): the durable-commit reference. One writer in this thread; 8 writers as 8 worker threads, each
// with its own connection (SQLite serialises the writers; busy_timeout waits for the lock).
import { Worker } from 'node:worker_threads';

export interface NativeCommitFigures {
	readonly singleMs: number[];
	readonly singleWallMs: number;
	readonly concurrentMs: number[];
	readonly concurrentWallMs: number;
	readonly sqliteVersion: string;
}

interface Database {
	pragma(sql: string): unknown;
	prepare(sql: string): { run(...params: unknown[]): unknown };
	close(): void;
}

const writerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = FULL');
const update = db.prepare(workerData.sql);
const samples = [];
const startedAt = performance.timeOrigin + performance.now();
for (let i = 0; i < workerData.commits; i++) {
	const t = Math.floor(Math.random() * workerData.tasks);
	const start = process.hrtime.bigint();
	update.run(i % 2 ? 'running' : 'not_started', i, 'issue-' + String(Math.floor(t / 100)).padStart(6, '0'), 'task-' + t);
	samples.push(Number(process.hrtime.bigint() - start) / 1e6);
}
const endedAt = performance.timeOrigin + performance.now();
db.close();
parentPort.postMessage({ samples, startedAt, endedAt });
`;

export async function measureNativeCommits(modulePath: string, file: string, tasks: number, sql: string, commits: number, writers: number): Promise<NativeCommitFigures> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const open = require(modulePath) as new (file: string) => Database;
	const db = new open(file);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = FULL');
	const version = (db.prepare('SELECT sqlite_version() AS v') as unknown as { get(): { v: string } }).get().v;
	const update = db.prepare(sql);
	const singleMs: number[] = [];
	const singleStart = process.hrtime.bigint();
	for (let i = -20; i < commits; i++) {
		const t = Math.floor(Math.random() * tasks);
		const start = process.hrtime.bigint();
		update.run(i % 2 ? 'running' : 'not_started', i, `issue-${String(Math.floor(t / 100)).padStart(6, '0')}`, `task-${t}`);
		if (i >= 0) { singleMs.push(Number(process.hrtime.bigint() - start) / 1e6); }
	}
	const singleWallMs = Number(process.hrtime.bigint() - singleStart) / 1e6 * commits / (commits + 20);
	db.close();
	const perWriter = Math.ceil(commits / writers);
	interface WriterReport { samples: number[]; startedAt: number; endedAt: number }
	const results = await Promise.all(Array.from({ length: writers }, () => new Promise<WriterReport>((done, fail) => {
		const worker = new Worker(writerSource, { eval: true, workerData: { module: modulePath, file, sql, tasks, commits: perWriter } });
		worker.once('message', (report: WriterReport) => done(report));
		worker.once('error', fail);
	})));
	// From the first writer's first commit to the last writer's last one (thread start-up excluded).
	const concurrentWallMs = Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt));
	return { singleMs, singleWallMs, concurrentMs: results.flatMap((r) => r.samples), concurrentWallMs, sqliteVersion: version };
}
