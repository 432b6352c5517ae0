// `npm run demo`: a real managed orchestration, headless, in a temporary git repository.
// Starts the Host (`node dist/cli.js host`), opens a source session, creates the managed issue, runs the scripted
// orchestrator (dist/orchestrator.js, CLI only), shows live progress and prints the graph, outcomes and durations.
// Every task runs in its own worktree and builds on its parents' commits; the report task's output is checked (a
// developer's check on its agent target) and each task shows its three facts: reported, verified, accepted. The demo
// ends with `tutti issue integrate` (the checks run again on the merge): the issue reads Done only after it, then
// `tutti worktree prune` removes its trees and merged branches and says the disk freed. It prints the integrated
// tree and its log: the whole path from an issue to code on a branch.
// `node dist/demo.js worker <name>` runs one of the worker programs the demo's command targets point at.
// Flags: --keep (keep the temporary workspace and print its path); --ui (the same demo in VS Code in the browser:
// code-server from the test harness with the packaged extension; see scripts/demoUi.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { IssueDto, PlanSnapshotDto, PlanTaskDto, RunDto } from '../src/protocol/dto.js';
import { demoIssue, demoTargetIds } from './workers/demoPlan.js';
import { describeFailure, runTuttiCli } from './workers/tuttiCli.js';
import { runWorker } from './workers/workerMain.js';
import { runDemoUi } from './demoUi.js';

const demoBudgetMs = 110_000;
const hostReadyMs = 20_000;

const cliJs = join(__dirname, 'cli.js');
const orchestratorJs = join(__dirname, 'orchestrator.js');
const demoJs = __filename;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string, text: string): string => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
export const dim = (text: string): string => paint('2', text);
export const bold = (text: string): string => paint('1', text);

export interface HostProcess {
	child: ChildProcess;
	socket: string;
	pid: number;
}

export function elapsed(startedAt: number): string {
	return `${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s`;
}

function formatMs(ms: number): string {
	return ms >= 60_000 ? `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s` : `${(ms / 1000).toFixed(2)}s`;
}

/** Environment for every child: inherited, minus the caller's own Tutti session, plus an isolated runtime dir. */
export function childEnv(runtimeDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtimeDir, ...extra };
	for (const name of Object.keys(env)) {
		if (name.startsWith('TUTTI_') && !(name in extra)) {
			delete env[name];
		}
	}
	// Children only talk to a local socket; parsing a CA bundle would just slow every CLI start.
	delete env.NODE_EXTRA_CA_CERTS;
	return env;
}

/** A scratch git repository with one commit: the branch the demo's work is integrated into. */
export function initRepository(workspace: string): void {
	const git = (...args: string[]): string => execFileSync('git', args, { cwd: workspace, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	git('init', '-q', '-b', 'main');
	git('config', 'user.name', 'Tutti demo');
	git('config', 'user.email', 'demo@tutti.localhost');
	writeFileSync(join(workspace, 'README.md'), '# Corpus analysis\n\nA scratch repository for the Tutti demo.\n');
	writeFileSync(join(workspace, '.gitignore'), '.tutti/\n');
	git('add', '-A');
	git('commit', '-q', '-m', 'Start the corpus analysis');
}

function gitOutput(workspace: string, args: string[]): string {
	return execFileSync('git', args, { cwd: workspace, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trimEnd();
}

/** The developer's check of the report: the file exists and is not empty (a fixed argv, no shell). */
export const reportCheck = {
	name: 'report',
	argv: [process.execPath, '-e', "const s = require('fs').statSync('demo-output/REPORT.md'); if (s.size === 0) { console.log('REPORT.md is empty'); process.exit(1); } console.log('REPORT.md: ' + s.size + ' bytes');"],
	timeoutSeconds: 30,
};

/** The demo's command targets: each runs one of the worker programs of this file; the report's output is checked. */
export function demoAgentTargets(): { id: string; adapter: 'command'; argv: string[]; isolation: 'worktree'; checks?: typeof reportCheck[] }[] {
	// Each task in its own worktree (`.tutti/worktrees/<issue>/<taskId>`), starting from its parents' accepted commits.
	return demoTargetIds.map((id) => ({
		id, adapter: 'command', argv: [process.execPath, demoJs, 'worker', id], isolation: 'worktree', ...(id === 'report' ? { checks: [reportCheck] } : {}),
	}));
}

export function writeConfig(workspace: string): void {
	const agentTargets = demoAgentTargets();
	mkdirSync(join(workspace, '.tutti'), { recursive: true });
	writeFileSync(join(workspace, '.tutti', 'config.json'), JSON.stringify({ agentTargets, maxParallelRuns: 4, autoAcceptDefault: true, developerConfirmation: false }, null, '\t'));
}

export function startHost(workspace: string, env: NodeJS.ProcessEnv): Promise<HostProcess> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliJs, 'host', '--workspace', workspace], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stderr = '';
		child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`the Host printed no ready line within ${hostReadyMs / 1000}s\n${stderr}`));
		}, hostReadyMs);
		const lines = createInterface({ input: child.stdout! });
		lines.on('line', (line) => {
			try {
				const ready = JSON.parse(line) as { ready?: boolean; socket?: string; pid?: number };
				if (ready.ready === true && typeof ready.socket === 'string') {
					clearTimeout(timer);
					resolve({ child, socket: ready.socket, pid: ready.pid ?? child.pid ?? 0 });
				}
			} catch {
				// not the ready line
			}
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			reject(new Error(`the Host exited before it was ready (code ${code}, signal ${signal})\n${stderr}`));
		});
	});
}

