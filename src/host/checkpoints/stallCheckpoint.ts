// A stalled Run of a managed issue, handed to its source agent as a `run_stalled` checkpoint (the Run goes on: stalled
// is not failed). It queues in the backlog like a settlement: active with its wake when none is active, else pending.
// The checkpoint is news only while the stall is: when the mark is lifted (the agent showed activity) or the Run
// settles (its settlement checkpoint carries the news), a stall checkpoint the source agent has not been handed yet is
// superseded — pending in the backlog, or active with no wake delivered (its prepared wake is canceled and the next
// pending checkpoint is promoted); one whose wake went out stays for the agent to acknowledge.
import { nextSequence, settlementSuppressed } from '../../core/execution/backlog.js';
import { stallCheckpointId } from '../../core/ids.js';
import type { Checkpoint, Execution, Issue, Run } from '../../core/model.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Tx } from '../../store/tx.js';
import { appendCheckpoint, promoteNext, statusWhileActive, withWatchdogReset } from './checkpointSteps.js';

/** Appends the stall checkpoint of `run` (a managed issue's, in a live execution); returns it, or null when none is due. */
export function appendStallCheckpoint(tx: Tx, issue: Issue, run: Pick<Run, 'runId' | 'taskId'>, nowUnixMs: number): Checkpoint | null {
	if (issue.planningSource !== 'tutti') { return null; }
	const execution = executionRepository.getByIssue(tx, issue.issueId);
	if (!execution || settlementSuppressed(execution.status)) { return null; }
	// One open stall checkpoint per Run: a stall that returns before the agent acted on the last one adds nothing.
	if (openStallCheckpoints(tx, execution, run.runId).length > 0) { return null; }
	const sequence = nextSequence(checkpointRepository.listByExecution(tx, execution.executionId));
	const appended = appendCheckpoint(tx, execution, issue, {
		checkpointId: stallCheckpointId(execution.executionId, run.runId, sequence), kind: 'run_stalled',
		subjectTaskId: run.taskId, subjectRunId: run.runId, creationReason: 'run_stalled', requiresGoalReview: false,
	}, nowUnixMs);
	executionRepository.update(tx, withWatchdogReset(appended.execution, nowUnixMs));
	return appended.checkpoint;
}

function openStallCheckpoints(tx: Tx, execution: Execution, runId: string): Checkpoint[] {
	return checkpointRepository.listOpen(tx, execution.executionId).filter((c) => c.kind === 'run_stalled' && c.subjectRunId === runId);
}

/** No main wake of the checkpoint went out (each is still prepared, or failed or was canceled before any Turn). */
function undelivered(tx: Tx, checkpoint: Checkpoint): boolean {
	return wakeRepository.listByCheckpoint(tx, checkpoint.checkpointId, 'main')
		.every((w) => w.dispatchedAtUnixMs === 0 && (w.status === 'prepared' || w.status === 'failed' || w.status === 'canceled'));
}

/**
 * The stall of `runId` is over (`why` says how): its stall checkpoints the source agent was not handed are superseded;
 * an active one's place goes to the oldest pending checkpoint. Returns the superseded checkpoints.
 */
export function withdrawStallCheckpoints(tx: Tx, issue: Issue, runId: string, why: string, nowUnixMs: number): Checkpoint[] {
	if (issue.planningSource !== 'tutti') { return []; }
	let execution = executionRepository.getByIssue(tx, issue.issueId);
	if (!execution) { return []; }
	const withdrawn: Checkpoint[] = [];
	for (const checkpoint of openStallCheckpoints(tx, execution, runId)) {
		if (checkpoint.status === 'active' && !undelivered(tx, checkpoint)) { continue; }
		checkpointRepository.update(tx, { ...checkpoint, status: 'superseded', updatedAtUnixMs: nowUnixMs });
		withdrawn.push(checkpoint);
		if (checkpoint.status !== 'active') { continue; }
		for (const wake of wakeRepository.listByCheckpoint(tx, checkpoint.checkpointId, 'main')) {
			if (wake.status === 'prepared') { wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: `the stall is over: ${why}`, updatedAtUnixMs: nowUnixMs }); }
		}
		const promoted = promoteNext(tx, execution, issue, nowUnixMs);
		const running = executionRepository.hasRunningRun(tx, issue.issueId);
		execution = {
			...execution, activeCheckpointId: promoted?.checkpointId ?? '',
			status: promoted ? statusWhileActive(promoted) : running ? 'running' : 'awaiting_main', updatedAtUnixMs: nowUnixMs,
		};
		executionRepository.update(tx, execution);
	}
	return withdrawn;
}
