// Store process memory at N tasks and recovery after `kill -9` with a full journal (~8 MiB, the size at which the
// Store snapshots by itself): a child loads the tasks and fills the journal, is killed with SIGKILL, and fresh
// children open copies of what it left (snapshot + journal replay). Median over the copies.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtMs, median } from '../stats.js';

interface Memory { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }
interface Phase { phase: string; memory?: Memory; journalBytes?: number; frames?: number; openMs?: number; replayed?: number; tasks?: number }

export interface StoreRecoveryResult {
	readonly tasks: number;
	readonly loaded: Memory;
	readonly full: Memory;
	readonly journalBytes: number;
	readonly frames: number;
	readonly openMs: number[];
	/** Spawn of a fresh `node --import tsx` child to its "opened" line (includes tsx's own start-up). */
	readonly wholeProcessMs: number[];
	readonly replayed: number;
	readonly recoveredTasks: number;
	readonly afterOpen: Memory;
}

const child = join(__dirname, 'storeProcess.ts');

function startChild(args: readonly string[], onPhase: (p: Phase) => void): { kill(): void; exited: Promise<number | null> } {
	const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
	let text = '';
	proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
		text += chunk;
		let nl: number;
		while ((nl = text.indexOf('\n')) >= 0) {
			onPhase(JSON.parse(text.slice(0, nl)) as Phase);
			text = text.slice(nl + 1);
		}
	});
	return { kill: () => proc.kill('SIGKILL'), exited: new Promise((r) => proc.once('exit', (code) => r(code))) };
}

export async function benchStoreRecovery(options: { tasks?: number; reopenings?: number } = {}): Promise<StoreRecoveryResult> {
	const tasks = options.tasks ?? 100_000;
	const base = mkdtempSync(join(tmpdir(), 'tutti-bench-recovery-'));
	try {
		const dir = join(base, 'killed', '.tutti');
		const phases: Phase[] = [];
		const filler = startChild(['fill', dir, String(tasks)], (p) => {
			phases.push(p);
			if (p.phase === 'full') { filler.kill(); }
		});
		const code = await filler.exited;
		const loaded = phases.find((p) => p.phase === 'loaded');
		const full = phases.find((p) => p.phase === 'full');
		if (!loaded?.memory || !full?.memory) {
			throw new Error(`the fill process ended (${code}) before the journal was full`);
		}
		const openMs: number[] = [];
		const wholeProcessMs: number[] = [];
		let last: Phase | undefined;
		for (let i = 0; i < (options.reopenings ?? 3); i++) {
			const copy = join(base, `copy-${i}`, '.tutti');
			cpSync(dir, copy, { recursive: true });
			const start = process.hrtime.bigint();
			let opened: Phase | undefined;
			const reopen = startChild(['open', copy], (p) => {
				if (p.phase === 'opened') {
					opened = p;
					wholeProcessMs.push(Number(process.hrtime.bigint() - start) / 1e6);
				}
			});
			const exit = await reopen.exited;
			if (exit !== 0 || opened?.openMs === undefined) {
				throw new Error(`reopening after kill -9 failed (exit ${exit})`);
			}
			openMs.push(opened.openMs);
			last = opened;
		}
		return {
			tasks, loaded: loaded.memory, full: full.memory, journalBytes: full.journalBytes ?? 0, frames: full.frames ?? 0,
			openMs, wholeProcessMs, replayed: last?.replayed ?? 0, recoveredTasks: last?.tasks ?? 0, afterOpen: last!.memory!,
		};
	} finally {
		rmSync(base, { recursive: true, force: true });
	}
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function formatStoreRecovery(r: StoreRecoveryResult): string {
	const mem = (m: Memory): string => `RSS ${mib(m.rss)}, JS heap ${mib(m.heapUsed)} used / ${mib(m.heapTotal)}, external ${mib(m.external)} (ArrayBuffers ${mib(m.arrayBuffers)})`;
	return [
		`| ${r.tasks.toLocaleString('en')} tasks | figure |`, '|---|---|',
		`| memory, store loaded and snapshotted (after GC) | ${mem(r.loaded)} |`,
		`| memory, journal full (${(r.journalBytes / 2 ** 20).toFixed(1)} MiB, ${r.frames.toLocaleString('en')} frames) | ${mem(r.full)} |`,
		`| recovery after kill -9: Store.open (snapshot + replay of ${r.replayed.toLocaleString('en')} frames), median of ${r.openMs.length} | **${fmtMs(median(r.openMs))}** (${fmtMs(Math.min(...r.openMs))}–${fmtMs(Math.max(...r.openMs))}) |`,
		`| recovery, whole fresh process to "opened" (includes tsx start-up) | ${fmtMs(median(r.wholeProcessMs))} |`,
		`| tasks present after recovery | ${r.recoveredTasks.toLocaleString('en')} |`,
		`| memory after recovery | ${mem(r.afterOpen)} |`,
	].join('\n') + '\n\nThe Store is the Host\'s in-memory database: a Host holds this plus its services (the next section measures a live Host).';
}

if (require.main === module) {
	benchStoreRecovery().then((r) => console.log(formatStoreRecovery(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
