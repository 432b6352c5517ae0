// A live Host holding 100k tasks (100 managed issues of 1,000 tasks, set up over the socket): its RSS and JS heap
// (read through a preload module that writes process.memoryUsage() after a GC when the Host gets SIGUSR2), before and
// after the first `issue list` (which keeps each issue's tasks in memory), and
// `plan/get` (readyTaskIds, Tutti's "next") as a socket round trip on one of those issues.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchHost, startBenchHost } from '../peers/hostFixture.js';
import { fmtMs, median, percentile } from '../stats.js';

interface Memory { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }

export interface HostMemoryResult {
	readonly tasks: number;
	readonly setupMs: number;
	readonly empty: Memory;
	readonly loaded: Memory;
	/** After one `issue/list` (the board's read): every issue's tasks are then kept in memory (src/store/taskCache.ts). */
	readonly listed: Memory;
	/** That `issue/list`, ms (the first: it builds every issue's kept view). */
	readonly firstListMs: number;
	readonly planGetMs: number[];
	readonly readyTasks: number;
}

const probeSource = (file: string): string => `import { writeFileSync } from 'node:fs';
process.on('SIGUSR2', () => {
	globalThis.gc?.();
	const m = process.memoryUsage();
	writeFileSync(${JSON.stringify(file)}, JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers }));
});
`;

async function probe(host: BenchHost, file: string): Promise<Memory> {
	rmSync(file, { force: true });
	process.kill(host.pid, 'SIGUSR2');
	const deadline = Date.now() + 10_000;
	while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
		if (Date.now() > deadline) { throw new Error('the Host did not answer the memory probe'); }
		await new Promise((r) => setTimeout(r, 20));
	}
	return JSON.parse(readFileSync(file, 'utf8')) as Memory;
}

export async function benchHostMemory(options: { issues?: number; tasksPerIssue?: number; log?: (line: string) => void } = {}): Promise<HostMemoryResult> {
	const issues = options.issues ?? 100;
	const perIssue = options.tasksPerIssue ?? 1000;
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-hostmem-'));
	const probeFile = join(dir, 'memory.json');
	const preload = join(dir, 'probe.mjs');
	writeFileSync(preload, probeSource(probeFile));
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }] }, ['--expose-gc', '--import', preload]);
	try {
		const empty = await probe(host, probeFile);
		const session = await host.call<{ token: string }>('session/open', { role: 'source' });
		const start = Date.now();
		let last = '';
		for (let i = 0; i < issues; i++) {
			const created = await host.call<{ issueId: string; checkpointId: string; graphRevision: number }>('plan/create',
				{ title: `Memory ${i}`, content: 'host memory at 100k tasks', requestId: `mem-${i}` }, session.token);
			const operations = Array.from({ length: perIssue }, (_, t) => ({
				kind: 'add', task: { taskId: `t${t}`, title: `Task ${t}`, content: 'Implement the change described in the issue, run the tests, and report what changed.', agentTargetId: 'sh', dependencyTaskIds: t > 0 && t % 10 !== 0 ? [`t${t - 1}`] : [] },
			}));
			await host.call('plan/mutate', { issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: created.graphRevision, requestId: `mem-m-${i}`, operations: operations }, session.token);
			last = created.issueId;
			if ((i + 1) % 25 === 0) { options.log?.(`${(i + 1) * perIssue} tasks loaded`); }
		}
		const setupMs = Date.now() - start;
		const loaded = await probe(host, probeFile);
		const listStart = process.hrtime.bigint();
		await host.call('issue/list', {});
		const firstListMs = Number(process.hrtime.bigint() - listStart) / 1e6;
		const listed = await probe(host, probeFile);
		const planGetMs: number[] = [];
		let readyTasks = 0;
		for (let i = -3; i < 20; i++) {
			const t0 = process.hrtime.bigint();
			const snapshot = await host.call<{ readyTaskIds: string[] }>('plan/get', { issueId: last });
			if (i >= 0) { planGetMs.push(Number(process.hrtime.bigint() - t0) / 1e6); }
			readyTasks = snapshot.readyTaskIds.length;
		}
		return { tasks: issues * perIssue, setupMs, empty, loaded, listed, firstListMs, planGetMs, readyTasks };
	} finally {
		await host.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function formatHostMemory(r: HostMemoryResult): string {
	const mem = (m: Memory): string => `RSS ${mib(m.rss)}, JS heap ${mib(m.heapUsed)} used / ${mib(m.heapTotal)}, external ${mib(m.external)} (ArrayBuffers ${mib(m.arrayBuffers)})`;
	return [
		`| live Host (\`tutti host\`) | figure |`, '|---|---|',
		`| empty workspace (after GC) | ${mem(r.empty)} |`,
		`| ${r.tasks.toLocaleString('en')} tasks in ${Math.round(r.tasks / 1000)} managed issues (after GC; loading took ${(r.setupMs / 1000).toFixed(1)} s over the socket) | ${mem(r.loaded)} |`,
		`| the same after the first \`issue list\` (${fmtMs(r.firstListMs)}: it keeps every issue's tasks in memory for the board's later reads) | ${mem(r.listed)} |`,
		`| \`plan/get\` of one 1,000-task issue at ${r.tasks.toLocaleString('en')} tasks, socket round trip incl. JSON (${r.readyTasks} readyTaskIds) | median **${fmtMs(median(r.planGetMs))}**, p90 ${fmtMs(percentile(r.planGetMs, 90))} (n=${r.planGetMs.length}) |`,
	].join('\n');
}

if (require.main === module) {
	benchHostMemory({ log: (l) => console.error(l) }).then((r) => console.log(formatHostMemory(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
