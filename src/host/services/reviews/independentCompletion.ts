// `plan issue complete` at an independent execution's Goal Review: the reviewer's verdict is
// advisory. While the reviewer still holds the checkpoint, completion waits for it; without a goal_satisfied verdict
// (more_work_required, inconclusive, a failed or superseded review) a non-empty --disagreement-reason is required and
// recorded on the review row (audit).
import { rejection } from '../../../core/hints.js';
import type { Checkpoint, Execution } from '../../../core/model.js';
import { activeReviewerStatuses, reviewerReviewRepository } from '../../../store/repositories/reviewerReviewRepository.js';
import type { Tx } from '../../../store/tx.js';
import { currentReview } from '../../checkpoints/independentReview.js';

export function checkIndependentReview(tx: Tx, execution: Execution, checkpoint: Checkpoint, disagreementReason: string, nowUnixMs: number): void {
	if (execution.reviewMode !== 'independent' || checkpoint.kind !== 'all_tasks_terminal') { return; }
	const review = currentReview(tx, checkpoint);
	const ctx = { issueId: execution.issueId, checkpointId: checkpoint.checkpointId };
	if (review && activeReviewerStatuses.includes(review.status)) {
		throw rejection('inactive_checkpoint',
			`complete: the independent reviewer has not given its verdict yet (review ${review.reviewId} is ${review.status}); wait for the wake that carries its verdict.`, ctx);
	}
	if (review?.status === 'submitted' && review.verdict === 'goal_satisfied') { return; }
	const outcome = !review ? 'no independent review exists for this checkpoint'
		: review.status === 'submitted' ? `the independent reviewer's verdict is ${review.verdict}`
			: `the independent review ${review.status === 'failed' ? 'failed' : 'was canceled'} (${review.failureReason})`;
	if (disagreementReason.trim() === '') {
		throw rejection('invalid_input', `complete: ${outcome}; completing anyway requires --disagreement-reason "<why>" (recorded for audit).`,
			ctx, review ? { reviewId: review.reviewId } : {});
	}
	if (review) { reviewerReviewRepository.update(tx, { ...review, disagreementReason: disagreementReason.trim(), updatedAtUnixMs: nowUnixMs }); }
}
