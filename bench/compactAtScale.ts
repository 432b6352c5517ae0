// The default (compact) `tutti plan issue get` at 1,000, 10,000 and 100,000 tasks: its bytes beside `--full`'s (the real
// CLI's stdout at a task_settled checkpoint, after the agent read its plan once), and the Host's time for each (the same
// requests over the socket with the source session's token: plan/getCompact and plan/get); and `issue list` right
// after a commit, on a Host of its own per size (the same two issues listed at every size). Medians only.
import { spawn } from 'node:child_process';
import { type BenchHost, cliScript, startBenchHost } from './peers/hostFixture.js';
import { settledIssue } from './compactSnapshot.js';
import { processCpuMs } from './delivery/gitFixture.js';
import { fmtMs, median } from './stats.js';

export interface CompactScaleRow {
	readonly tasks: number;
	readonly compactBytes: number;
	readonly fullBytes: number;
	/** plan/getCompact over the socket, ms. */
	readonly compactHostMs: number[];
	/** plan/get (what `--full` asks) over the socket, ms. */
	readonly fullHostMs: number[];
	/** The Host process's CPU time per request (ms, averaged over the n requests; /proc, 10 ms ticks). */
	readonly compactHostCpuMs: number;
	readonly fullHostCpuMs: number;
	/** issue/list over the socket (the developer's), ms, each right after a commit (so no cached statement answers it). */
	readonly listHostMs: number[];
	/** Tasks in the Host's issues when issue/list was timed (the plan's; the side issue has none). */
	readonly tasksInStore: number;
}

function cliStdout(host: BenchHost, token: string, args: readonly string[]): Promise<string> {
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, [cliScript, ...args], { cwd: host.workspace, env: { ...host.env, TUTTI_SESSION_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
		child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
		child.on('error', fail);
		child.on('close', (code) => { if (code === 0) { done(out); } else { fail(new Error(`tutti ${args.join(' ')}: exit ${code}: ${err.slice(0, 300)}`)); } });
	});
}

async function timed(n: number, call: () => Promise<unknown>): Promise<number[]> {
	const ms: number[] = [];
	for (let i = 0; i < n; i++) {
		const started = performance.now();
		await call();
		ms.push(performance.now() - started);
	}
	return ms;
}

/** One size on a Host of its own (so `issue list` lists the same two issues at every size: the plan's and a side issue). */
async function oneSize(tasks: number): Promise<CompactScaleRow> {
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }], maxParallelRuns: 4 });
	try {
		const side = await host.call<{ issueId: string }>('issue/create', { title: 'Side issue' });
		const issue = await settledIssue(host, tasks, `scale${tasks}`);
		const get = ['plan', 'issue', 'get', '--issue-id', issue.issueId, '--json'];
		const compact = await cliStdout(host, issue.token, get);
		const full = await cliStdout(host, issue.token, [...get, '--full']);
		const n = tasks > 5000 ? 5 : 10;
		const cpu0 = processCpuMs(host.pid).own;
		const compactHostMs = await timed(n, () => host.call('plan/getCompact', { issueId: issue.issueId }, issue.token));
		const cpu1 = processCpuMs(host.pid).own;
		const fullHostMs = await timed(n, () => host.call('plan/get', { issueId: issue.issueId }, issue.token));
		const cpu2 = processCpuMs(host.pid).own;
		const listHostMs: number[] = [];
		for (let i = 0; i < 15; i++) {
			await host.call('issue/update', { issueId: side.issueId, title: `Side issue ${tasks}-${i}` });
			listHostMs.push(...await timed(1, () => host.call('issue/list', {})));
		}
		return {
			listHostMs, tasksInStore: tasks,
			tasks, compactBytes: Buffer.byteLength(compact), fullBytes: Buffer.byteLength(full),
			compactHostMs, fullHostMs, compactHostCpuMs: (cpu1 - cpu0) / n, fullHostCpuMs: (cpu2 - cpu1) / n,
		};
	} finally {
		await host.stop();
	}
}

export async function benchCompactAtScale(options: { sizes?: readonly number[]; log?: (line: string) => void } = {}): Promise<CompactScaleRow[]> {
	const log = options.log ?? (() => undefined);
	const rows: CompactScaleRow[] = [];
	for (const tasks of options.sizes ?? [1000, 10_000, 100_000]) {
		log(`${tasks.toLocaleString('en-US')}-task plan …`);
		rows.push(await oneSize(tasks));
	}
	return rows;
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export function formatCompactAtScale(rows: readonly CompactScaleRow[]): string {
	const lines = [
		'`tutti plan issue get` (default, compact) and `--full` at a task_settled checkpoint: stdout bytes of the real CLI, and the Host\'s time for the request (over the socket with the source session\'s token, client included; median):',
		'',
		'| plan | compact bytes | `--full` bytes | compact / full | compact: Host time (median) | `--full`: Host time (median) | full ÷ compact time | compact: Host CPU per request | `--full`: Host CPU per request | n | `issue list` of two issues (the plan\'s and a side issue) right after a commit to the side issue: Host time (median, n=15), tasks in the store |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
		...rows.map((r) => `| ${r.tasks.toLocaleString('en-US')} tasks | ${kb(r.compactBytes)} | ${kb(r.fullBytes)} | ${(r.compactBytes / r.fullBytes * 100).toFixed(1)}% | ` +
			`**${fmtMs(median(r.compactHostMs))}** | ${fmtMs(median(r.fullHostMs))} | ${(median(r.fullHostMs) / median(r.compactHostMs)).toFixed(1)}× | ${fmtMs(r.compactHostCpuMs)} | ${fmtMs(r.fullHostCpuMs)} | ${r.compactHostMs.length} | ${fmtMs(median(r.listHostMs))}, ${r.tasksInStore.toLocaleString('en-US')} |`),
	];
	const small = rows[0];
	const large = rows[rows.length - 1];
	if (small && large && small !== large) {
		lines.push('', `From ${small.tasks.toLocaleString('en-US')} to ${large.tasks.toLocaleString('en-US')} tasks: compact bytes ×${(large.compactBytes / small.compactBytes).toFixed(2)}, ` +
			`compact Host time ×${(median(large.compactHostMs) / median(small.compactHostMs)).toFixed(2)} (goal ≤ 1.5× from 1k to 100k; CPU ×${(large.compactHostCpuMs / small.compactHostCpuMs).toFixed(1)}), \`--full\` bytes ×${(large.fullBytes / small.fullBytes).toFixed(1)}, \`issue list\` Host time ×${(median(large.listHostMs) / median(small.listHostMs)).toFixed(2)}.`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	void (async () => {
		console.log(formatCompactAtScale(await benchCompactAtScale({ log: (l) => console.error(`  ${l}`) })));
	})();
}
