// A new attempt of a task in its own tree, shared by Request changes (manual issues), Retry and Update from base: in
// the caller's transaction the rework is recorded and the task goes back to `not_started` (never `failed`: a review
// decision is not a failure), so the next admission — the manual dispatcher's pass, or a managed Update from base
// admitted at once — starts a new Run of the same task that carries the rework (admission binds it). The earlier
// Runs stay the task's history. An update from base that ends without a result gives the task back its acceptance.
import { reworkId } from '../../core/ids.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import type { Issue, MergeSource, ReworkKind, Task, TaskRework } from '../../core/model.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Tx } from '../../store/tx.js';

export interface ReworkRequest {
	issue: Issue;
	/** The task as it is now (settled: pending acceptance, completed, failed or canceled). */
	task: Task;
	kind: ReworkKind;
	note: string;
	nowUnixMs: number;
	/** update_from_base: the branch and the one commit merged in, and what it holds. */
	merge?: { into: string; commit: string; sources: readonly MergeSource[] };
}

/** Records a new attempt of the task and returns the task to not_started for it (see the file comment). */
export function requestReworkInTx(tx: Tx, request: ReworkRequest): TaskRework {
	const { issue, task, nowUnixMs } = request;
	const priorAcceptedCommit = request.kind === 'update_from_base' ? deliveryRepository.acceptedCommit(tx, issue.issueId, task.taskId) : '';
	const rework: TaskRework = {
		reworkId: reworkId(issue.issueId, task.taskId, reworkRepository.countOfTask(tx, issue.issueId, task.taskId) + 1),
		issueId: issue.issueId,
		taskId: task.taskId,
		kind: request.kind,
		attempt: reworkRepository.attemptsOfTask(tx, issue.issueId, task.taskId) + 1,
		note: request.note,
		fromRunId: task.latestRunId,
		runId: '',
		requestedAtUnixMs: nowUnixMs,
		mergeInto: request.merge?.into ?? '',
		mergeCommit: request.merge?.commit ?? '',
		mergeSources: [...(request.merge?.sources ?? [])],
		priorAcceptedCommit,
		priorAcceptanceState: priorAcceptedCommit !== '' ? task.acceptanceState : '',
	};
	reworkRepository.insert(tx, rework);
	// Its acceptance (if any) no longer says what the task's work is: the new attempt is reviewed and accepted again.
	deliveryRepository.clearAcceptedCommit(tx, issue.issueId, task.taskId);
	taskRepository.update(tx, { ...task, status: 'not_started', acceptanceState: '', updatedAtUnixMs: nowUnixMs });
	const fresh = issueRepository.get(tx, issue.issueId) ?? issue;
	const status = nextIssueStatus(fresh, issueRepository.counts(tx, issue.issueId), false);
	if (status !== fresh.status) { issueRepository.update(tx, { ...fresh, status, updatedAtUnixMs: nowUnixMs }); }
	return rework;
}

/**
 * The task after an update from base that ended without a result (it failed, was stopped, or its merge was left to
 * the developer): accepted as it was before, at the same commit, its accepted Run its latest again — so a commit the
 * developer then makes in its tree reads as "changed after acceptance". undefined when the Run is no such update.
 */
export function restoredAcceptanceInTx(tx: Tx, task: Task, runId: string, nowUnixMs: number): Task | undefined {
	const rework = reworkRepository.ofRun(tx, runId);
	if (rework?.kind !== 'update_from_base' || rework.priorAcceptedCommit === '') { return undefined; }
	deliveryRepository.setAcceptedCommit(tx, task.issueId, task.taskId, rework.priorAcceptedCommit, nowUnixMs);
	return {
		...task, status: 'completed', acceptanceState: rework.priorAcceptanceState === '' ? 'user_accepted' : rework.priorAcceptanceState,
		latestRunId: rework.fromRunId !== '' ? rework.fromRunId : task.latestRunId, updatedAtUnixMs: nowUnixMs,
	};
}
