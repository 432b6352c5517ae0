// The checks of an integration: run on the integrated commit before the branch moves, in a scratch worktree outside
// the workspace (no working tree of the developer's is touched), one after another, stopping at the first that
// fails. The scratch tree is removed whatever happens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckResult, type CheckSpec, checkEndText, checkLine, checkPassed, checkStates, shortCommit } from '../../core/checks/checks.js';
import type { z } from 'zod';
import { integrationChecksDto } from '../../protocol/checks.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import type { Reader } from '../../store/tx.js';
import { gitExit } from '../worktrees/git.js';
import { checkEnvironment, startCheck } from './checkProcess.js';

export type IntegrationChecksDto = z.infer<typeof integrationChecksDto>;

/** Runs `checks` at `commit` of the workspace's repository; returns each ended check's result, in order. */
export async function runChecksAtCommit(input: {
	workspace: string; commit: string; checks: readonly CheckSpec[]; names: Record<string, string>; now(): number; env?: NodeJS.ProcessEnv;
}): Promise<CheckResult[]> {
	const scratch = mkdtempSync(join(tmpdir(), 'tutti-integrate-'));
	const tree = join(scratch, 'tree');
	const tuttiDir = join(input.workspace, '.tutti');
	try {
		const added = await gitExit(input.workspace, ['worktree', 'add', '--detach', tree, input.commit]);
		if (added.exitCode !== 0) {
			return [{ index: 0, name: input.checks[0]?.name ?? 'checks', exitCode: null, signal: '', timedOut: false, error: `could not check out ${shortCommit(input.commit)}: ${added.stderr.trim()}`,
				durationMs: 0, outputTail: '', startedAtUnixMs: input.now(), endedAtUnixMs: input.now(), interrupted: 0 }];
		}
		const results: CheckResult[] = [];
		for (const [index, check] of input.checks.entries()) {
			const running = startCheck({
				check, index, cwd: tree, tuttiDir, logFile: null, now: input.now, onSpawn: () => undefined,
				env: checkEnvironment(input.env ?? process.env, tuttiDir, { ...input.names, TUTTI_CHECK_NAME: check.name, TUTTI_CHECK_COMMIT: input.commit }),
			});
			const result = { ...(await running.done), interrupted: 0 };
			results.push(result);
			if (!checkPassed(result)) { break; }
		}
		return results;
	} finally {
		await gitExit(input.workspace, ['worktree', 'remove', '--force', tree]).catch(() => undefined);
		rmSync(scratch, { recursive: true, force: true });
		await gitExit(input.workspace, ['worktree', 'prune']).catch(() => undefined);
	}
}

export interface BranchMoved { from: string; to: string; label: string }

/**
 * Whether `into` (at `tip`) moved since the tasks were verified: a task's accepted commit that does not contain the tip
 * was verified on the branch as it was at their merge base, so only the checks on the merge can see the two together.
 * Null when every task's work contains the tip (no git process when the tip is still the issue's base).
 */
export async function branchMovedSinceVerified(workspace: string, into: string, base: string, tip: string, taskCommits: readonly string[]): Promise<BranchMoved | null> {
	if (tip === base) { return null; }
	for (const commit of taskCommits) {
		if ((await gitExit(workspace, ['merge-base', '--is-ancestor', tip, commit])).exitCode !== 1) { continue; }
		const from = (await gitExit(workspace, ['merge-base', tip, commit])).stdout.trim();
		return { from, to: tip, label: `${into} moved since the tasks were verified (${from === '' ? 'no common commit' : shortCommit(from)} → ${shortCommit(tip)}); the checks ran on the merge` };
	}
	return null;
}

/** How an integration was verified, as `issue integrate` answers. */
export function integrationChecksView(
	status: 'passed' | 'skipped' | 'none', commit: string, checks: readonly CheckSpec[], results: readonly CheckResult[], moved: BranchMoved | null = null,
): IntegrationChecksDto {
	const states = checkStates({ status: 'passed', checks, results });
	const byIndex = new Map(results.map((r) => [r.index, r] as const));
	const dtoChecks = checks.map((spec, i) => {
		const result = byIndex.get(i);
		const state = result === undefined ? 'not_run' : states[i] ?? 'not_run';
		return {
			name: spec.name, argv: [...spec.argv], shell: spec.shell, timeoutSeconds: spec.timeoutSeconds, state,
			exitCode: result?.exitCode ?? null, timedOut: result?.timedOut ?? false, durationMs: result?.durationMs ?? 0,
			outputTail: result?.outputTail ?? '', interrupted: 0, label: checkLine(spec, state, result),
		};
	});
	switch (status) {
		case 'skipped': return { status, label: 'Checks skipped by the developer (--skip-checks)', checks: dtoChecks };
		case 'none': return { status, label: 'No checks: none are configured for this issue', checks: [] };
		case 'passed': {
			const label = `Checks passed at ${shortCommit(commit)} (${checks.length} check${checks.length === 1 ? '' : 's'})`;
			return moved === null ? { status, label, checks: dtoChecks } : { status, label: `${label}; ${moved.label}`, checks: dtoChecks, branchMoved: { ...moved } };
		}
	}
}

/** The checks of the issue's last integration as recorded (null before one, or for one recorded before they were kept). */
export function readIntegrationChecks(r: Reader, issueId: string): IntegrationChecksDto | null {
	const text = deliveryRepository.lastIntegration(r, issueId)?.checksJson ?? '';
	if (text === '') { return null; }
	try {
		const parsed = integrationChecksDto.safeParse(JSON.parse(text));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}

/** The refusal's words when a check failed on the integrated commit: which one, how it ended, its last output lines. */
export function integrationFailure(commit: string, checks: readonly CheckSpec[], results: readonly CheckResult[]): { check: string; end: string; outputTail: string; text: string } | null {
	const failing = results.find((r) => !checkPassed(r));
	if (failing === undefined) { return null; }
	const end = checkEndText(failing, checks[failing.index]?.timeoutSeconds);
	const tail = failing.outputTail.trim() !== '' ? ` The last lines of its output:\n${failing.outputTail}` : '';
	return { check: failing.name, end, outputTail: failing.outputTail, text: `the check ${failing.name} failed on the integrated commit ${shortCommit(commit)} (${end}).${tail}` };
}
