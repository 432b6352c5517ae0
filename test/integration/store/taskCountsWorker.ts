// Child process for the task-count test: random task writes (insert, status change, supersede, delete) through the
// task repository on a few issues, printing `ack <n>` after each transaction is durable. A large snapshot threshold
// keeps every frame in the journal, so the next open replays them. Usage: node --import tsx taskCountsWorker.ts <dir> <seed>
import { Store } from '../../../src/store/database.js';
import { randomTaskWrite, seededRandom } from './taskCountsWorkload.js';

async function main(): Promise<void> {
	const [dir, seed] = process.argv.slice(2);
	if (!dir || !seed) { throw new Error('usage: taskCountsWorker.ts <dir> <seed>'); }
	const store = await Store.open({ dir, snapshotEveryBytes: 1 << 30 });
	const rand = seededRandom(Number(seed));
	process.stdout.write('ready\n');
	for (let n = 0; ; n++) {
		await store.transaction((tx) => { for (let i = 0; i < 1 + Math.floor(rand() * 4); i++) { randomTaskWrite(tx, rand, `w${seed}-${n}-${i}`); } });
		process.stdout.write(`ack ${n}\n`);
	}
}

main().catch((e: unknown) => {
	process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
