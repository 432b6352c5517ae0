// Crash, worktree part: the Host's workspace becomes a git repository and each round runs a diamond of worktree
// Runs (A; C; B after A; D after B and C — D starts from a merge commit of B's and C's results) while the Host is
// killed -9 at random instants, then `issue integrate` with a kill -9 at a random instant. Checked through the CLI
// and git: every Run settled, each with exactly one result commit (trailer `Tutti-Run: <runId>`), every dependent
// saw its parents' files (the agent fails otherwise), D's base has two parents, and the integration is either
// applied (main holds the accepted tasks' files, the workspace moved with it and is clean) or left untouched (main
// and the workspace as before) — and a second integrate then completes it. A kill that cuts a Run's launch may fail
// that Run (settled once, no result commit; its dependents never start): counted, not hidden.
import { execFileSync } from 'node:child_process';
import { methods } from '../../src/protocol/controlPlane.js';
import type { IssueWithTasksDto } from '../../src/protocol/dto.js';
import type { AgentTarget, HostHandle } from '../../test/integration/harness.js';
import { call, type CaseResult, cliRunList, sleep } from './kit.js';
import { initRepo } from '../../test/integration/delivery/gitRepoKit.js';

/** Letters of the diamond and what each one's agent must find in its tree before it writes its own file. */
const diamond = [['a', []], ['c', []], ['b', ['a']], ['d', ['b', 'c']]] as const;

/**
 * The worktree agent: task `<round>-<letter>` checks its parents' files are in its tree (exit 4 otherwise), works a
 * moment (so a kill lands mid-Run) and leaves `<taskId>.txt` uncommitted: the Host makes it the result commit.
 */
export function worktreeTarget(): AgentTarget {
	const script = [
		"const fs = require('fs'); const t = process.env.TUTTI_TASK_ID; const [round, letter] = t.split('-');",
		`const needs = ${JSON.stringify(Object.fromEntries(diamond.map(([l, deps]) => [l, [...deps, ...(l === 'd' ? ['a'] : [])]])))}[letter] || [];`,
		"for (const n of needs) { if (!fs.existsSync(round + '-' + n + '.txt')) { console.error('missing ' + n); process.exit(4); } }",
		"setTimeout(() => fs.writeFileSync(t + '.txt', t + '\\n'), 400 + Math.floor(Math.random() * 500));",
	].join(' ');
	return { id: 'wt', adapter: 'command', argv: [process.execPath, '-e', script], isolation: 'worktree' };
}

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The workspace as a git repository on `main` with one commit (`.tutti/` ignored). */
function initRepository(workspace: string): void {
	initRepo(workspace, { '.gitignore': '.tutti/\n', 'README.md': 'crash campaign\n' });
}

/** runId → how many commits of the repository carry the trailer `Tutti-Run: <runId>`. */
function resultCommitCounts(workspace: string): Map<string, number> {
	const counts = new Map<string, number>();
	const out = git(workspace, 'log', '--all', '--format=%(trailers:key=Tutti-Run,valueonly,separator=%x2C)');
	for (const runId of out.split('\n').flatMap((line) => line.split(',')).map((s) => s.trim()).filter((s) => s !== '')) {
		counts.set(runId, (counts.get(runId) ?? 0) + 1);
	}
	return counts;
}

async function cliIssue(host: HostHandle, issueId: string): Promise<IssueWithTasksDto> {
	const r = await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true });
	return methods['issue/get'].result.parse(r.json);
}

async function killAndRestart(host: HostHandle): Promise<void> {
	await host.kill9();
	await host.start();
}

export interface WorktreeCrashFigures {
	rounds: number;
	hostKills: number;
	runs: number;
	mergeBases: number;
	resultCommits: number;
	integrateApplied: number;
	integrateUntouched: number;
	/** Tasks whose Run a kill failed (cut during its launch), with the Run's error. */
	failedByKill: string[];
	/** Integrations a kill left half-applied: main moved without all the files, or unmoved with some, or the workspace not on main and clean. */
	halfApplied: number;
}

