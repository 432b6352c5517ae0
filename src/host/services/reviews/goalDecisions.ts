// The developer's decision at Goal Review: confirm → the execution and its issue complete; request
// changes (non-empty note) → a `goal_changes_requested` checkpoint carrying the note goes back to the source agent
// (awaiting_main). Only the developer decides, only while a Goal Review request awaits them; repeating the same
// decision replays it (`replayed:true`).
import { rejection } from '../../../core/hints.js';
import { goalChangesCheckpointId } from '../../../core/ids.js';
import type { Caller, Result } from '../../../protocol/controlPlane.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { type GoalReview, type GoalReviewStatus, reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import type { Reader } from '../../../store/tx.js';
import { requireUser } from '../callerPolicy.js';
import { findManaged, type ManagedIssue } from '../plan/planContext.js';
import { appendChangesCheckpoint } from './changesCheckpoint.js';
import { assertNothingAwaitsAcceptance, completeExecution } from './goalCompletion.js';
import type { ReviewContext } from './reviewContext.js';
import { requiredNote } from './taskDecisions.js';

export type GoalDecisionResult = Result<'goal/confirm'>;

function loadManaged(r: Reader, issueId: string, command: string): ManagedIssue {
	const managed = findManaged(r, issueId);
	if (!managed) { throw rejection('execution_not_found', `${command}: issue ${issueId} has no managed execution (only managed issues have a Goal Review).`, { issueId }); }
	return managed;
}

function resultOf(g: GoalReview, executionStatus: GoalDecisionResult['executionStatus'], replayed: boolean): GoalDecisionResult {
	return {
		goalReviewId: g.goalReviewId, issueId: g.issueId, executionId: g.executionId, status: g.status === 'confirmed' ? 'confirmed' : 'changes_requested',
		note: g.note, checkpointId: g.replyCheckpointId, executionStatus, replayed,
	};
}

/** The request awaiting the developer, or the replay of the same decision, or `review_not_pending`. */
function awaitingOrReplay(r: Reader, managed: ManagedIssue, status: GoalReviewStatus, note: string, command: string): GoalReview | GoalDecisionResult {
	const { execution } = managed;
	const awaiting = execution.status === 'pending_goal_review' ? reviewRepository.awaitingGoalReview(r, execution.executionId) : undefined;
	if (awaiting) { return awaiting; }
	const latest = reviewRepository.latestGoalReview(r, execution.executionId);
	if (latest && latest.status === status && (status === 'confirmed' || latest.note === note)) {
		return resultOf(latest, execution.status, true);
	}
	throw rejection('review_not_pending',
		`${command}: issue ${managed.issue.issueId} has no Goal Review awaiting your confirmation (the execution is ${execution.status}; the source agent asks for it with \`tutti plan issue complete\`).`,
		{ issueId: managed.issue.issueId }, { executionStatus: execution.status, latestGoalReviewStatus: latest?.status ?? '' });
}

/** `goal/confirm` (`tutti goal confirm --issue-id X --as-user`). */
export async function confirmGoal(ctx: ReviewContext, params: { issueId: string }, caller: Caller): Promise<GoalDecisionResult> {
	const command = 'goal confirm';
	requireUser(caller, command, { issueId: params.issueId });
	return ctx.store.transaction((tx) => {
		const managed = loadManaged(tx, params.issueId, command);
		const found = awaitingOrReplay(tx, managed, 'confirmed', '', command);
		if ('replayed' in found) { return found; }
		assertNothingAwaitsAcceptance(taskRepository.listByIssue(tx, params.issueId), params.issueId, command);
		const now = ctx.clock.now();
		const completed = completeExecution(tx, managed.issue, managed.execution, now);
		const confirmed: GoalReview = { ...found, status: 'confirmed', decidedAtUnixMs: now, updatedAtUnixMs: now };
		reviewRepository.updateGoalReview(tx, confirmed);
		return resultOf(confirmed, completed.status, false);
	});
}

/** `goal/requestChanges` (`tutti goal request-changes --issue-id X --note N --as-user`). */
export async function requestGoalChanges(ctx: ReviewContext, params: { issueId: string; note?: string }, caller: Caller): Promise<GoalDecisionResult> {
	const command = 'goal request-changes';
	requireUser(caller, command, { issueId: params.issueId });
	const note = requiredNote(params.note, command, params.issueId);
	return ctx.store.transaction((tx) => {
		const managed = loadManaged(tx, params.issueId, command);
		const found = awaitingOrReplay(tx, managed, 'changes_requested', note, command);
		if ('replayed' in found) { return found; }
		const now = ctx.clock.now();
		const { execution } = managed;
		const appended = appendChangesCheckpoint(tx, execution, managed.issue, {
			checkpointId: goalChangesCheckpointId(execution.executionId, checkpointRepository.maxSequence(tx, execution.executionId) + 1),
			kind: 'goal_changes_requested',
			subjectTaskId: '',
			subjectRunId: '',
			creationReason: 'developer_requested_goal_changes',
			note,
		}, now);
		const decided: GoalReview = {
			...found, status: 'changes_requested', note, replyCheckpointId: appended.checkpoint.checkpointId, decidedAtUnixMs: now, updatedAtUnixMs: now,
		};
		reviewRepository.updateGoalReview(tx, decided);
		return resultOf(decided, appended.execution.status, false);
	});
}