export function stopHost(host: HostProcess): Promise<void> {
	return new Promise((resolve) => {
		if (host.child.exitCode !== null || host.child.signalCode !== null) {
			resolve();
			return;
		}
		const timer = setTimeout(() => host.child.kill('SIGKILL'), 10_000);
		host.child.once('exit', () => {
			clearTimeout(timer);
			resolve();
		});
		host.child.kill('SIGTERM');
	});
}

export async function cliJson<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
	const outcome = await runTuttiCli(cliJs, [...args, '--json'], env);
	if (outcome.code !== 0 || outcome.error) {
		throw new Error(describeFailure(args, outcome));
	}
	return outcome.json as T;
}

/** Runs the orchestrator, echoing each progress line with the demo's clock. */
export function runOrchestrator(issueId: string, env: NodeJS.ProcessEnv, startedAt: number, onChild?: (child: ChildProcess) => void): Promise<{ code: number; summary: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [orchestratorJs, '--issue-id', issueId, '--cli', cliJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
		onChild?.(child);
		let summary = '';
		child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { summary += chunk; });
		createInterface({ input: child.stderr! }).on('line', (line) => {
			process.stdout.write(`${dim(elapsed(startedAt))}  ${line}\n`);
		});
		child.on('error', reject);
		child.on('close', (code) => resolve({ code: code ?? 1, summary: summary.trim() }));
	});
}

function graphLines(snapshot: PlanSnapshotDto, runs: Map<string, RunDto>): string[] {
	const width = Math.max(...snapshot.tasks.map((t) => t.taskId.length));
	const line = (task: PlanTaskDto): string => {
		const deps = task.dependencyTaskIds.length > 0 ? ` ← ${task.dependencyTaskIds.join(', ')}` : '';
		const run = task.latestRunId ? runs.get(task.latestRunId) : undefined;
		const outcome = run?.outcomeLabel ?? (task.latestRunId ? 'still running' : 'never ran');
		const duration = run && run.outcome !== null ? formatMs(run.durationMs) : '';
		const superseded = task.supersededAtUnixMs > 0 ? dim(` (history: superseded by ${task.supersededByTaskId})`) : '';
		// The three facts, never one word for another: reported (above), verified, accepted.
		const facts = run?.outcome === 'success'
			? `\n  ${' '.repeat(width)}  ${dim(`verified: ${task.verification?.label ?? 'not yet'} · accepted: ${task.acceptance?.label ?? 'not yet'}`)}`
			: '';
		return `  ${task.taskId.padEnd(width)}  ${task.status.padEnd(18)} ${duration.padStart(7)}  ${outcome}${deps ? dim(deps) : ''}${superseded}${facts}`;
	};
	const current = snapshot.tasks.filter((t) => t.supersededAtUnixMs === 0);
	const history = snapshot.tasks.filter((t) => t.supersededAtUnixMs > 0);
	return [...current.map(line), ...history.map(line)];
}

