// The developer's decision on a task's result: accept, or request changes with a non-empty note. Only the
// developer decides (an agent token is `forbidden`), and only on a task in `pending_acceptance`; the decision is a
// durable row keyed by the decided Run, so repeating the same decision replays it (`replayed:true`).
// - accept → completed / user_accepted; dependents become ready (a manual issue's dispatcher runs a pass; on a managed
//   issue a `task_accepted` checkpoint carrying the note, if any, goes to the source agent — none while Goal Review
//   is open or queued, which is then the next step).
// - request changes → on a manual issue a new attempt of the same task in its tree, whose prompt carries the note
//   (the task is not_started until its Run starts, never failed); on a managed issue the task fails (acceptanceState
//   '') and a `changes_requested` checkpoint carrying the note goes to the source agent, which reworks it.
// Either checkpoint is active at once (with its main wake) when the developer's review was the only step owed
// (decisionCheckpoint.ts), else it queues behind the active one.
import { bindAcceptance } from '../../delivery/acceptanceBinding.js';
import { settlementSuppressed } from '../../../core/execution/backlog.js';
import { rejection } from '../../../core/hints.js';
import { acceptedCheckpointId, reacceptedCheckpointId, changesRequestedCheckpointId } from '../../../core/ids.js';
import type { Checkpoint, Execution, Issue, Task, TaskRework } from '../../../core/model.js';
import type { Caller, Result } from '../../../protocol/controlPlane.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { type ReviewDecision, type ReviewDecisionKind, reviewDecisionId, reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import type { Reader, Tx } from '../../../store/tx.js';
import { requireUser } from '../callerPolicy.js';
import { requireExecutionIdentity, requireRunIdentity } from '../identityChecks.js';
import { nextIssueStatus } from '../../../core/issues/issueStatus.js';
import { reviewOnlyTaskIds } from '../../checkpoints/reviewOnly.js';
import { appendDecisionCheckpoint } from './decisionCheckpoint.js';
import { requestReworkInTx } from '../../runs/taskReworks.js';
import type { ReviewContext } from './reviewContext.js';
import { acceptanceChecksOf } from '../../checks/verificationSteps.js';
import { verificationRepository } from '../../../store/repositories/verificationRepository.js';

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

/** The managed execution a decision is handed to (none for manual issues and ended executions). */
function liveExecution(tx: Tx, issue: Issue): Execution | undefined {
	const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(tx, issue.issueId) : undefined;
	if (execution) { requireExecutionIdentity(execution, issue.issueId); }
	return execution && !settlementSuppressed(execution.status) ? execution : undefined;
}

/**
 * Hands the decision to the source agent as a checkpoint; `decide` changes the task row in between (the rule "only
 * the developer could move" is read before it). Returns the checkpoint id, '' when none was created.
 */
function decideAndHandOver(
	tx: Tx, issue: Issue, task: Task, fields: Pick<Checkpoint, 'checkpointId' | 'kind' | 'creationReason' | 'note'> | null, decide: () => void, now: number,
): string {
	const execution = liveExecution(tx, issue);
	const developerOnly = execution !== undefined && reviewOnlyTaskIds(tx, execution).includes(task.taskId);
	decide();
	if (execution === undefined || fields === null) { return ''; }
	const checkpoint = appendDecisionCheckpoint(tx, execution, issue, { ...fields, subjectTaskId: task.taskId, subjectRunId: task.latestRunId }, developerOnly, now);
	return checkpoint?.checkpointId ?? '';
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
		const execution = liveExecution(tx, issue);
		// Accepting again a result reopened after its branch moved is news too: a checkpoint of its own (by sequence).
		const checkpointIdFor = (e: Execution): string => {
			const first = acceptedCheckpointId(e.executionId, task.latestRunId);
			return checkpointRepository.get(tx, first) ? reacceptedCheckpointId(e.executionId, task.latestRunId, checkpointRepository.maxSequence(tx, e.executionId) + 1) : first;
		};
		const checkpointId = decideAndHandOver(tx, issue, task, execution ? {
			checkpointId: checkpointIdFor(execution), kind: 'task_accepted', creationReason: 'developer_accepted', note,
		} : null, () => {
			taskRepository.update(tx, accepted);
			bindAcceptance(tx, issue.issueId, task.taskId, task.latestRunId, now);
			// The developer may accept a result whose checks failed (or still run): the acceptance says so.
			verificationRepository.recordAcceptance(tx, issue.issueId, task.taskId, task.latestRunId, acceptanceChecksOf(tx, task.latestRunId), now);
		}, now);
		const decision = recordDecision(tx, ctx, issue, task, { decision: 'accepted', note, checkpointId }, now);
		return resultOf(decision, accepted, false);
	});
	return outcome;
}

/**
 * `review/requestChanges` (`tutti review request-changes --issue-id X --task-id T --note N --as-user`). On a manual
 * issue the task's next attempt carries the note (taskReworks.ts): the task waits for it as not_started, never failed.
 */
export async function requestTaskChanges(ctx: ReviewContext, params: TaskDecisionInput, caller: Caller): Promise<TaskDecisionResult> {
	const command = 'review request-changes';
	requireUser(caller, command, { issueId: params.issueId });
	const note = requiredNote(params.note, command, params.issueId);
	const outcome = await ctx.store.transaction((tx) => {
		const { issue, task } = load(tx, params, command);
		if (!awaitingReview(task)) { return replayOrRefuse(tx, issue, task, 'changes_requested', note, command); }
		const now = ctx.clock.now();
		const execution = liveExecution(tx, issue);
		let rework: TaskRework | undefined;
		const checkpointId = decideAndHandOver(tx, issue, task, execution ? {
			checkpointId: changesRequestedCheckpointId(execution.executionId, task.latestRunId), kind: 'changes_requested', creationReason: 'developer_requested_changes', note,
		} : null, () => {
			if (issue.planningSource === 'manual') {
				rework = requestReworkInTx(tx, { issue, task, kind: 'changes_requested', note, nowUnixMs: now });
			} else {
				// The source agent reworks it (a changes_requested checkpoint carries the note): the failed task is its to replace.
				taskRepository.update(tx, { ...task, status: 'failed', acceptanceState: '', updatedAtUnixMs: now });
			}
		}, now);
		const decided = taskRepository.get(tx, issue.issueId, task.taskId) ?? task;
		const decision = recordDecision(tx, ctx, issue, decided, { decision: 'changes_requested', note, checkpointId }, now);
		const result = resultOf(decision, decided, false);
		return rework !== undefined ? { ...result, rework: { reworkId: rework.reworkId, attempt: rework.attempt } } : result;
	});
	return outcome;
}
