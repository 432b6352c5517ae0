// Child process for the store crash test: a write workload that prints `ack <id>` after each transaction's promise
// resolves (i.e. after its journal frame is fsynced). Usage: node --import tsx crashWorker.ts <dir> <prefix>
import { Store } from '../../../src/store/database.js';

async function main(): Promise<void> {
	const [dir, prefix] = process.argv.slice(2);
	if (!dir || !prefix) {
		throw new Error('usage: crashWorker.ts <dir> <prefix>');
	}
	// A tiny snapshot threshold so kills also land inside snapshots and journal rotations.
	const store = await Store.open({ dir, snapshotEveryBytes: 4_096 });
	process.stdout.write('ready\n');
	let next = 0;
	const writer = async (): Promise<void> => {
		for (;;) {
			const n = next++;
			const id = `${prefix}-${String(n).padStart(6, '0')}`;
			await store.transaction((tx) => {
				tx.run(
					'INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
					[id, `Issue ${id}`, 'x'.repeat(n % 300), 'open', 'manual', n, n],
				);
				tx.run('INSERT INTO tasks (issue_id, task_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [id, 't1', 'Task', 'not_started', n, n]);
				tx.run("UPDATE tasks SET status = 'running', updated_at = ? WHERE issue_id = ? AND task_id = 't1'", [n + 1, id]);
			});
			process.stdout.write(`ack ${id}\n`);
		}
	};
	// Several concurrent writers so commits share group fsyncs.
	await Promise.all([writer(), writer(), writer(), writer()]);
}

main().catch((e: unknown) => {
	process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
