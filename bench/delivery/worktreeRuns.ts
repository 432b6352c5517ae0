// What git costs a worker Run: its worktree before launch and its result commit when it ends, with 1 / 10
// / 100 Runs in flight at once, and the merge commit a task with 2 / 8 parents starts from. The Host's own services
// run in this process (createHostServices over a real Store, the real Dispatcher, RunLifecycle, WorktreeManager,
// prepareRunTree and the result recorder) on a real git repository; only the agent processes are scripted (the test
// harness's RunProcessPort), so the figures are the Host's work and git's, not process start-up. The same Runs in
// the shared folder (no isolation) are the baseline. Medians and totals only; never assertions.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { workspaceIdentity } from '../../src/host/delivery/gitIdentity.js';
import { newTreeBase } from '../../src/host/delivery/taskBase.js';
import { runRepository } from '../../src/store/repositories/runRepository.js';
import { commandTarget, ServiceHarness } from '../../test/unit/host/services/serviceHarness.js';
import { fmtMs, median } from '../stats.js';
import { childrenCpuMs, commitProject, GitProcessCounter, gitSync, ownCpuMs } from './gitFixture.js';

const execFileAsync = promisify(execFile);

/** Files in the bench repository (a small project). */
export const projectFiles = 1000;

export interface InFlightRow {
	readonly runs: number;
	readonly isolation: 'worktree' | 'shared folder';
	/** Per Run: all Runs admitted (issue resumed) → its agent launched, ms. */
	readonly launchMs: number[];
	/** All admitted → the last one launched. */
	readonly launchTotalMs: number;
	/** Per Run: all agents exited at once → its Run settled (result commit made and recorded), ms. */
	readonly settleMs: number[];
	readonly settleTotalMs: number;
	/** git processes the Host started for the launches, and for the results. */
	readonly gitLaunch: number;
	readonly gitResult: number;
	/** CPU time (ms, all N Runs) of the git processes, and of this process (the Host's services), for the launches and for the results. */
	readonly cpu: { gitLaunch: number; hostLaunch: number; gitResult: number; hostResult: number };
	/** The floor (worktree rows only): N `git worktree add` alone, one after another, on the same repository, ms in all. */
	readonly floorTotalMs?: number;
}