/** `rounds` diamonds, each with two Host kills mid-Runs and one mid-integrate. */
export async function worktreeCrash(host: HostHandle, rounds: number, random: () => number, result: CaseResult): Promise<void> {
	initRepository(host.workspace);
	const figures: WorktreeCrashFigures = { rounds: 0, hostKills: 0, runs: 0, mergeBases: 0, resultCommits: 0, integrateApplied: 0, integrateUntouched: 0, failedByKill: [], halfApplied: 0 };
	for (let round = 0; round < rounds; round++) {
		figures.rounds++;
		const where = `worktree round ${round}`;
		const created = await call(host, 'issue/create', { title: `Diamond ${round}`, autoAccept: true }, 'user');
		if (!created.ok) { result.fail(`${where}: issue/create: ${created.reasonCode}`); continue; }
		const issueId = (created.result as { issueId: string }).issueId;
		for (const [letter, deps] of diamond) {
			const added = await call(host, 'task/add', {
				issueId, taskId: `r${round}-${letter}`, title: `Write r${round}-${letter}.txt`, agentTargetId: 'wt',
				dependencyTaskIds: deps.map((d) => `r${round}-${d}`),
			}, 'user');
			if (!added.ok) { result.fail(`${where}: task/add ${letter}: ${added.reasonCode}`); }
		}
		// Two kills at random instants while an agent of the diamond works (its exit and result commit then happen
		// around the restart; a kill that also cuts another Run's launch may fail that Run, which is counted).
		for (let k = 0; k < 2; k++) {
			await untilAgentWorking(host, issueId);
			await sleep(random() * 400);
			await killAndRestart(host);
			figures.hostKills++;
		}
		// Every task settles (bounded).
		let issue = await cliIssue(host, issueId);
		const deadline = Date.now() + 60_000;
		const open = (): boolean => issue.tasks.some((t) => t.status === 'running'
			|| (t.status === 'not_started' && t.dependencyTaskIds.every((d) => issue.tasks.find((p) => p.taskId === d)?.status === 'completed')));
		while (open() && Date.now() < deadline) {
			await sleep(300);
			issue = await cliIssue(host, issueId);
		}
		const runs = await cliRunList(host, issueId);
		for (const t of issue.tasks) {
			result.check(t.status !== 'not_started' && t.status !== 'running' || t.dependencyTaskIds.some((d) => issue.tasks.find((p) => p.taskId === d)?.status !== 'completed'),
				`${where}: task ${t.taskId} is still ${t.status} 60 s after the last kill`);
			if (t.status === 'completed') {
				result.check(t.acceptedCommit !== '' && t.acceptedCommit === t.resultCommit, `${where}: task ${t.taskId}'s acceptance is not bound to its result (${t.acceptedCommit} / ${t.resultCommit})`);
			} else if (t.status === 'failed') {
				const latest = runs.find((r) => r.runId === t.latestRunId);
				figures.failedByKill.push(`${t.taskId}: ${latest?.errorMessage ?? '?'}`);
			}
		}
		const counts = resultCommitCounts(host.workspace);
		for (const run of runs) {
			figures.runs++;
			result.check(run.outcome !== null, `${where}: Run ${run.runId} never settled`);
			if (run.outcome === null) { continue; }
			if (run.outcome === 'success') { result.check(run.inWorktree && run.resultCommit !== '', `${where}: Run ${run.runId} (${run.taskId}) succeeded without a result commit`); }
			// A Run that changed something has exactly one result commit; one cut before its agent started has none.
			const expected = run.resultCommit !== '' && run.resultCommit !== run.baseCommit ? 1 : 0;
			if (expected === 1) { figures.resultCommits++; }
			result.check((counts.get(run.runId) ?? 0) === expected, `${where}: Run ${run.runId} (${run.taskId}, ${run.outcome}) has ${counts.get(run.runId) ?? 0} result commits, not ${expected}`);
		}
		const d = runs.find((r) => r.taskId === `r${round}-d` && r.outcome === 'success');
		if (d) {
			const parents = git(host.workspace, 'log', '-1', '--format=%P', d.baseCommit).split(' ').filter((p) => p !== '');
			result.check(parents.length === 2, `${where}: D's base ${d.baseCommit} has ${parents.length} parents, not the merge of B and C`);
			if (parents.length === 2) { figures.mergeBases++; }
		}
		const accepted = issue.tasks.filter((t) => t.status === 'completed').map((t) => `${t.taskId}.txt`);
		if (accepted.length > 0) { await integrateUnderKill(host, issueId, accepted, round, random, result, figures); }
	}
	result.figure('worktree diamonds (A; C; B after A; D after B and C) / Host kill -9 mid-Runs', `${figures.rounds} / ${figures.hostKills}`);
	result.figure('worktree Runs settled / with a result commit (exactly one each) / merge bases with two parents', `${figures.runs} / ${figures.resultCommits} / ${figures.mergeBases}`);
	result.figure('worktree Runs failed by a kill during their launch (settled once, no result commit)', figures.failedByKill.length === 0 ? 'none' : `${figures.failedByKill.length}: ${figures.failedByKill.join('; ')}`);
	result.figure('issue integrate with a kill -9 at a random instant: applied / untouched (then completed) / half-applied', `${figures.integrateApplied} / ${figures.integrateUntouched} / ${figures.halfApplied}`);
}

