// Host restart to ready with 0 / 4 / 16 worker Runs in flight: a real `tutti host`, N tasks of a command target whose
// processes wait on a gate file (their supervisors outlive the Host), then the Host is killed with SIGKILL and started
// again on the same workspace, R times; each restart is timed from the spawn to its `ready` line (which the Host
// prints only after it reconciled every Run in flight). Medians only; never assertions.
// Runnable alone: `node --import tsx bench/restartToReady.ts` (after `npm run build`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './approvalRoundTrip.js';
import { cliScript, startBenchHost } from './peers/hostFixture.js';
import { fmtMs, median } from './stats.js';

export interface RestartRow {
	readonly inFlight: number;
	/** Spawn → `ready` line, ms, one per restart, with the N Runs still running. */
	readonly restartMs: number[];
	/** Spawn → `ready` line, ms, once, after the N Runs ended while the Host was down (it settles them first). */
	readonly endedWhileDownMs: number;
}

/** Starts `tutti host` on the workspace; resolves its pid and how long it took to print `ready`. */
function startHostTimed(workspace: string, env: NodeJS.ProcessEnv): Promise<{ pid: number; ms: number; kill: () => Promise<void> }> {
	const started = performance.now();
	const child = spawn(process.execPath, [cliScript, 'host', '--workspace', workspace], { env, stdio: ['ignore', 'pipe', process.env['BENCH_HOST_STDERR'] ? 'inherit' : 'ignore'] });
	const exited = new Promise<void>((r) => child.once('exit', () => r()));
	const kill = async (): Promise<void> => { if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); } await exited; };
	return new Promise((ready, fail) => {
		let text = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			text += chunk;
			if (!text.includes('\n')) { return; }
			const line = text.split('\n')[0] ?? '';
			if ((JSON.parse(line) as { ready?: boolean }).ready) { ready({ pid: child.pid ?? 0, ms: performance.now() - started, kill }); } else { fail(new Error(`the Host did not start: ${line}`)); }
		});
		child.once('exit', (code) => fail(new Error(`the Host exited (${code}) before it was ready`)));
	});
}

/** Lets every waiting agent of the bench end. */
function openGate(workspace: string, gateDir: string): void {
	mkdirSync(join(workspace, gateDir), { recursive: true });
	writeFileSync(join(workspace, gateDir, 'open'), '');
}

async function benchOne(inFlight: number, restarts: number, log: (line: string) => void): Promise<RestartRow> {
	const gateDir = `gate-${inFlight}`;
	const host = await startBenchHost({
		agentTargets: [{ id: 'wait', adapter: 'command', argv: ['sh', '-c', `while [ ! -e ${gateDir}/open ]; do sleep 0.2; done`], isolation: 'none' }],
		maxParallelRuns: Math.max(inFlight, 1),
	});
	const env: NodeJS.ProcessEnv = { ...host.env };
	delete env['TUTTI_IPC_HOOK'];
	let current: { kill: () => Promise<void> } | undefined;
	try {
		const { issueId } = await host.call<{ issueId: string }>('issue/create', { title: `Restart with ${inFlight} in flight`, autoAccept: true });
		for (let i = 0; i < inFlight; i++) {
			await host.call('task/add', { issueId, taskId: `t${i}`, title: `Waits ${i}`, agentTargetId: 'wait' });
		}
		const running = async (call: typeof host.call): Promise<true | undefined> => {
			const { runs } = await call<{ runs: { status: string }[] }>('run/list', { issueId });
			return runs.filter((r) => r.status === 'running').length === inFlight ? true : undefined;
		};
		await until(`${inFlight} Runs running`, () => running(host.call), 20, 120_000);
		process.kill(host.pid, 'SIGKILL');
		const restartMs: number[] = [];
		for (let i = 0; i < restarts; i++) {
			const restarted = await startHostTimed(host.workspace, env);
			current = restarted;
			restartMs.push(restarted.ms);
			await restarted.kill();
			current = undefined;
		}
		// The waiting agents end while no Host runs; the next start settles every one of them before it is ready.
		openGate(host.workspace, gateDir);
		await until(`${inFlight} Runs to exit`, () => (inFlight === 0 || readdirSync(join(host.workspace, '.tutti', 'runs'))
			.filter((d) => d.startsWith('run-')).every((d) => existsSync(join(host.workspace, '.tutti', 'runs', d, 'exit.json'))) ? true : undefined), 20, 120_000);
		const settling = await startHostTimed(host.workspace, env);
		current = settling;
		await settling.kill();
		current = undefined;
		log(`${inFlight} in flight: ${restartMs.map((ms) => ms.toFixed(0)).join(', ')} ms; ended while down: ${settling.ms.toFixed(0)} ms`);
		return { inFlight, restartMs, endedWhileDownMs: settling.ms };
	} finally {
		await current?.kill();
		openGate(host.workspace, gateDir);
		await host.stop();
	}
}

export async function benchRestartToReady(options: { inFlight?: readonly number[]; restarts?: number; log?: (line: string) => void } = {}): Promise<RestartRow[]> {
	const rows: RestartRow[] = [];
	for (const n of options.inFlight ?? [0, 4, 16]) {
		rows.push(await benchOne(n, options.restarts ?? 7, options.log ?? (() => undefined)));
	}
	return rows;
}

export function formatRestartToReady(rows: readonly RestartRow[]): string {
	const base = median(rows.find((r) => r.inFlight === 0)?.restartMs ?? [NaN]);
	const lines = rows.map((r) => `| ${r.inFlight} | ${fmtMs(median(r.restartMs))} | ${fmtMs(Math.min(...r.restartMs))} – ${fmtMs(Math.max(...r.restartMs))} | ${(median(r.restartMs) / base).toFixed(2)}× | ${r.restartMs.length} | ${fmtMs(r.endedWhileDownMs)} |`);
	return [
		'A `tutti host` killed with SIGKILL while N worker Runs wait (their supervisors live on), then started again on the same workspace: spawn → its `ready` line, which it prints once every Run in flight is reconciled (re-attached to its live process). Last column: the N agents end while no Host runs, and one more start settles all N before it is ready.',
		'',
		'| Runs in flight | restart to ready (median) | min – max | ÷ 0 in flight | restarts | N ended while down: restart to ready |',
		'|---|---|---|---|---|---|',
		...lines,
	].join('\n');
}

if (require.main === module) {
	void (async () => {
		const rows = await benchRestartToReady({ log: (l) => console.error(l) });
		console.log(formatRestartToReady(rows));
	})();
}
