// Wake latency: from a worker Run's process exit to the start of the source session's wake Turn, over a
// chain of settlements (each task depends on the one before, so every settlement wakes the source on its own). The
// source agent is a `command` target that records its start time first thing, then drives the plan with the CLI.
// Floor: spawning the same kind of process (node) and reaching its first line. Then the Host's memory while 16
// command Runs stream output at once. Medians only; never assertions.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchHost, processMemory, startBenchHost } from '../peers/hostFixture.js';
import { fmtMs, median, percentile } from '../stats.js';

export interface WakeLatencyResult {
	readonly settlements: number;
	/** Per settlement: worker exit → source Turn's first line, ms. */
	readonly wakeMs: number[];
	/** spawn(node script) → the script's first line, ms. */
	readonly spawnFloorMs: number[];
	readonly memory?: RunMemory;
	readonly memoryError?: string;
	/** Per settlement, where the time went (from the run directories' own timestamps); see WakeStages. */
	readonly stages?: WakeStages[];
}

/**
 * One settlement's path, from the timestamps the supervisors and the runner write (ms, each from the previous step):
 * the worker's exit record, the wake Turn's spec (the runner's launch began: the Host noticed the exit, settled the
 * Run, opened the checkpoint and claimed the wake), its pid record (its supervisor spawned the agent), and the
 * agent's first line (Node's own start-up).
 */
export interface WakeStages {
	readonly exitRecordedMs: number;
	readonly settledAndClaimedMs: number;
	readonly agentSpawnedMs: number;
	readonly agentFirstLineMs: number;
}

export interface RunMemory {
	readonly runs: number;
	readonly hostRssBefore: number;
	readonly hostRssPeakSampled: number;
	readonly hostRssAfter: number;
	readonly hostHwm: number;
	readonly outputBytesPerRun: number;
	readonly durationMs: number;
}

const now = 'performance.timeOrigin + performance.now()';

/** The source agent: first line records the Turn's start; then one step of the plan per wake. */
const sourceAgentSource = (chain: number): string => `const startedAt = ${now};
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const prompt = fs.readFileSync(0, 'utf8');
const m = /^<!-- TUTTI_MODE_CHECKPOINT_WAKE (\\{.*\\}) -->/.exec(prompt.split('\\n')[0] || '');
const log = (e) => fs.appendFileSync(process.env.WAKE_LOG, JSON.stringify(e) + '\\n');
if (!m) { log({ ev: 'error', error: 'no wake marker' }); process.exit(2); }
const { kind, issueId, checkpointId, graphRevision } = JSON.parse(m[1]);
log({ ev: 'turn', kind, t: startedAt });
const tutti = (...args) => JSON.parse(execFileSync('tutti', [...args, '--json'], { encoding: 'utf8' }));
const fence = (cp, rev, id) => ['--issue-id', issueId, '--checkpoint-id', cp, '--expected-graph-revision', String(rev), '--request-id', id];
try {
	if (kind === 'initial_schedule') {
		const ops = Array.from({ length: ${chain} }, (_, i) => ({ kind: 'add', task: { taskId: 'c' + i, title: 'Step ' + i, agentTargetId: 'worker', dependencyTaskIds: i ? ['c' + (i - 1)] : [] } }));
		const mutated = tutti('plan', 'issue', 'mutate', ...fence(checkpointId, graphRevision, checkpointId + '-m'), '--operations-json', JSON.stringify(ops));
		tutti('plan', 'issue', 'schedule', ...fence(checkpointId, mutated.graphRevision, checkpointId + '-s'), '--task-ids-json', '["c0"]');
	} else if (kind === 'all_tasks_terminal') {
		tutti('plan', 'issue', 'complete', ...fence(checkpointId, graphRevision, checkpointId + '-c'), '--decision', 'goal_satisfied');
	} else {
		const s = tutti('plan', 'issue', 'get', '--issue-id', issueId);
		const cp = s.activeCheckpoint.checkpointId;
		const rev = s.execution.graphRevision;
		if (s.readyTaskIds.length > 0) {
			tutti('plan', 'issue', 'schedule', ...fence(cp, rev, cp + '-s'), '--task-ids-json', JSON.stringify(s.readyTaskIds));
		} else {
			tutti('plan', 'issue', 'acknowledge', ...fence(cp, rev, cp + '-a'));
		}
	}
} catch (e) {
	log({ ev: 'error', kind, error: String(e.stdout || e.message) });
	process.exit(1);
}
`;

