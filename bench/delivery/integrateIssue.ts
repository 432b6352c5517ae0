// `tutti issue integrate` of a 50-task issue: a real `tutti host` on a real git repository, 50 worktree
// tasks whose agents (command targets) each wrote their own file and were accepted automatically; then the real CLI
// (`tutti issue integrate --as-user --json`, a whole process) merges the 50 accepted commits into `main` (checked out
// in the workspace, so the workspace moves with it). Between repetitions `main` and the workspace go back to where
// they were. Beside it the same request over the socket (the Host's own time) and what git did, from git's own
// trace (GIT_TRACE2_EVENT in the Host's environment). Medians only; never assertions.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchHost, cliScript, startBenchHost } from '../peers/hostFixture.js';
import { fmtMs, median } from '../stats.js';
import { commitProject, gitSync, processCpuMs } from './gitFixture.js';
import { projectFiles } from './worktreeRuns.js';

export interface GitTrace {
	/** git processes started. */
	processes: number;
	/** Subcommands by count, most first. */
	commands: [string, number][];
}

export interface IntegrateBench {
	readonly tasks: number;
	readonly repetitions: number;
	/** `tutti issue integrate` whole process, ms. */
	readonly cliMs: number[];
	/** `issue/integrate` over the socket (the Host's time plus a small client), ms. */
	readonly socketMs: number[];
	/** `node -e 0`, the floor of any whole process. */
	readonly nodeMs: number[];
	/** CPU time of one integration over the socket (ms): the Host process, and the git processes it ran. */
	readonly hostCpuMs: number[];
	readonly gitCpuMs: number[];
	readonly mergeParents: number;
	readonly trace: GitTrace;
	readonly setupMs: number;
}

const agentScript = `const fs = require('node:fs');
const task = process.env.TUTTI_TASK_ID;
fs.mkdirSync('features', { recursive: true });
fs.writeFileSync('features/' + task + '.ts', 'export const ' + task + ' = ' + JSON.stringify(fs.readFileSync(0, 'utf8')) + ';\\n');
`;

