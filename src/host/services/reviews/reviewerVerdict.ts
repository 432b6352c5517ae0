// `tutti goal-review verdict`: the reviewer session's one structured verdict. Only the
// review's own reviewer session may call it (any other session: wrong_source_session; the developer: forbidden);
// it is fenced on the review id, the active checkpoint and the graph revision. Exactly one verdict per review: the
// same request replays, any other one is refused (request_id_conflict). The verdict is advisory.
import { rejection } from '../../../core/hints.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { reviewerReviewRepository } from '../../../store/repositories/reviewerReviewRepository.js';
import { findManaged } from '../plan/planContext.js';
import { recordVerdict } from '../../checkpoints/independentReview.js';
import type { ReviewContext } from './reviewContext.js';

type VerdictResult = Result<'goalReview/verdict'>;

export async function submitReviewerVerdict(ctx: Pick<ReviewContext, 'store' | 'clock'>, params: ParsedParams<'goalReview/verdict'>, caller: Caller): Promise<VerdictResult> {
	const where = { issueId: params.issueId, checkpointId: params.checkpointId };
	if (caller.kind !== 'session') {
		throw rejection('forbidden', 'goal-review verdict is given by the independent reviewer session only; the developer decides with `tutti goal confirm`.', where);
	}
	const summary = params.summary.trim();
	if (summary === '') { throw rejection('invalid_input', 'goal-review verdict: --summary must not be empty.', where); }
	return ctx.store.transaction((tx) => {
		const review = reviewerReviewRepository.get(tx, params.reviewId);
		const managed = findManaged(tx, params.issueId);
		if (!review || !managed || review.executionId !== managed.execution.executionId) {
			throw rejection('inactive_checkpoint', `goal-review verdict: issue ${params.issueId} has no independent review ${params.reviewId}.`, where);
		}
		if (caller.role !== 'reviewer' || caller.sessionId !== review.reviewSessionId) {
			throw rejection('wrong_source_session', `goal-review verdict: only the reviewer session of review ${review.reviewId} may give its verdict (the caller is ${caller.role} session ${caller.sessionId}).`, where);
		}
		if (review.status === 'submitted') {
			if (review.verdictRequestId === params.requestId && review.verdict === params.verdict && review.summary === summary) {
				return { reviewId: review.reviewId, verdict: params.verdict, replayed: true };
			}
			throw rejection('request_id_conflict',
				`goal-review verdict: review ${review.reviewId} already has its one verdict (${review.verdict}, request ${review.verdictRequestId}); a review takes exactly one verdict.`, where);
		}
		if (review.status !== 'prepared' && review.status !== 'dispatched') {
			throw rejection('inactive_checkpoint', `goal-review verdict: review ${review.reviewId} is ${review.status}${review.failureReason ? ` (${review.failureReason})` : ''} and takes no verdict.`, where);
		}
		const checkpoint = checkpointRepository.get(tx, params.checkpointId);
		const { execution } = managed;
		if (review.checkpointId !== params.checkpointId || !checkpoint || checkpoint.status !== 'active' || execution.activeCheckpointId !== checkpoint.checkpointId) {
			throw rejection('inactive_checkpoint', `goal-review verdict: checkpoint ${params.checkpointId} is not the active checkpoint of review ${review.reviewId}.`, where);
		}
		if (params.expectedGraphRevision !== execution.graphRevision || checkpoint.graphRevision !== execution.graphRevision) {
			throw rejection('stale_graph_revision', `goal-review verdict: the graph revision is ${execution.graphRevision}, not ${params.expectedGraphRevision}.`, where);
		}
		recordVerdict(tx, review, { verdict: params.verdict, summary, verdictRequestId: params.requestId }, ctx.clock.now());
		return { reviewId: review.reviewId, verdict: params.verdict, replayed: false };
	});
}