/** A worker Run: records the instant it exits. */
const workerSource = `require('node:fs').appendFileSync(process.env.WAKE_LOG, JSON.stringify({ ev: 'exit', t: ${now} }) + '\\n');
process.exit(0);
`;

/** A Run that streams output: 200 lines of ~100 bytes every 10 ms (about 2 s, 20 KB). */
const streamerSource = `let i = 0;
const line = 'x'.repeat(90);
const timer = setInterval(() => { process.stdout.write(i + ' ' + line + '\\n'); if (++i === 200) { clearInterval(timer); } }, 10);
`;

interface LogEntry { ev: string; t?: number; kind?: string; error?: string }

function readLog(file: string): LogEntry[] {
	return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter((l) => l).map((l) => JSON.parse(l) as LogEntry) : [];
}

async function waitUntil<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) { return value; }
		if (Date.now() > deadline) { throw new Error(`timed out waiting for ${what}`); }
		await new Promise((r) => setTimeout(r, 100));
	}
}

function spawnFloor(script: string, env: NodeJS.ProcessEnv): Promise<number> {
	return new Promise((done, fail) => {
		const before = performance.timeOrigin + performance.now();
		const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
		child.on('error', fail);
		child.on('close', () => done(Number(out) - before));
	});
}

async function measureRunMemory(host: BenchHost, runs: number): Promise<RunMemory> {
	const issue = await host.call<{ issueId: string }>('issue/create', { title: 'Streaming Runs', content: 'memory', autoAccept: true });
	await host.call('issue/pause', { issueId: issue.issueId });
	for (let i = 0; i < runs; i++) {
		await host.call('task/add', { issueId: issue.issueId, taskId: `s${i}`, title: `Stream ${i}`, agentTargetId: 'streamer' });
	}
	const before = processMemory(host.pid)?.rss ?? NaN;
	let peak = before;
	const start = Date.now();
	await host.call('issue/resume', { issueId: issue.issueId });
	const sampler = setInterval(() => { peak = Math.max(peak, processMemory(host.pid)?.rss ?? 0); }, 50);
	try {
		await waitUntil('the streaming Runs to finish', 120_000, async () => {
			const got = await host.call<{ tasks: { status: string }[] }>('issue/get', { issueId: issue.issueId });
			return got.tasks.every((t) => t.status !== 'not_started' && t.status !== 'running') ? true : undefined;
		});
	} finally {
		clearInterval(sampler);
	}
	const after = processMemory(host.pid);
	return { runs, hostRssBefore: before, hostRssPeakSampled: peak, hostRssAfter: after?.rss ?? NaN, hostHwm: after?.peak ?? NaN, outputBytesPerRun: 200 * 93, durationMs: Date.now() - start };
}