/** Waits (bounded) until some Run of the issue has its agent started and still running. */
async function untilAgentWorking(host: HostHandle, issueId: string): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (Date.now() < deadline) {
		const list = await call(host, 'run/list', { issueId }, 'user');
		const runs = list.ok ? (list.result as { runs: { status: string; startedAtUnixMs: number }[] }).runs : [];
		if (runs.some((r) => r.status === 'running' && r.startedAtUnixMs > 0)) { return; }
		await sleep(20);
	}
}

/** `issue integrate --accepted-only` with a kill -9 at a random instant; `files`: the accepted tasks' files. */
async function integrateUnderKill(host: HostHandle, issueId: string, files: readonly string[], round: number, random: () => number,
	result: CaseResult, figures: WorktreeCrashFigures): Promise<void> {
	const where = `worktree round ${round}: integrate`;
	const before = git(host.workspace, 'rev-parse', 'main');
	// The CLI call and the kill race; the CLI may retry across the restart or report the cut.
	const cli = host.cli(['issue', 'integrate', '--issue-id', issueId, '--accepted-only', '--json'], { asUser: true });
	await sleep(random() * 400);
	await killAndRestart(host);
	figures.hostKills++;
	await cli;
	const after = git(host.workspace, 'rev-parse', 'main');
	const tracked = git(host.workspace, 'status', '--porcelain', '--untracked-files=no');
	const onMain = new Set(git(host.workspace, 'ls-tree', '--name-only', 'main').split('\n'));
	const failuresBefore = result.failures.length;
	result.check(tracked === '', `${where}: the workspace has tracked changes after the kill: ${tracked}`);
	result.check(git(host.workspace, 'rev-parse', 'HEAD') === after, `${where}: the workspace's HEAD is not main`);
	if (after === before) {
		figures.integrateUntouched++;
		result.check(files.every((f) => !onMain.has(f)), `${where}: main did not move yet holds part of the issue's files`);
	} else {
		figures.integrateApplied++;
		result.check(files.every((f) => onMain.has(f)), `${where}: main moved but lacks some of ${files.join(', ')}`);
		result.check(git(host.workspace, 'merge-base', '--is-ancestor', before, after) === '', `${where}: main moved to a commit that does not contain the old main`);
	}
	if (result.failures.length > failuresBefore) { figures.halfApplied++; }
	// Whatever the kill left, integrating again completes it (once: main then holds everything and the issue records it).
	const again = await host.cli(['issue', 'integrate', '--issue-id', issueId, '--accepted-only', '--json'], { asUser: true });
	result.check(again.code === 0, `${where}: integrating again failed: ${again.stdout}${again.stderr}`.slice(0, 600));
	const final = git(host.workspace, 'rev-parse', 'main');
	const finalFiles = new Set(git(host.workspace, 'ls-tree', '--name-only', 'main').split('\n'));
	result.check(files.every((f) => finalFiles.has(f)), `${where}: after integrating again main lacks some of ${files.join(', ')}`);
	result.check((await cliIssue(host, issueId)).integratedCommit === final, `${where}: the issue's integratedCommit is not main's ${final}`);
	const stray = git(host.workspace, 'worktree', 'list', '--porcelain').split('\n')
		.filter((l) => l.startsWith('worktree ') && !l.includes('/.tutti/worktrees/') && l !== `worktree ${host.workspace}`);
	result.check(stray.length === 0, `${where}: worktrees left behind: ${stray.join(', ')}`);
}
