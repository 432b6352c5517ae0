// The developer's decision on a task's result (SPEC §7): accept, or request changes with a non-empty note. Only the
// developer decides (an agent token is `forbidden`), and only on a task in `pending_acceptance`; the decision is a
// durable row keyed by the decided Run, so repeating the same decision replays it (`replayed:true`).
// - accept → completed / user_accepted; dependents become ready (a manual issue's dispatcher runs a pass; a managed
//   issue's source agent sees it at its active checkpoint or its next await — nothing else is created).
// - request changes → failed (acceptanceState ''), so the rework path applies; on a managed issue a
//   `changes_requested` checkpoint carrying the note goes to the source agent (active if none is, else pending).
import { settlementSuppressed } from '../../../core/execution/backlog.js';
import { rejection } from '../../../core/hints.js';
import { changesRequestedCheckpointId } from '../../../core/ids.js';
import type { Issue, Task } from '../../../core/model.js';
import type { Caller, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { type ReviewDecision, type ReviewDecisionKind, reviewDecisionId, reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import type { Reader, Tx } from '../../../store/tx.js';
import { requireUser } from '../callerPolicy.js';
import { requireRunIdentity } from '../identityChecks.js';
import { nextIssueStatus } from '../issueStatus.js';
import { appendChangesCheckpoint } from './changesCheckpoint.js';
import type { ReviewContext } from './reviewContext.js';

export type TaskDecisionResult = Result<'review/accept'>;

interface TaskDecisionInput {
	issueId: string;
	taskId: string;
	note?: string;
}

/** The developer's note, trimmed; a request for changes needs one (invalid input otherwise). */
export function requiredNote(note: string | undefined, command: string, issueId: string): string {
	const trimmed = (note ?? '').trim();
	if (trimmed === '') {
		throw rejection('invalid_input', `${command}: --note must say what should change (it is sent to the source agent); it is empty.`, { issueId });
	}
	return trimmed;
}

function load(r: Reader, input: TaskDecisionInput, command: string): { issue: Issue; task: Task } {
	const issue = issueRepository.get(r, input.issueId);
	if (!issue) { throw rejection('issue_not_found', `${command}: there is no issue ${input.issueId}.`, { issueId: input.issueId }); }
	const task = taskRepository.get(r, input.issueId, input.taskId);
	if (!task) { throw rejection('task_not_found', `${command}: issue ${input.issueId} has no task ${input.taskId}.`, { issueId: input.issueId, taskId: input.taskId }); }
	const run = task.latestRunId ? runRepository.get(r, task.latestRunId) : undefined;
	if (run) { requireRunIdentity(r, run, { issueId: issue.issueId, taskId: task.taskId }); }
	return { issue, task };
}

function resultOf(d: ReviewDecision, task: Task, replayed: boolean): TaskDecisionResult {
	return {
		decisionId: d.decisionId, issueId: d.issueId, taskId: d.taskId, runId: d.runId, decision: d.decision, note: d.note,
		checkpointId: d.checkpointId, taskStatus: task.status, acceptanceState: task.acceptanceState, replayed,
	};
}

/**
 * The replay of the same decision on the same Run, or the refusal: the task is not awaiting a decision (never run,
 * running, already decided differently, superseded…).
 */
function replayOrRefuse(r: Reader, issue: Issue, task: Task, decision: ReviewDecisionKind, note: string, command: string): TaskDecisionResult {
	const existing = reviewRepository.decisionFor(r, issue.issueId, task.taskId, task.latestRunId);
	if (existing && existing.decision === decision && (decision === 'accepted' || existing.note === note)) {
		return resultOf(existing, task, true);
	}
	const why = existing
		? `the developer already ${existing.decision === 'accepted' ? 'accepted' : 'requested changes on'} its result${existing.decision === decision ? ' with a different note' : ''}`
		: `its status is ${task.status}${task.supersededAtUnixMs > 0 ? ' (superseded)' : ''}`;
	throw rejection('review_not_pending', `${command}: task ${task.taskId} is not awaiting your review: ${why}.`,
		{ issueId: issue.issueId, taskId: task.taskId }, { taskStatus: task.status, decision: existing?.decision ?? '' });
}

function awaitingReview(task: Task): boolean {
	return task.status === 'pending_acceptance' && task.supersededAtUnixMs === 0;
}

function recordDecision(
	tx: Tx, ctx: ReviewContext, issue: Issue, task: Task, fields: { decision: ReviewDecisionKind; note: string; checkpointId: string }, now: number,
): ReviewDecision {
	const run = task.latestRunId ? runRepository.get(tx, task.latestRunId) : undefined;
	const decision: ReviewDecision = {
		decisionId: reviewDecisionId(issue.issueId, task.taskId, task.latestRunId),
		issueId: issue.issueId,
		taskId: task.taskId,
		runId: task.latestRunId,
		decision: fields.decision,
		note: fields.note,
		decidedBy: 'user',
		checkpointId: fields.checkpointId,
		reviewEnteredAtUnixMs: run && run.completedAtUnixMs > 0 ? run.completedAtUnixMs : task.updatedAtUnixMs,
		createdAtUnixMs: now,
	};
	reviewRepository.insertDecision(tx, decision);
	const status = nextIssueStatus(issue, issueRepository.counts(tx, issue.issueId), false);
	if (status !== issue.status) { issueRepository.update(tx, { ...issue, status, updatedAtUnixMs: now }); }
	return decision;
}

/** `review/accept` (`tutti review accept --issue-id X --task-id T [--note N] --as-user`). */
export async function acceptTask(ctx: ReviewContext, params: TaskDecisionInput, caller: Caller): Promise<TaskDecisionResult> {
	const command = 'review accept';
	requireUser(caller, command, { issueId: params.issueId });
	const note = (params.note ?? '').trim();
	const outcome = await ctx.store.transaction((tx) => {
		const { issue, task } = load(tx, params, command);
		if (!awaitingReview(task)) { return replayOrRefuse(tx, issue, task, 'accepted', note, command); }
		const now = ctx.clock.now();
		const accepted: Task = { ...task, status: 'completed', acceptanceState: 'user_accepted', updatedAtUnixMs: now };
		taskRepository.update(tx, accepted);
		const decision = recordDecision(tx, ctx, issue, task, { decision: 'accepted', note, checkpointId: '' }, now);
		return resultOf(decision, accepted, false);
	});
	if (!outcome.replayed) { ctx.workChanged(); }
	return outcome;
}

/** `review/requestChanges` (`tutti review request-changes --issue-id X --task-id T --note N --as-user`). */
export async function requestTaskChanges(ctx: ReviewContext, params: TaskDecisionInput, caller: Caller): Promise<TaskDecisionResult> {
	const command = 'review request-changes';
	requireUser(caller, command, { issueId: params.issueId });
	const note = requiredNote(params.note, command, params.issueId);
	const outcome = await ctx.store.transaction((tx) => {
		const { issue, task } = load(tx, params, command);
		if (!awaitingReview(task)) { return replayOrRefuse(tx, issue, task, 'changes_requested', note, command); }
		const now = ctx.clock.now();
		const failed: Task = { ...task, status: 'failed', acceptanceState: '', updatedAtUnixMs: now };
		taskRepository.update(tx, failed);
		let checkpointId = '';
		const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(tx, issue.issueId) : undefined;
		if (execution && !settlementSuppressed(execution.status)) {
			const appended = appendChangesCheckpoint(tx, execution, issue, {
				checkpointId: changesRequestedCheckpointId(execution.executionId, task.latestRunId),
				kind: 'changes_requested',
				subjectTaskId: task.taskId,
				subjectRunId: task.latestRunId,
				creationReason: 'developer_requested_changes',
				note,
			}, now);
			checkpointId = appended.checkpoint.checkpointId;
		}
		const decision = recordDecision(tx, ctx, issue, task, { decision: 'changes_requested', note, checkpointId }, now);
		return resultOf(decision, failed, false);
	});
	if (!outcome.replayed) { ctx.workChanged(); }
	return outcome;
}