export async function benchWakeLatency(options: { settlements?: number; log?: (line: string) => void } = {}): Promise<WakeLatencyResult> {
	const settlements = options.settlements ?? Number(process.env['WAKE_N'] ?? 50);
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-wake-'));
	const wakeLog = join(dir, 'wake.log');
	const scripts = { source: join(dir, 'source-agent.js'), worker: join(dir, 'worker.js'), streamer: join(dir, 'streamer.js'), floor: join(dir, 'floor.js') };
	writeFileSync(scripts.source, sourceAgentSource(settlements));
	writeFileSync(scripts.worker, workerSource);
	writeFileSync(scripts.streamer, streamerSource);
	writeFileSync(scripts.floor, `process.stdout.write(String(${now}));\n`);
	const env = { WAKE_LOG: wakeLog };
	const host = await startBenchHost({
		agentTargets: [
			{ id: 'source', adapter: 'command', argv: [process.execPath, scripts.source], env },
			{ id: 'worker', adapter: 'command', argv: [process.execPath, scripts.worker], env },
			{ id: 'streamer', adapter: 'command', argv: [process.execPath, scripts.streamer] },
		],
		maxParallelRuns: 16,
	});
	try {
		const spawnFloorMs: number[] = [];
		for (let i = -2; i < 20; i++) {
			const ms = await spawnFloor(scripts.floor, host.env);
			if (i >= 0) { spawnFloorMs.push(ms); }
		}
		options.log?.(`wake latency over ${settlements} settlements …`);
		await host.call('plan/create', { title: 'Wake latency', content: 'a chain of steps', requestId: 'wake-bench', autoAccept: true, sourceTargetId: 'source' });
		const entries = await waitUntil('the source agent to see every settlement', 60_000 + settlements * 4_000, () => {
			const log = readLog(wakeLog);
			const failure = log.find((e) => e.ev === 'error');
			if (failure) { throw new Error(`the source agent failed: ${failure.error ?? ''}`); }
			return log.filter((e) => e.ev === 'turn' && e.kind === 'task_settled').length >= settlements ? log : undefined;
		});
		const wakeMs: number[] = [];
		let lastExit: number | undefined;
		for (const e of [...entries].sort((a, b) => (a.t ?? 0) - (b.t ?? 0))) {
			if (e.ev === 'exit') { lastExit = e.t; }
			if (e.ev === 'turn' && e.kind === 'task_settled' && lastExit !== undefined && e.t !== undefined) {
				wakeMs.push(e.t - lastExit);
				lastExit = undefined;
			}
		}
		const stages = wakeStages(join(host.workspace, '.tutti', 'runs'), entries);
		let memory: RunMemory | undefined;
		let memoryError: string | undefined;
		try {
			options.log?.('Host memory with 16 streaming Runs …');
			memory = await measureRunMemory(host, 16);
		} catch (error) {
			memoryError = (error as Error).message;
		}
		return { settlements: wakeMs.length, wakeMs, spawnFloorMs, memory, memoryError, stages };
	} finally {
		await host.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

interface RunDirTimes { script: string; launchedAt: number; spawnedAt: number; endedAt: number }

function runDirTimes(runsDir: string): RunDirTimes[] {
	const out: RunDirTimes[] = [];
	for (const name of readdirSync(runsDir)) {
		try {
			const spec = JSON.parse(readFileSync(join(runsDir, name, 'spec.json'), 'utf8')) as { args?: string[]; launchedAtUnixMs: number };
			const pid = JSON.parse(readFileSync(join(runsDir, name, 'pid.json'), 'utf8')) as { startedAtUnixMs: number };
			const exitFile = join(runsDir, name, 'exit.json');
			const exit = existsSync(exitFile) ? JSON.parse(readFileSync(exitFile, 'utf8')) as { endedAtUnixMs: number } : { endedAtUnixMs: NaN };
			out.push({ script: (spec.args ?? []).join(' '), launchedAt: spec.launchedAtUnixMs, spawnedAt: pid.startedAtUnixMs, endedAt: exit.endedAtUnixMs });
		} catch {
			// not a Run of this chain (or still being written)
		}
	}
	return out;
}

/** Pairs each worker exit with the wake Turn that followed it, through the run directories' timestamps. */
function wakeStages(runsDir: string, entries: readonly LogEntry[]): WakeStages[] {
	const dirs = runDirTimes(runsDir);
	const workers = dirs.filter((d) => d.script.includes('worker.js')).sort((a, b) => a.endedAt - b.endedAt);
	const turns = dirs.filter((d) => d.script.includes('source-agent.js')).sort((a, b) => a.launchedAt - b.launchedAt);
	const sorted = [...entries].sort((a, b) => (a.t ?? 0) - (b.t ?? 0));
	const stages: WakeStages[] = [];
	let exitAt: number | undefined;
	for (const e of sorted) {
		if (e.ev === 'exit') { exitAt = e.t; continue; }
		if (e.ev !== 'turn' || e.kind !== 'task_settled' || exitAt === undefined || e.t === undefined) { continue; }
		const worker = workers.find((w) => w.endedAt >= exitAt! - 5);
		const turn = turns.find((t) => t.launchedAt >= exitAt! - 5 && t.spawnedAt <= e.t! + 5);
		if (worker && turn) {
			stages.push({
				exitRecordedMs: worker.endedAt - exitAt,
				settledAndClaimedMs: turn.launchedAt - worker.endedAt,
				agentSpawnedMs: turn.spawnedAt - turn.launchedAt,
				agentFirstLineMs: e.t - turn.spawnedAt,
			});
		}
		exitAt = undefined;
	}
	return stages;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function formatWakeLatency(r: WakeLatencyResult): string {
	const wake = median(r.wakeMs);
	const floor = median(r.spawnFloorMs);
	const lines = [
		'| measurement | median | p90 | min–max | n |', '|---|---|---|---|---|',
		`| worker Run exit → source wake Turn's first line | **${fmtMs(wake)}** | ${fmtMs(percentile(r.wakeMs, 90))} | ${fmtMs(Math.min(...r.wakeMs))}–${fmtMs(Math.max(...r.wakeMs))} | ${r.settlements} |`,
		`| floor: spawn(node script) → its first line | ${fmtMs(floor)} | ${fmtMs(percentile(r.spawnFloorMs, 90))} | ${fmtMs(Math.min(...r.spawnFloorMs))}–${fmtMs(Math.max(...r.spawnFloorMs))} | ${r.spawnFloorMs.length} |`,
		'', `Wake latency above the spawn floor: ${fmtMs(wake - floor)} (${(wake / floor).toFixed(2)}× the floor): settlement, checkpoint, wake and the Turn's launch.`,
	];
	if (r.stages && r.stages.length > 0) {
		const st = r.stages;
		const col = (pick: (x: WakeStages) => number): string => fmtMs(median(st.map(pick)));
		lines.push('', `Where it goes (medians over ${st.length} settlements, from the run directories' timestamps): worker exit → its exit record ${col((x) => x.exitRecordedMs)}; `
			+ `→ the wake Turn's launch begins (the Host noticed the exit, settled the Run, opened the checkpoint, claimed the wake) ${col((x) => x.settledAndClaimedMs)}; `
			+ `→ its supervisor spawned the agent ${col((x) => x.agentSpawnedMs)}; → the agent's first line ${col((x) => x.agentFirstLineMs)}.`);
	}
	if (r.memory) {
		const m = r.memory;
		lines.push('', `Host memory with ${m.runs} concurrent command Runs each streaming ${(m.outputBytesPerRun / 1024).toFixed(0)} KB over ~2 s (all done in ${fmtMs(m.durationMs)}): ` +
			`RSS ${mib(m.hostRssBefore)} before → peak ${mib(m.hostRssPeakSampled)} (sampled every 50 ms; lifetime peak VmHWM ${mib(m.hostHwm)}) → ${mib(m.hostRssAfter)} after. ` +
			'RSS read from /proc (the live-Host section reports its JS heap).');
	} else if (r.memoryError) {
		lines.push('', `Host memory with 16 Runs was not measured: ${r.memoryError}`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	benchWakeLatency({ log: (l) => console.error(l) }).then((r) => console.log(formatWakeLatency(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