export async function summarize(snapshot: PlanSnapshotDto, env: NodeJS.ProcessEnv, startedAt: number): Promise<void> {
	const runs = new Map<string, RunDto>();
	await Promise.all(snapshot.tasks.filter((t) => t.latestRunId).map(async (t) => {
		runs.set(t.latestRunId, await cliJson<RunDto>(['run', 'get', '--run-id', t.latestRunId], env));
	}));
	const outcomes = [...runs.values()].reduce<Record<string, number>>((acc, run) => {
		const key = run.outcome ?? 'running';
		acc[key] = (acc[key] ?? 0) + 1;
		return acc;
	}, {});
	const runTime = [...runs.values()].reduce((sum, run) => sum + run.durationMs, 0);
	const out: string[] = [
		'',
		bold(`Graph at revision ${snapshot.execution.graphRevision} — execution ${snapshot.execution.status}`),
		...graphLines(snapshot, runs),
		'',
		`${bold('Runs')}: ${runs.size} (${Object.entries(outcomes).map(([k, n]) => `${n} ${k}`).join(', ')}), ${formatMs(runTime)} of agent work`,
		`${bold('Total')}: ${formatMs(Date.now() - startedAt)}`,
	];
	process.stdout.write(`${out.join('\n')}\n`);
}

/** The head of the report the last task wrote, as it stands on main after integration. */
function reportLines(workspace: string): string[] {
	const report = join(workspace, 'demo-output', 'REPORT.md');
	return existsSync(report) ? ['', bold('demo-output/REPORT.md (on main)'), ...readFileSync(report, 'utf8').split('\n').slice(0, 6).map((l) => dim(`  ${l}`))] : [];
}

