// `plan issue complete --decision goal_satisfied`: only the source session,
// only at the active all_tasks_terminal checkpoint and its revision, and only when no task still awaits the
// developer's acceptance (`acceptance_pending`). Resolves the checkpoint; then, with developer confirmation on (the
// default; per issue via `plan issue create --developer-confirmation`), opens a Goal Review request and leaves the
// execution in pending_goal_review until the developer confirms (`tutti goal confirm`) or requests changes;
// with it off, completes the execution and the issue atomically. Completion is never inferred from task states.
// With review_mode independent the reviewer's verdict is advisory: anything but goal_satisfied needs an audited
// --disagreement-reason (independentCompletion.ts).
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import { checkIndependentReview } from '../reviews/independentCompletion.js';
import { assertNothingAwaitsAcceptance, completeExecution, developerConfirmationFor, openGoalReview } from '../reviews/goalCompletion.js';
import { resolveCheckpoint } from '../../checkpoints/checkpointSteps.js';
import { callerSessionId, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type CompleteResult = Result<'plan/complete'>;

export async function completePlan(ctx: PlanContext, params: ParsedParams<'plan/complete'>, caller: Caller): Promise<CompleteResult> {
	const identity = requestIdentity('complete', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision,
		decision: params.decision, disagreementReason: params.disagreementReason ?? '',
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<CompleteResult>(tx, identity);
		if (replay) { return replay; }
		const { issue, execution: before, checkpoint } = passFences(tx, { ...params, caller, command: 'complete' });
		assertNothingAwaitsAcceptance(taskRepository.listByIssue(tx, issue.issueId), issue.issueId, 'complete');
		const now = ctx.clock.now();
		checkIndependentReview(tx, before, checkpoint, params.disagreementReason ?? '', now);
		resolveCheckpoint(tx, checkpoint, now);
		const base = { executionId: before.executionId, checkpointId: checkpoint.checkpointId, graphRevision: before.graphRevision, decision: params.decision, replayed: false };
		if (developerConfirmationFor(tx, ctx.config, before.executionId)) {
			const { execution, goalReview } = openGoalReview(tx, before, checkpoint, { disagreementReason: params.disagreementReason ?? '', nowUnixMs: now });
			return recordResult(tx, identity, { ...base, executionStatus: execution.status, goalReviewId: goalReview.goalReviewId }, execution.graphRevision, now);
		}
		const execution = completeExecution(tx, issue, before, now);
		return recordResult(tx, identity, { ...base, executionStatus: execution.status }, execution.graphRevision, now);
	});
}
