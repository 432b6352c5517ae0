// kill -9 a writing Host at random points; every acknowledged transaction must survive and the store must open.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/database.js';

const workerScript = join(__dirname, 'crashWorker.ts');
const iterations = 24;

interface KilledRun {
	readonly acked: string[];
	readonly stderr: string;
	readonly exitCode: number | null;
}

/** Starts the worker and SIGKILLs it `killAfterMs` after spawn, or after its first acknowledged commit. */
function runAndKill(dir: string, prefix: string, killAfterMs: number, afterFirstAck: boolean): Promise<KilledRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', workerScript, dir, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
		const acked: string[] = [];
		let buffered = '';
		let stderr = '';
		let timer: NodeJS.Timeout | undefined;
		const kill = (): void => { child.kill('SIGKILL'); };
		const safety = setTimeout(kill, 15_000);
		if (!afterFirstAck) {
			timer = setTimeout(kill, killAfterMs);
		}
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => {
			buffered += chunk;
			const lines = buffered.split('\n');
			buffered = lines.pop() ?? '';
			for (const line of lines) {
				if (line.startsWith('ack ')) {
					if (afterFirstAck && acked.length === 0) {
						timer = setTimeout(kill, killAfterMs);
					}
					acked.push(line.slice(4));
				}
			}
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (chunk: string) => { stderr += chunk; });
		child.once('error', reject);
		// 'close' comes after the process is reaped and its stdout drained: every ack it printed is in `acked`.
		child.once('close', (exitCode) => {
			clearTimeout(safety);
			clearTimeout(timer);
			resolve({ acked, stderr, exitCode });
		});
	});
}

describe('store crash safety (kill -9 during a write workload)', function () {
	this.timeout(240_000);
	let root: string;
	before(() => { root = mkdtempSync(join(tmpdir(), 'tutti-store-crash-')); });
	after(() => { rmSync(root, { recursive: true, force: true }); });

	/** Opens the store as the next Host would (taking over the dead worker's lease) and checks every acked id. */
	async function verify(dir: string, acked: readonly string[], where: string): Promise<void> {
		const store = await Store.open({ dir });
		try {
			const present = new Set(store.read((r) => r.all('SELECT issue_id FROM issues').map((row) => String(row.issue_id))));
			const missing = acked.filter((id) => !present.has(id));
			assert.deepEqual(missing, [], `${where} lost acknowledged ids`);
			const running = store.read((r) => r.get("SELECT count(*) AS n FROM tasks WHERE status = 'running'")?.n);
			assert.equal(running, present.size, 'each transaction is applied whole (issue + task + update) or not at all');
		} finally {
			await store.close();
		}
	}

	it(`loses no acknowledged transaction and always reopens, over ${iterations} random kills`, async () => {
		const dir = join(root, '.tutti');
		const allAcked: string[] = [];
		let killedWhileWriting = 0;
		for (let i = 0; i < iterations; i++) {
			// Even iterations: kill at a random instant of the write workload (mid-commit, mid-snapshot, mid-rotation).
			// Odd iterations: kill at a random instant from spawn (also during open, replay and journal rewrite).
			const afterFirstAck = i % 2 === 0;
			const killAfterMs = afterFirstAck ? Math.floor(Math.random() * 300) : 200 + Math.floor(Math.random() * 1_200);
			const run = await runAndKill(dir, `k${String(i).padStart(2, '0')}`, killAfterMs, afterFirstAck);
			assert.equal(run.stderr, '', `worker ${i} failed instead of being killed: ${run.stderr}`);
			assert.notEqual(run.exitCode, 0);
			if (run.acked.length > 0) {
				killedWhileWriting++;
			}
			allAcked.push(...run.acked);

			// Every third iteration leaves the store as the killed worker left it, so the next worker itself recovers
			// (replay, torn-tail rewrite) and may be killed while doing so; the check then covers both kills.
			if (i % 3 !== 1 || i === iterations - 1) {
				await verify(dir, allAcked, `iteration ${i} (killed ${killAfterMs} ms after ${afterFirstAck ? 'the first ack' : 'spawn'})`);
			}
		}
		assert.ok(killedWhileWriting >= iterations / 2, `too few kills landed during the workload (${killedWhileWriting})`);
		assert.ok(allAcked.length > 0);
	});
});
