// The per-issue task counts the store keeps on write (migration 023) always equal a recount of the task rows: after
// random inserts, status changes, supersessions and deletes, and after a writer killed with SIGKILL mid-workload is
// recovered by replaying its journal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Store } from '../../../src/store/database.js';
import { issueRepository } from '../../../src/store/repositories/issueRepository.js';
import { tempStoreDir, type TempStoreDir } from '../../unit/store/storeTestKit.js';
import { countIssues, randomTaskWrite, seededRandom } from './taskCountsWorkload.js';

const workerScript = `${__dirname}/taskCountsWorker.ts`;

function assertCountsEqualRecount(store: Store, where: string): void {
	store.read((r) => {
		for (const issueId of countIssues) {
			assert.deepEqual(issueRepository.counts(r, issueId), issueRepository.recount(r, issueId), `${where}: counts of ${issueId}`);
		}
	});
}

/** Runs the worker until it acknowledged `acks` transactions, then SIGKILLs it (no close, no snapshot). */
function writeAndKill(dir: string, seed: number, acks: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', workerScript, dir, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
		let acked = 0;
		let buffered = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			buffered += chunk;
			const lines = buffered.split('\n');
			buffered = lines.pop() ?? '';
			for (const line of lines) {
				if (line.startsWith('ack ') && ++acked === acks) { child.kill('SIGKILL'); }
			}
		});
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.once('error', reject);
		child.once('close', (code, signal) => {
			if (signal === 'SIGKILL') { resolve(acked); } else { reject(new Error(`worker exited ${code}: ${stderr.slice(0, 500)}`)); }
		});
	});
}

describe('per-issue task counts kept on write', function () {
	this.timeout(120_000);
	let temp: TempStoreDir;
	beforeEach(() => { temp = tempStoreDir(); });
	afterEach(() => { temp.cleanup(); });

	it('equal a recount after every one of 300 random transactions (insert, status change, supersede, delete)', async () => {
		const store = await Store.open({ dir: temp.dir });
		try {
			const rand = seededRandom(20261203);
			for (let n = 0; n < 300; n++) {
				await store.transaction((tx) => { for (let i = 0; i < 1 + Math.floor(rand() * 4); i++) { randomTaskWrite(tx, rand, `t${n}-${i}`); } });
				assertCountsEqualRecount(store, `after transaction ${n}`);
			}
			const total = store.read((r) => r.get('SELECT count(*) AS n FROM tasks')?.['n']);
			assert.ok(Number(total) > 50, `the workload kept tasks (${String(total)})`);
			const superseded = store.read((r) => r.get('SELECT count(*) AS n FROM tasks WHERE superseded_at > 0')?.['n']);
			assert.ok(Number(superseded) > 0, 'the workload superseded tasks');
			assert.ok(countIssues.some((id) => store.read((r) => issueRepository.deletedTasks(r, id)) > 0), 'the workload deleted tasks');
		} finally {
			await store.close();
		}
	});

	it('equal a recount after a writer is killed with SIGKILL and its journal is replayed, twice over', async () => {
		for (const seed of [7, 8]) {
			const acked = await writeAndKill(temp.dir, seed, 120);
			assert.equal(acked >= 120, true);
			const store = await Store.open({ dir: temp.dir, snapshotEveryBytes: 1 << 30 });
			try {
				assert.ok(store.stats().replayedOnOpen >= 120, `replayed ${store.stats().replayedOnOpen} journal frames`);
				assertCountsEqualRecount(store, `after kill -9 (seed ${seed}) and replay`);
			} finally {
				await store.close();
			}
		}
	});
});