function wholeProcess(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ ms: number; code: number | null; out: string }> {
	return new Promise((done, fail) => {
		const started = performance.now();
		const child = spawn(process.execPath, [...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
		child.stderr.setEncoding('utf8').on('data', (c: string) => { out += c; });
		child.on('error', fail);
		child.on('close', (code) => done({ ms: performance.now() - started, code, out }));
	});
}

function readTrace(file: string): GitTrace {
	const counts = new Map<string, number>();
	let processes = 0;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (!line.includes('"event":"start"')) { continue; }
		const argv = (JSON.parse(line) as { argv?: string[] }).argv ?? [];
		processes += 1;
		const name = argv.slice(1, argv[1] === 'merge-base' || argv[1] === 'worktree' ? 3 : 2).join(' ');
		counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	return { processes, commands: [...counts.entries()].sort((a, b) => b[1] - a[1]) };
}

async function waitForAccepted(host: BenchHost, issueId: string, tasks: number): Promise<void> {
	const deadline = Date.now() + 300_000;
	for (;;) {
		const got = await host.call<{ tasks: { status: string; acceptanceState: string }[] }>('issue/get', { issueId });
		const done = got.tasks.filter((t) => t.status === 'completed' && t.acceptanceState !== '').length;
		if (done === tasks) { return; }
		const failed = got.tasks.filter((t) => t.status === 'failed' || t.status === 'canceled').length;
		if (failed > 0) { throw new Error(`${failed} tasks failed`); }
		if (Date.now() > deadline) { throw new Error(`only ${done} of ${tasks} tasks accepted after 5 min`); }
		await new Promise((r) => setTimeout(r, 200));
	}
}

export async function benchIntegrate(options: { tasks?: number; repetitions?: number; log?: (line: string) => void } = {}): Promise<IntegrateBench> {
	const tasks = options.tasks ?? 50;
	const repetitions = options.repetitions ?? 3;
	const log = options.log ?? (() => undefined);
	let traceFile = '';
	let scriptFile = '';
	const savedTrace = process.env['GIT_TRACE2_EVENT'];
	const host = await startBenchHost({
		agentTargets: [{ id: 'iso', adapter: 'command', argv: [process.execPath, '__SCRIPT__'], isolation: 'worktree' }],
		maxParallelRuns: 8,
	}, [], (workspace) => {
		commitProject(workspace, projectFiles);
		traceFile = join(workspace, '.tutti', 'git-trace.jsonl');
		scriptFile = join(workspace, '.tutti', 'agent.js');
		writeFileSync(scriptFile, agentScript);
		const configFile = join(workspace, '.tutti', 'config.json');
		writeFileSync(configFile, readFileSync(configFile, 'utf8').replace('__SCRIPT__', scriptFile));
		process.env['GIT_TRACE2_EVENT'] = traceFile;
	});
	if (savedTrace === undefined) { delete process.env['GIT_TRACE2_EVENT']; } else { process.env['GIT_TRACE2_EVENT'] = savedTrace; }
	try {
		const setupStarted = performance.now();
		log(`${tasks} worktree tasks run and are accepted …`);
		const { issueId } = await host.call<{ issueId: string }>('issue/create', { title: `Integrate ${tasks}`, autoAccept: true, dispatchPaused: true });
		for (let i = 0; i < tasks; i++) {
			await host.call('task/add', { issueId, taskId: `feature${i}`, title: `Feature ${i}`, content: `feature ${i}`, agentTargetId: 'iso' });
		}
		await host.call('issue/resume', { issueId });
		await waitForAccepted(host, issueId, tasks);
		const setupMs = performance.now() - setupStarted;
		const ws = host.workspace;
		const before = gitSync(ws, 'rev-parse', 'main');
		const env = { ...host.env, GIT_TRACE2_EVENT: undefined };
		const cliMs: number[] = [];
		const socketMs: number[] = [];
		const nodeMs: number[] = [];
		const hostCpuMs: number[] = [];
		const gitCpuMs: number[] = [];
		let mergeParents = 0;
		let trace: GitTrace = { processes: 0, commands: [] };
		log(`integrate ×${repetitions} (CLI, then the socket) …`);
		for (let i = 0; i < repetitions; i++) {
			writeFileSync(traceFile, '');
			const cli = await wholeProcess([cliScript, 'issue', 'integrate', '--issue-id', issueId, '--as-user', '--json'], env, ws);
			if (cli.code !== 0) { throw new Error(`tutti issue integrate failed (${cli.code}): ${cli.out.slice(0, 500)}`); }
			if (i === 0) {
				trace = readTrace(traceFile);
				mergeParents = gitSync(ws, 'log', '-1', '--format=%P', 'main').split(' ').length;
			}
			cliMs.push(cli.ms);
			gitSync(ws, 'reset', '-q', '--hard', before);
			const cpuBefore = processCpuMs(host.pid);
			const started = performance.now();
			await host.call('issue/integrate', { issueId });
			socketMs.push(performance.now() - started);
			const cpuAfter = processCpuMs(host.pid);
			hostCpuMs.push(cpuAfter.own - cpuBefore.own);
			gitCpuMs.push(cpuAfter.children - cpuBefore.children);
			gitSync(ws, 'reset', '-q', '--hard', before);
			nodeMs.push((await wholeProcess(['-e', '0'], env, ws)).ms);
		}
		return { tasks, repetitions, cliMs, socketMs, nodeMs, hostCpuMs, gitCpuMs, mergeParents, trace, setupMs };
	} finally {
		await host.stop();
	}
}

export function formatIntegrate(r: IntegrateBench): string {
	const cli = median(r.cliMs);
	const socket = median(r.socketMs);
	const top = r.trace.commands.slice(0, 6).map(([c, n]) => `\`git ${c}\` ×${n}`).join(', ');
	return [
		`${r.tasks} worktree tasks of one issue, each with its own accepted commit (a file of its own off the issue base, in a ${projectFiles.toLocaleString('en-US')}-file repository); ` +
			`\`main\` checked out in the workspace (it moves with the branch). Setting up (${r.tasks} Runs through a real \`tutti host\`, accepted automatically) took ${(r.setupMs / 1000).toFixed(1)} s. ` +
			`Median of ${r.repetitions} integrations each way; \`main\` and the workspace reset between them.`,
		'',
		'| what | median | min–max | n |',
		'|---|---|---|---|',
		`| \`tutti issue integrate --as-user --json\`, whole process | **${fmtMs(cli)}** | ${fmtMs(Math.min(...r.cliMs))}–${fmtMs(Math.max(...r.cliMs))} | ${r.cliMs.length} |`,
		`| \`issue/integrate\` over the socket (Host time) | ${fmtMs(socket)} | ${fmtMs(Math.min(...r.socketMs))}–${fmtMs(Math.max(...r.socketMs))} | ${r.socketMs.length} |`,
		`| CPU time of one \`issue/integrate\`: the Host process + the git processes it ran | ${fmtMs(median(r.hostCpuMs))} + ${fmtMs(median(r.gitCpuMs))} | | ${r.hostCpuMs.length} |`,
		`| \`node -e 0\` (floor of a process) | ${fmtMs(median(r.nodeMs))} | ${fmtMs(Math.min(...r.nodeMs))}–${fmtMs(Math.max(...r.nodeMs))} | ${r.nodeMs.length} |`,
		'',
		`The result: one merge commit with ${r.mergeParents} parents (the ${r.tasks} accepted commits; \`main\` is an ancestor of each, so it is not one). Per task: ${fmtMs(socket / r.tasks)} of Host time. ` +
			`git processes the Host started for one integration (GIT_TRACE2_EVENT): ${r.trace.processes} (${(r.trace.processes / r.tasks).toFixed(1)} per task): ${top}.`,
	].join('\n');
}

if (require.main === module) {
	void (async () => {
		console.log(formatIntegrate(await benchIntegrate({ log: (l) => console.error(`  ${l}`) })));
	})();
}
