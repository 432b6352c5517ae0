// Child process for the memory and recovery benchmark (bench/limits/storeRecovery.ts); prints one JSON line per phase.
//   fill <dir> <tasks>: open a Store, load <tasks> tasks, snapshot, report memory; then append content updates until
//                       the journal holds ~8 MiB (the automatic-snapshot threshold, switched off here), report, and
//                       wait to be killed with SIGKILL.
//   open <dir>:         open the Store (snapshot + journal replay), report the time, frames replayed and memory.
import { Store } from '../../src/store/database.js';
import { populateStore, randomTask, updateContentSql } from './storeFixture.js';

const fullJournalBytes = 8 * 1024 * 1024;

function memory(): { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number } {
	(globalThis as { gc?: () => void }).gc?.();
	const m = process.memoryUsage();
	return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
}

function report(phase: string, fields: Record<string, unknown>): void {
	process.stdout.write(`${JSON.stringify({ phase, ...fields })}\n`);
}

async function fill(dir: string, tasks: number): Promise<void> {
	const store = await Store.open({ dir, snapshotEveryBytes: 2 ** 40 });
	await populateStore(store, tasks);
	await store.snapshot();
	report('loaded', { memory: memory() });
	const content = 'A longer task description, rewritten by the source agent while it plans. '.repeat(27); // ~2 KB
	let n = 0;
	while (store.stats().journalBytes < fullJournalBytes) {
		await Promise.all(Array.from({ length: 16 }, () => {
			const [issue, task] = randomTask(tasks);
			n++;
			return store.transaction((tx) => tx.run(updateContentSql, [`${content} ${n}`, n, issue, task]));
		}));
	}
	const stats = store.stats();
	report('full', { journalBytes: stats.journalBytes, frames: stats.frames, memory: memory() });
	setInterval(() => undefined, 60_000); // wait for SIGKILL
}

async function open(dir: string): Promise<void> {
	const start = process.hrtime.bigint();
	const store = await Store.open({ dir });
	const openMs = Number(process.hrtime.bigint() - start) / 1e6;
	const stats = store.stats();
	const count = store.read((r) => r.get('SELECT count(*) AS n FROM tasks'));
	report('opened', { openMs, replayed: stats.replayedOnOpen, tasks: count?.['n'], memory: memory() });
	await store.close();
	report('closed', {});
}

const [mode, dir, tasks] = process.argv.slice(2);
(mode === 'fill' ? fill(dir!, Number(tasks)) : open(dir!)).catch((e: unknown) => {
	process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
