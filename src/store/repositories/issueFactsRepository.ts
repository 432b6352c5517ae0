// Reads the facts of src/core/next/facts.ts from the store in one read. Identity fails closed here too: an
// execution or checkpoint whose id is not the one it derives is refused (`identity_mismatch`), so no wait, resume
// or Stop hook answer is derived from it.
import { rejection } from '../../core/hints.js';
import { verifyCheckpointIdentity, verifyExecutionIdentity } from '../../core/ids.js';
import type { IssueFacts, SessionFacts, TaskFacts } from '../../core/next/facts.js';
import { taskIndex } from '../../core/next/taskIndex.js';
import { decideBudget } from '../../core/usage/budget.js';
import type { ReworkKind, Task } from '../../core/model.js';
import type { Reader } from '../tx.js';
import { checkpointRepository } from './checkpointRepository.js';
import { executionRepository } from './executionRepository.js';
import { finishRepository } from './finishRepository.js';
import { followUpRepository } from './followUpRepository.js';
import { issueRepository } from './issueRepository.js';
import { num, str } from './rowValues.js';
import { sessionRepository } from './sessionRepository.js';
import { taskRepository } from './taskRepository.js';
import { usageRepository } from './usageRepository.js';
import { reworkRepository } from './reworkRepository.js';
import type { IssueTaskView } from '../taskCache.js';

/** What the facts read of each task (a kept view of the tasks has these too). */
export type FactsTask = Pick<Task, 'taskId' | 'title' | 'status' | 'acceptanceState' | 'supersededAtUnixMs' | 'supersededByTaskId' | 'updatedAtUnixMs'
	| 'dependencyTaskIds' | 'latestRunId'>;

/** The active task that replaces `taskId` after its rework(s): the end of its supersededBy chain ('' when it is active). */
function activeReplacement(byId: ReadonlyMap<string, FactsTask>, taskId: string): string {
	let current = byId.get(taskId);
	const seen = new Set<string>();
	while (current && current.supersededAtUnixMs > 0 && current.supersededByTaskId !== '' && !seen.has(current.taskId)) {
		seen.add(current.taskId);
		current = byId.get(current.supersededByTaskId);
	}
	return current && current.taskId !== taskId && current.supersededAtUnixMs === 0 ? current.taskId : '';
}

/**
 * Open `changes_requested` / `goal_changes_requested` checkpoints (migration 3): unstarted change requests with their
 * note; one whose task the source agent already reworked names the replacement (`reworkedInto`).
 */
function openChangeRequests(r: Reader, executionId: string, tasks: () => ReadonlyMap<string, FactsTask>): IssueFacts['changeRequests'] {
	return r.all(
		`SELECT subject_task_id, note, created_at FROM checkpoints WHERE execution_id = ? AND status IN ('active','pending')
		 AND kind IN ('changes_requested','goal_changes_requested') ORDER BY sequence`, [executionId],
	).map((row) => {
		const taskId = str(row, 'subject_task_id');
		const reworkedInto = taskId === '' ? '' : activeReplacement(tasks(), taskId);
		return { taskId, note: str(row, 'note'), requestedAtUnixMs: num(row, 'created_at'), ...(reworkedInto !== '' ? { reworkedInto } : {}) };
	});
}

/**
 * A manual issue has no checkpoints: a request for changes is its decision row (migration 3) while the task is
 * still `failed` from that decision and has not run again (stores from before a request for changes started the
 * task's next attempt itself; since then Tutti takes the request up, and no agent owes it).
 */
function manualChangeRequests(r: Reader, issueId: string): IssueFacts['changeRequests'] {
	return r.all(
		`SELECT d.task_id, d.note, d.created_at FROM review_decisions d JOIN tasks t ON t.issue_id = d.issue_id AND t.task_id = d.task_id
		 WHERE d.issue_id = ? AND d.decision = 'changes_requested' AND t.status = 'failed' AND t.superseded_at = 0 AND t.latest_run_id = d.run_id
		 ORDER BY d.created_at`, [issueId],
	).map((row) => ({ taskId: str(row, 'task_id'), note: str(row, 'note'), requestedAtUnixMs: num(row, 'created_at') }));
}

/** When the awaited Goal Review was requested (migration 3); 0 = none awaiting. */
function goalReviewRequestedAt(r: Reader, executionId: string): number {
	const row = r.get("SELECT requested_at FROM goal_reviews WHERE execution_id = ? AND status = 'awaiting_developer'", [executionId]);
	return row ? num(row, 'requested_at') : 0;
}

/** The oldest follow-up not taken by a next-action call (migration 005). */
function pendingFollowUp(r: Reader, issueId: string): IssueFacts['pendingFollowUp'] {
	const row = followUpRepository.pending(r, issueId);
	return row ? { followUpId: row.followUpId, text: row.text, requestedAtUnixMs: row.requestedAtUnixMs } : null;
}

/** Why the issue's budget lets nothing more start ('' when it does): the one core rule over its budget and spend. */
function budgetBlocker(r: Reader, issueId: string): string {
	const decision = decideBudget(usageRepository.budget(r, issueId), usageRepository.issueTotals(r, issueId));
	return decision.kind === 'ok' ? '' : decision.message;
}