async function runDemo(keep: boolean): Promise<number> {
	for (const file of [cliJs, orchestratorJs]) {
		if (!existsSync(file)) {
			process.stderr.write(`demo: ${file} is missing; run \`npm run build\` first (npm run demo does)\n`);
			return 1;
		}
	}
	const startedAt = Date.now();
	const base = mkdtempSync(join(tmpdir(), 'tutti-demo-'));
	const workspace = join(base, 'workspace');
	const runtimeDir = join(base, 'rt');
	mkdirSync(workspace);
	mkdirSync(runtimeDir, { mode: 0o700 });
	initRepository(workspace);
	writeConfig(workspace);
	let host: HostProcess | undefined;
	const budget = setTimeout(() => {
		process.stderr.write(`demo: over its ${demoBudgetMs / 1000}s budget; stopping\n`);
		host?.child.kill('SIGKILL');
		process.exit(1);
	}, demoBudgetMs);
	try {
		process.stdout.write(`${bold('Tutti demo')} ${dim(`workspace ${workspace}`)}\n`);
		host = await startHost(workspace, childEnv(runtimeDir));
		process.stdout.write(`${dim(elapsed(startedAt))}  Host ready (pid ${host.pid}, socket ${host.socket})\n`);
		const userEnv = childEnv(runtimeDir, { TUTTI_IPC_HOOK: host.socket });
		const session = await cliJson<{ sessionId: string; token: string }>(['session', 'open', '--role', 'source', '--as-user'], userEnv);
		const sourceEnv = childEnv(runtimeDir, { TUTTI_IPC_HOOK: host.socket, TUTTI_SESSION_TOKEN: session.token });
		const created = await cliJson<{ issueId: string }>(['plan', 'issue', 'create', '--title', demoIssue.title,
			'--content', demoIssue.content, '--request-id', `demo-${process.pid}`,
			// Unattended: no developer reviews task results or confirms the goal (the demo workspace's settings turn the
			// the developer-confirmation and auto-accept settings gate off; an agent session may not).
		], sourceEnv);
		process.stdout.write(`${dim(elapsed(startedAt))}  source session ${session.sessionId} owns managed issue ${created.issueId}\n`);
		const orchestrator = await runOrchestrator(created.issueId, sourceEnv, startedAt);
		const final = await cliJson<PlanSnapshotDto>(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full'], sourceEnv);
		await summarize(final, sourceEnv, startedAt);
		const completed = final.execution.status === 'completed';
		let integrated = false;
		let doneOnlyAfterIntegrate = false;
		let pruned = false;
		if (completed) {
			const before = await cliJson<IssueDto>(['issue', 'get', '--issue-id', created.issueId, '--as-user'], userEnv);
			process.stdout.write(`\n${dim(elapsed(startedAt))}  ${bold('before integrating')}: ${before.attention.label} ${dim(`(delivery: ${before.delivery})`)}\n`);
			// The developer's step: the accepted commits become code on main, after the issue's checks pass on the merge.
			const result = await cliJson<{ integratedCommit: string; mergedTaskIds: string[]; fastForward: boolean; into: string; checks?: { label: string } }>(
				['issue', 'integrate', '--issue-id', created.issueId, '--as-user'], userEnv);
			integrated = gitOutput(workspace, ['rev-parse', 'main']) === result.integratedCommit;
			process.stdout.write(`${dim(elapsed(startedAt))}  ${bold('tutti issue integrate')}: ${result.mergedTaskIds.length} tasks into ${result.into} `
				+ `(${result.fastForward ? 'fast-forward' : 'merge commit'} ${result.integratedCommit.slice(0, 10)}) — ${result.checks?.label ?? 'no checks'}\n`);
			const after = await cliJson<IssueDto>(['issue', 'get', '--issue-id', created.issueId, '--as-user'], userEnv);
			doneOnlyAfterIntegrate = before.delivery === 'ready_to_integrate' && after.delivery === 'integrated';
			process.stdout.write(`${dim(elapsed(startedAt))}  ${bold('after integrating')}: ${after.attention.label} ${dim(`(delivery: ${after.delivery})`)}\n`);
			// The trees and merged branches of the finished issue go, and the disk they held comes back.
			const prune = await cliJson<{ summary: string }>(['worktree', 'prune', '--issue-id', created.issueId, '--as-user'], userEnv);
			const trees = join(workspace, '.tutti', 'worktrees', created.issueId);
			pruned = !existsSync(trees) || readdirSync(trees).length === 0;
			process.stdout.write([
				`${dim(elapsed(startedAt))}  ${bold('tutti worktree prune')}: ${prune.summary}`,
				'',
				bold(`git log --oneline --graph main`),
				...gitOutput(workspace, ['log', '--oneline', '--graph', '--max-count=16', 'main']).split('\n').map((l) => dim(`  ${l}`)),
				'',
				bold('The integrated tree (git ls-tree -r --name-only main)'),
				...gitOutput(workspace, ['ls-tree', '-r', '--name-only', 'main']).split('\n').map((l) => dim(`  ${l}`)),
				...reportLines(workspace),
				'',
			].join('\n'));
		}
		const passed = completed && integrated && doneOnlyAfterIntegrate && pruned && orchestrator.code === 0;
		process.stdout.write(passed
			? `\n${bold('Demo passed')}: the execution completed, its work is on main (Done only after integrating), and its trees are removed.\n`
			: `\nDemo FAILED: execution ${final.execution.status}, integrated ${integrated}, Done only after integrating ${doneOnlyAfterIntegrate}, trees removed ${pruned}, `
				+ `orchestrator exit ${orchestrator.code} ${orchestrator.summary}\n`);
		return passed ? 0 : 1;
	} catch (error) {
		process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	} finally {
		clearTimeout(budget);
		if (host) {
			await stopHost(host);
		}
		if (keep) {
			process.stdout.write(dim(`kept ${base}\n`));
		} else {
			rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
		}
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	process.exitCode = args[0] === 'worker' ? await runWorker(args[1])
		: args.includes('--ui') ? await runDemoUi({ keep: args.includes('--keep'), headless: args.includes('--headless') })
			: await runDemo(args.includes('--keep'));
}

void main();
