// What a checkpoint costs the source agent: the bytes of `tutti plan issue get` (compact by default)
// beside `--full` at a task_settled checkpoint of a 1,000-task plan, and the tokens a wake costs on a 50-task plan
// (the wake prompt plus the one `plan issue get` it asks for). Tokens are estimated as characters / 4, the usual
// rule of thumb for English and JSON with Anthropic's and OpenAI's tokenizers; no tokenizer is run. Also how big a
// 5,000-task plan is as one `--operations-file` and how long its mutate takes. Figures only, never assertions.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchHost, cliScript, startBenchHost } from './peers/hostFixture.js';

interface CliOutput { code: number | null; stdout: string; stderr: string; ms: number }

function cli(host: BenchHost, token: string, args: readonly string[]): Promise<CliOutput> {
	return new Promise((done, fail) => {
		const started = process.hrtime.bigint();
		const child = spawn(process.execPath, [cliScript, ...args], { cwd: host.workspace, env: { ...host.env, TUTTI_SESSION_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
		child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
		child.on('error', fail);
		child.on('close', (code) => done({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
	});
}

async function cliOk(host: BenchHost, token: string, args: readonly string[]): Promise<CliOutput> {
	const out = await cli(host, token, args);
	if (out.code !== 0) { throw new Error(`tutti ${args.join(' ')} failed (exit ${out.code}): ${out.stdout.slice(0, 500)}${out.stderr.slice(0, 500)}`); }
	return out;
}

/** Task i of a plan in chains of ten (t0 → t1 → … → t9, t10 → …), with a sentence of content like a real plan. */
function planOperations(tasks: number): unknown[] {
	return Array.from({ length: tasks }, (_, i) => ({
		kind: 'add',
		task: {
			taskId: `t${i}`, title: `Task ${i}: implement step ${i} of the feature`, agentTargetId: 'sh',
			content: `Step ${i}: change the module for this step, add its unit tests and keep the public API stable.`,
			dependencyTaskIds: i % 10 === 0 ? [] : [`t${i - 1}`],
		},
	}));
}

interface Snapshot { activeCheckpoint: { checkpointId: string; kind: string } | null; execution: { graphRevision: number }; activeWake?: { prompt: string } | null }

/** A managed issue of `tasks` tasks whose first task ran and settled: the active checkpoint is task_settled. */
export async function settledIssue(host: BenchHost, tasks: number, label: string): Promise<{ issueId: string; token: string }> {
	const session = await host.call<{ token: string }>('session/open', { role: 'source' });
	const created = await host.call<{ issueId: string; checkpointId: string; graphRevision: number }>('plan/create',
		{ title: `Bench ${label}`, content: 'What a checkpoint costs', requestId: `bench-${label}` }, session.token);
	const fence = (checkpointId: string, revision: number, what: string): string[] => ['--issue-id', created.issueId, '--checkpoint-id', checkpointId,
		'--expected-graph-revision', String(revision), '--request-id', `${label}-${what}`, '--json'];
	// One mutate takes at most 5,000 operations: a larger plan is written in parts (chains of ten never straddle two).
	const operations = planOperations(tasks);
	let mutated = { graphRevision: created.graphRevision };
	for (let from = 0; from < operations.length; from += 5000) {
		const file = join(host.workspace, `plan-${label}-${from}.json`);
		writeFileSync(file, JSON.stringify(operations.slice(from, from + 5000)));
		mutated = JSON.parse((await cliOk(host, session.token, ['plan', 'issue', 'mutate', ...fence(created.checkpointId, mutated.graphRevision, `mutate-${from}`), '--operations-file', file])).stdout) as { graphRevision: number };
	}
	// The agent reads its plan at the initial checkpoint, as it would at that wake.
	await cliOk(host, session.token, ['plan', 'issue', 'get', '--issue-id', created.issueId, '--json']);
	await cliOk(host, session.token, ['plan', 'issue', 'schedule', ...fence(created.checkpointId, mutated.graphRevision, 'schedule'), '--task-ids-json', '["t0"]']);
	for (let i = 0; ; i++) {
		const s = await host.call<Snapshot>('plan/get', { issueId: created.issueId });
		if (s.activeCheckpoint?.kind === 'task_settled') { break; }
		if (i > 600) { throw new Error('t0 did not settle within 60 s'); }
		await new Promise((r) => setTimeout(r, 100));
	}
	return { issueId: created.issueId, token: session.token };
}

export interface CompactSnapshotBench {
	/** Bytes of stdout at a task_settled checkpoint of the 1,000-task plan. */
	readonly compactBytes1k: number;
	readonly fullBytes1k: number;
	/** The same on a 5,000-task plan (flat in the graph's size?). */
	readonly compactBytes5k: number;
	readonly fullBytes5k: number;
	/** Characters of one wake on the 50-task plan: its prompt, and the get it asks for (compact or full). */
	readonly wakePromptChars50: number;
	readonly compactChars50: number;
	readonly fullChars50: number;
	/** A 5,000-task plan as one operations file, and its `plan issue mutate --operations-file` (whole process). */
	readonly plan5kBytes: number;
	readonly mutate5kMs: number;
}

export async function benchCompactSnapshot(options: { log?: (line: string) => void } = {}): Promise<CompactSnapshotBench> {
	const log = options.log ?? (() => undefined);
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }], maxParallelRuns: 4 });
	try {
		const get = async (issue: { issueId: string; token: string }, full: boolean): Promise<string> =>
			(await cliOk(host, issue.token, ['plan', 'issue', 'get', '--issue-id', issue.issueId, ...(full ? ['--full'] : []), '--json'])).stdout;
		log('50-task plan …');
		const small = await settledIssue(host, 50, 'p50');
		const smallCompact = await get(small, false);
		const smallFull = await get(small, true);
		const prompt = (JSON.parse(smallFull) as Snapshot).activeWake?.prompt ?? '';
		log('1,000-task plan …');
		const large = await settledIssue(host, 1000, 'p1k');
		const compact1k = await get(large, false);
		const full1k = await get(large, true);
		log('5,000-task plan (one --operations-file) …');
		const plan5kBytes = Buffer.byteLength(JSON.stringify(planOperations(5000)));
		const started = Date.now();
		const huge = await settledIssue(host, 5000, 'p5k');
		const mutate5kMs = Date.now() - started;
		const compact5k = await get(huge, false);
		const full5k = await get(huge, true);
		return {
			compactBytes1k: Buffer.byteLength(compact1k), fullBytes1k: Buffer.byteLength(full1k),
			compactBytes5k: Buffer.byteLength(compact5k), fullBytes5k: Buffer.byteLength(full5k),
			wakePromptChars50: prompt.length, compactChars50: smallCompact.length, fullChars50: smallFull.length,
			plan5kBytes, mutate5kMs,
		};
	} finally {
		await host.stop();
	}
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const tokens = (chars: number): string => `~${Math.round(chars / 4).toLocaleString('en-US')} tokens`;

export function formatCompactSnapshot(r: CompactSnapshotBench): string {
	const wakeCompact = r.wakePromptChars50 + r.compactChars50;
	const wakeFull = r.wakePromptChars50 + r.fullChars50;
	return [
		'`tutti plan issue get` at a task_settled checkpoint (after the agent read its plan at the initial checkpoint), stdout bytes:',
		'',
		'| plan | default (compact) | `--full` | compact / full |',
		'|---|---|---|---|',
		`| 1,000 tasks | ${kb(r.compactBytes1k)} | ${kb(r.fullBytes1k)} | ${(r.compactBytes1k / r.fullBytes1k * 100).toFixed(1)}% |`,
		`| 5,000 tasks | ${kb(r.compactBytes5k)} | ${kb(r.fullBytes5k)} | ${(r.compactBytes5k / r.fullBytes5k * 100).toFixed(1)}% |`,
		'',
		'Tokens per wake on a 50-task plan (the wake prompt plus the one `plan issue get` it asks for; estimated as characters / 4, no tokenizer run):',
		'',
		'| reads | characters | tokens (estimate) |',
		'|---|---|---|',
		`| wake prompt + compact get | ${wakeCompact.toLocaleString('en-US')} (${r.wakePromptChars50.toLocaleString('en-US')} + ${r.compactChars50.toLocaleString('en-US')}) | ${tokens(wakeCompact)} |`,
		`| wake prompt + \`--full\` get | ${wakeFull.toLocaleString('en-US')} (${r.wakePromptChars50.toLocaleString('en-US')} + ${r.fullChars50.toLocaleString('en-US')}) | ${tokens(wakeFull)} |`,
		'',
		`A 5,000-task plan (a sentence of content per task) is ${(r.plan5kBytes / 2 ** 20).toFixed(2)} MiB of operations, under the 8 MiB request cap; ` +
			`creating the issue, \`plan issue mutate --operations-file\`, a get, a schedule and the first settlement took ${(r.mutate5kMs / 1000).toFixed(1)} s.`,
	].join('\n');
}

if (require.main === module) {
	void (async () => {
		console.log(formatCompactSnapshot(await benchCompactSnapshot({ log: (l) => console.error(`  ${l}`) })));
	})();
}