function toTaskFacts(t: FactsTask, pendingReworks: ReadonlyMap<string, ReworkKind>): TaskFacts {
	const pending = t.status === 'not_started' ? pendingReworks.get(t.taskId) : undefined;
	return {
		taskId: t.taskId, title: t.title, status: t.status, acceptanceState: t.acceptanceState,
		superseded: t.supersededAtUnixMs > 0, updatedAtUnixMs: t.updatedAtUnixMs, dependencyTaskIds: t.dependencyTaskIds,
		...(t.latestRunId !== '' ? { latestRunId: t.latestRunId } : {}),
		...(pending !== undefined ? { pendingRework: pending } : {}),
	};
}

/** The issue's tasks as facts: from its kept view when the caller keeps one (the same array until a task changes), else read. */
function factsTasks(r: Reader, issueId: string, view: IssueTaskView | undefined): { tasks: TaskFacts[]; byId: () => ReadonlyMap<string, FactsTask> } {
	const pendingReworks = new Map<string, ReworkKind>();
	for (const rework of reworkRepository.latestOfIssue(r, issueId).values()) {
		if (rework.runId === '') { pendingReworks.set(rework.taskId, rework.kind); }
	}
	if (view !== undefined) {
		const key = [...pendingReworks].map(([taskId, kind]) => `${taskId}:${kind}`).join('|');
		return { tasks: view.derived('facts', key, (ordered) => ordered.map((t) => toTaskFacts(t, pendingReworks))), byId: () => view.byId };
	}
	const tasks = taskRepository.listByIssue(r, issueId);
	return { tasks: tasks.map((t) => toTaskFacts(t, pendingReworks)), byId: () => new Map(tasks.map((t) => [t.taskId, t])) };
}

/** `views`: the issue's kept view of its tasks when the caller keeps them (Store.readWithTasks); else they are read. */
function readIssueFacts(r: Reader, issueId: string, views?: (issueId: string) => IssueTaskView): IssueFacts | undefined {
	const issue = issueRepository.get(r, issueId);
	if (issue === undefined) { return undefined; }
	const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issueId) : undefined;
	const checkpoints = execution ? checkpointRepository.listByExecution(r, execution.executionId) : [];
	const problem = (execution ? verifyExecutionIdentity(execution, { issueId }) : null)
		?? checkpoints.reduce<string | null>((found, c) => found ?? verifyCheckpointIdentity(c, { issueId }), null);
	if (problem !== null) { throw rejection('identity_mismatch', `Refused: ${problem}.`, { issueId }); }
	const active = checkpoints.find((c) => c.status === 'active');
	const tasks = factsTasks(r, issueId, views?.(issueId));
	const lastChange = Math.max(issue.updatedAtUnixMs, execution?.updatedAtUnixMs ?? 0, ...checkpoints.map((c) => c.updatedAtUnixMs),
		taskIndex(tasks.tasks).lastUpdatedAtUnixMs);
	const lastResolved = checkpoints.reduce((max, c) => (c.status === 'resolved' ? Math.max(max, c.resolvedAtUnixMs) : max), 0);
	return {
		issueId,
		issueStatus: issue.status,
		execution: execution ? {
			status: execution.status, createdAtUnixMs: execution.createdAtUnixMs,
			updatedAtUnixMs: execution.updatedAtUnixMs, completedAtUnixMs: execution.completedAtUnixMs,
		} : null,
		activeCheckpoint: active ? {
			checkpointId: active.checkpointId, kind: active.kind, createdAtUnixMs: active.createdAtUnixMs, subjectTaskId: active.subjectTaskId,
			sequence: active.sequence, graphRevision: active.graphRevision,
		} : null,
		hasPendingCheckpoint: checkpoints.some((c) => c.status === 'pending'),
		lastCheckpointResolvedAtUnixMs: lastResolved,
		goalReviewRequestedAtUnixMs: execution ? goalReviewRequestedAt(r, execution.executionId) : 0,
		tasks: tasks.tasks,
		changeRequests: execution ? openChangeRequests(r, execution.executionId, tasks.byId) : manualChangeRequests(r, issueId),
		finishedAtUnixMs: finishRepository.finishedAt(r, issueId),
		pendingFollowUp: pendingFollowUp(r, issueId),
		lastChangeUnixMs: lastChange,
		budgetBlocker: budgetBlocker(r, issueId),
	};
}

function readSessionFacts(r: Reader, sessionId: string): SessionFacts | undefined {
	const session = sessionRepository.get(r, sessionId);
	if (session === undefined) { return undefined; }
	let issueId = session.issueId;
	if (issueId === '' && session.role === 'source') {
		// A source session becomes an issue's source by `plan issue create`; its newest execution is the one it owes.
		const owned = executionRepository.listBySource(r, sessionId);
		issueId = owned.length > 0 ? (owned[owned.length - 1]?.issueId ?? '') : '';
	}
	const issue = issueId !== '' ? readIssueFacts(r, issueId) ?? null : null;
	return { sessionId, role: session.role, issueId, issue, wakesDelivered: session.role === 'source' && session.agentTargetId !== '' };
}

export const issueFactsRepository = {
	/** The facts of one issue; undefined when there is no such issue. */
	ofIssue: readIssueFacts,
	/** The facts of one agent session and the issue it owes work on; undefined when there is no such session. */
	ofSession: readSessionFacts,
};
