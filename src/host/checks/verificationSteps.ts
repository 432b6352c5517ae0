// The answer of a verification, inside its caller's transaction: recorded once, and — for a task still waiting on it —
// the task settles as the Run's settlement would have (runSettlement.ts): auto-accepted only when the checks passed.
import { acceptanceCheckState } from '../../core/checks/checks.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { verificationRepository } from '../../store/repositories/verificationRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { type SettlementObserver, settleTaskInTx } from '../runs/runSettlement.js';

/**
 * Records the verification's answer (once). A task still waiting on it (running, this Run its latest) settles now:
 * completed and accepted automatically when the checks passed and its autoAccept says so, else pending acceptance;
 * a managed issue's source agent gets its checkpoint (`task_settled`, or `checks_failed`). Returns false when the
 * answer was recorded before.
 */
export function completeVerificationInTx(
	ctx: { observer: SettlementObserver }, tx: Tx, id: string, status: 'passed' | 'failed', problem: string, now: number,
): boolean {
	if (!verificationRepository.complete(tx, id, status, problem, now)) { return false; }
	const v = verificationRepository.get(tx, id);
	const run = v ? runRepository.get(tx, v.runId) : undefined;
	const task = v ? taskRepository.get(tx, v.issueId, v.taskId) : undefined;
	const issue = v ? issueRepository.get(tx, v.issueId) : undefined;
	if (!v || !run || !task || !issue || v.staleAtUnixMs > 0) { return true; }
	if (task.latestRunId === run.runId && task.status === 'running') {
		settleTaskInTx(ctx, tx, { issue, task, run }, status, now);
	}
	return true;
}

/** What the checks say of the task's latest Run right now, as an acceptance records it. */
export function acceptanceChecksOf(r: Reader, runId: string): ReturnType<typeof acceptanceCheckState> {
	const v = runId === '' ? undefined : verificationRepository.latestOfRun(r, runId);
	return acceptanceCheckState(v === undefined ? null : { status: v.status, stale: v.staleAtUnixMs > 0 });
}
