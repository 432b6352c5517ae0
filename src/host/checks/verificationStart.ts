// The start of a verification, inside the caller's transaction: for a Run's reported success (bound to the Run and its
// result commit, or to the shared folder it worked in), or again when the Run's result moved on (a commit in its tree
// after acceptance). Every earlier verification of the same tree goes stale: the tree moved on from what it saw.
import type { CheckSpec } from '../../core/checks/checks.js';
import type { Run, Task } from '../../core/model.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { type Verification, verificationRepository } from '../../store/repositories/verificationRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { treeOfDirectory } from '../worktrees/worktreePaths.js';

/** The id of the Run's n-th verification (1-based). */
export function verificationId(runId: string, n: number): string {
	return `${runId}:verification:${n}`;
}

/**
 * Starts the verification of `run`'s result at `commit` (default: its recorded result commit; the shared folder when it
 * worked there): running, with the checks it will run. Every earlier verification of the same tree goes stale.
 */
export function startVerificationInTx(tx: Tx, run: Run, checks: readonly CheckSpec[], now: number, commit?: string): Verification {
	const commits = deliveryRepository.runCommits(tx, run.runId);
	const inTree = commits?.inWorktree === true && (commit ?? commits.resultCommit) !== '';
	const verification: Verification = {
		verificationId: verificationId(run.runId, verificationRepository.countOfRun(tx, run.runId) + 1),
		runId: run.runId, issueId: run.issueId, taskId: run.taskId,
		subject: inTree ? 'commit' : 'folder',
		commit: inTree ? commit ?? commits.resultCommit : '',
		directory: inTree ? treeOfDirectory(run.executionDirectory, run.issueId) : '',
		status: 'running', checks: checks.map((c) => ({ ...c, argv: [...c.argv] })), attempts: 1,
		currentIndex: -1, currentPid: 0, currentStartTicks: '', interruptions: {}, problem: '',
		createdAtUnixMs: now, completedAtUnixMs: 0, staleAtUnixMs: 0,
	};
	verificationRepository.insert(tx, verification);
	return verification;
}

/** The Run's result moved on to `commit` (its branch gained commits after acceptance): its task's checks run again there. */
export function reverifyInTx(ctx: { checksOf(r: Reader, run: Run, task: Task): CheckSpec[] }, tx: Tx, runId: string, commit: string, now: number): void {
	const run = runRepository.get(tx, runId);
	const task = run ? taskRepository.get(tx, run.issueId, run.taskId) : undefined;
	if (!run || !task || run.outcome !== 'success') { return; }
	const checks = ctx.checksOf(tx, run, task);
	if (checks.length > 0) { startVerificationInTx(tx, run, checks, now, commit); }
}