/** N trees made by `git worktree add` alone, one after another (git serialises its worktree list), in a fresh copy of the bench repository. */
async function worktreeAddFloor(n: number): Promise<number> {
	const root = mkdtempSync(join(tmpdir(), 'tutti-bench-floor-'));
	try {
		const repo = join(root, 'repo');
		commitProject(repo, projectFiles);
		const started = performance.now();
		for (let i = 0; i < n; i++) {
			await execFileAsync('git', ['worktree', 'add', '-q', '-b', `floor-${i}`, join(root, 'trees', `t${i}`), 'HEAD'], { cwd: repo });
		}
		return performance.now() - started;
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

async function inFlight(runs: number, isolation: boolean): Promise<InFlightRow> {
	const h = await ServiceHarness.open({
		config: { agentTargets: [commandTarget('agent', isolation ? { isolation: 'worktree' } : {})], maxParallelRuns: runs, autoAcceptDefault: true },
	});
	const counter = new GitProcessCounter();
	try {
		commitProject(h.workspace, projectFiles);
		const { issueId } = await h.call('issue/create', { title: 'In flight', autoAccept: true, dispatchPaused: true });
		for (let i = 0; i < runs; i++) {
			await h.call('task/add', { issueId, taskId: `t${i}`, title: `Task ${i}`, agentTargetId: 'agent' });
		}
		const launchedAt = new Map<string, number>();
		const launch = h.runs.launch.bind(h.runs);
		h.runs.launch = async (spec) => { launchedAt.set(spec.runId, performance.now()); await launch(spec); };
		counter.install();
		const cpu0 = { git: childrenCpuMs(), host: ownCpuMs() };
		const started = performance.now();
		await h.call('issue/resume', { issueId });
		await h.idle();
		const gitLaunch = counter.count;
		const cpu1 = { git: childrenCpuMs(), host: ownCpuMs() };
		if (launchedAt.size !== runs) { throw new Error(`${launchedAt.size} of ${runs} Runs launched (logs: ${h.logs.slice(-3).join(' | ')})`); }
		const launchMs = [...launchedAt.values()].map((t) => t - started);
		// Each agent leaves a file in its tree (its work), then every agent exits at once.
		for (const l of h.runs.launches) { writeFileSync(join(l.cwd, `out-${l.taskId}.txt`), `work of ${l.taskId}\n`); }
		const settledAt = new Map<string, number>();
		const pending = new Set(h.runs.launches.map((l) => l.runId));
		const watch = h.store.onDidCommit(() => {
			const now = performance.now();
			for (const runId of [...pending]) {
				if (h.store.read((r) => runRepository.get(r, runId))?.status !== 'running') { settledAt.set(runId, now); pending.delete(runId); }
			}
		});
		const exitsAt = performance.now();
		for (const l of h.runs.launches) { h.runs.exit(l.runId, { exitCode: 0 }); }
		await h.idle();
		const cpu2 = { git: childrenCpuMs(), host: ownCpuMs() };
		watch.dispose();
		counter.uninstall();
		if (pending.size > 0) { throw new Error(`${pending.size} Runs did not settle (logs: ${h.logs.slice(-3).join(' | ')})`); }
		const settleMs = [...settledAt.values()].map((t) => t - exitsAt);
		return {
			runs, isolation: isolation ? 'worktree' : 'shared folder',
			launchMs, launchTotalMs: Math.max(...launchMs), settleMs, settleTotalMs: Math.max(...settleMs),
			gitLaunch, gitResult: counter.count - gitLaunch,
			cpu: { gitLaunch: cpu1.git - cpu0.git, hostLaunch: cpu1.host - cpu0.host, gitResult: cpu2.git - cpu1.git, hostResult: cpu2.host - cpu1.host },
		};
	} finally {
		counter.uninstall();
		await h.close();
	}
}

export interface MergeBaseRow {
	readonly parents: number;
	/** newTreeBase (merge-tree per parent, commit-tree), one sample per repetition. */
	readonly ms: number[];
	readonly git: number;
}

/** The merge commit a task with `parents` parents starts from: each parent changed its own file off the base. */
async function mergeBase(workspace: string, parents: number, repetitions: number): Promise<MergeBaseRow> {
	const base = gitSync(workspace, 'rev-parse', 'HEAD');
	const commits = [];
	for (let p = 0; p < parents; p++) {
		gitSync(workspace, 'checkout', '-q', '-B', `parent${parents}-${p}`, base);
		writeFileSync(join(workspace, 'src', 'module0', 'file0.ts').replace('file0', `parent${p}`), `export const parent = ${p};\n`);
		writeFileSync(join(workspace, 'src', `module${p % 20}`, `file${(p % 20) * 50 + 1}.ts`), `// rewritten by parent ${p}\n`);
		gitSync(workspace, 'add', '-A');
		gitSync(workspace, 'commit', '-q', '-m', `parent ${p}`);
		commits.push({ taskId: `p${p}`, commit: gitSync(workspace, 'rev-parse', 'HEAD') });
	}
	gitSync(workspace, 'checkout', '-q', 'main');
	const identity = await workspaceIdentity(workspace);
	const ms: number[] = [];
	const counter = new GitProcessCounter();
	for (let i = 0; i < repetitions; i++) {
		counter.install();
		const started = performance.now();
		const made = await newTreeBase(workspace, `d${i}`, base, commits, identity);
		ms.push(performance.now() - started);
		counter.uninstall();
		if (made.kind !== 'ready' || !made.mergeCommit) { throw new Error(`no merge commit for ${parents} parents: ${JSON.stringify(made)}`); }
	}
	return { parents, ms, git: counter.count / repetitions };
}

export interface WorktreeRunsBench {
	readonly inFlight: InFlightRow[];
	readonly mergeBase: MergeBaseRow[];
	readonly mergeBaseRepetitions: number;
}

export async function benchWorktreeRuns(options: { sizes?: readonly number[]; log?: (line: string) => void } = {}): Promise<WorktreeRunsBench> {
	const log = options.log ?? (() => undefined);
	const rows: InFlightRow[] = [];
	for (const n of options.sizes ?? [1, 10, 100]) {
		for (const isolation of [true, false]) {
			log(`${n} Runs in flight, ${isolation ? 'worktree' : 'shared folder'} …`);
			const row = await inFlight(n, isolation);
			rows.push(isolation ? { ...row, floorTotalMs: await worktreeAddFloor(n) } : row);
		}
	}
	log('merge base for 2 / 8 parents …');
	const repetitions = 10;
	const h = await ServiceHarness.open();
	try {
		commitProject(h.workspace, projectFiles);
		const merges = [await mergeBase(h.workspace, 2, repetitions), await mergeBase(h.workspace, 8, repetitions)];
		return { inFlight: rows, mergeBase: merges, mergeBaseRepetitions: repetitions };
	} finally {
		await h.close();
	}
}

export function formatWorktreeRuns(r: WorktreeRunsBench): string {
	const shared = (n: number): InFlightRow | undefined => r.inFlight.find((x) => x.runs === n && x.isolation === 'shared folder');
	const lines = [
		`A repository of ${projectFiles.toLocaleString('en-US')} files (about 1 KB each, one commit). All Runs are admitted at once (the issue resumed with maxParallelRuns = N); each agent writes one file, then all exit at once. One pass per N, to keep \`npm run bench\` bounded: a per-Run median is over that pass's N Runs (at N = 1, one sample). ` +
			'Launch = issue resumed → that Run\'s agent launched (worktree: `git worktree add --no-checkout` from the issue base, one at a time, as the WorktreeManager serialises git\'s worktree bookkeeping; each tree\'s checkout runs beside the next trees\'). The floor: N plain `git worktree add` (bookkeeping and checkout) one after another on a fresh copy of the same repository. ' +
			'Settle = all agents exited → that Run settled (worktree: its result commit made and recorded, changed files listed; the results of Runs that end together are committed concurrently, so they all finish near the end: read total ÷ N as the cost per Run). The shared-folder rows are the same Host code without git work: the difference is git\'s. CPU time: of the git processes (their user + system time, /proc) and of the process running the Host\'s services (10 ms resolution for git).',
		'',
		'| Runs in flight | isolation | launch per Run (median) | launch, all N (total) | total ÷ N | floor: `git worktree add` alone, total ÷ N | settle per Run (median) | settle, all N (total) | total ÷ N | git processes per Run (launch + result) | CPU per Run, launch: git + Host | CPU per Run, result: git + Host |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	const cpu = (git: number, host: number, n: number): string => `${fmtMs(git / n)} + ${fmtMs(host / n)}`;
	for (const row of r.inFlight) {
		lines.push(`| ${row.runs} | ${row.isolation} | ${fmtMs(median(row.launchMs))} | ${fmtMs(row.launchTotalMs)} | ${fmtMs(row.launchTotalMs / row.runs)} | ${row.floorTotalMs === undefined ? '–' : fmtMs(row.floorTotalMs / row.runs)} | ` +
			`${fmtMs(median(row.settleMs))} | ${fmtMs(row.settleTotalMs)} | ${fmtMs(row.settleTotalMs / row.runs)} | ${(row.gitLaunch / row.runs).toFixed(1)} + ${(row.gitResult / row.runs).toFixed(1)} | ` +
			`${cpu(row.cpu.gitLaunch, row.cpu.hostLaunch, row.runs)} | ${cpu(row.cpu.gitResult, row.cpu.hostResult, row.runs)} |`);
	}
	const ratios = r.inFlight.filter((x) => x.isolation === 'worktree').map((x) => {
		const base = shared(x.runs);
		return base ? `${x.runs} in flight: worktree launch total ÷ shared ${(x.launchTotalMs / base.launchTotalMs).toFixed(1)}×, settle total ÷ shared ${(x.settleTotalMs / base.settleTotalMs).toFixed(1)}×` : '';
	}).filter((s) => s !== '');
	const one = r.inFlight.find((x) => x.runs === 1 && x.isolation === 'worktree');
	const hundred = r.inFlight.find((x) => x.runs === 100 && x.isolation === 'worktree');
	if (one && hundred) {
		ratios.push(`worktree cost per Run (total ÷ N) at 100 in flight ÷ at 1, wall time: launch ${((hundred.launchTotalMs / 100) / one.launchTotalMs).toFixed(2)}×, settle ${((hundred.settleTotalMs / 100) / one.settleTotalMs).toFixed(2)}×; ` +
			`CPU time (git + Host): launch ${(((hundred.cpu.gitLaunch + hundred.cpu.hostLaunch) / 100) / (one.cpu.gitLaunch + one.cpu.hostLaunch)).toFixed(2)}×, result ${(((hundred.cpu.gitResult + hundred.cpu.hostResult) / 100) / (one.cpu.gitResult + one.cpu.hostResult)).toFixed(2)}× (1.0× = linear in the number of Runs; CPU time does not grow with the machine's load, wall time does)`);
	}
	lines.push('', ...ratios.map((s) => `- ${s}`), '',
		`Merge base of a task with several parents (\`newTreeBase\`: \`git merge-base --independent\`, one \`git merge-tree --write-tree\` per further parent, \`git commit-tree\`), each parent changing its own files, median of ${r.mergeBaseRepetitions}:`,
		'',
		'| parents | merge commit (median) | min–max | git processes |',
		'|---|---|---|---|',
		...r.mergeBase.map((m) => `| ${m.parents} | ${fmtMs(median(m.ms))} | ${fmtMs(Math.min(...m.ms))}–${fmtMs(Math.max(...m.ms))} | ${m.git.toFixed(0)} |`));
	const [two, eight] = r.mergeBase;
	if (two && eight) { lines.push('', `8 parents ÷ 2 parents: ${(median(eight.ms) / median(two.ms)).toFixed(1)}× (7 merges against 1).`); }
	return lines.join('\n');
}

if (require.main === module) {
	void (async () => {
		const sizes = process.env['WORKTREE_SIZES']?.split(',').map(Number);
		console.log(formatWorktreeRuns(await benchWorktreeRuns({ ...(sizes ? { sizes } : {}), log: (l) => console.error(`  ${l}`) })));
	})();
}
