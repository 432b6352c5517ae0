// The independent reviewer's Goal Reviews (migration 006) and the review target of an execution. Rows are never
// deleted: a superseded review is stored `canceled`, a reviewer Turn without a verdict `failed`.
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export type ReviewerReviewStatus = 'prepared' | 'dispatched' | 'submitted' | 'failed' | 'canceled';
export type ReviewerVerdict = '' | 'goal_satisfied' | 'more_work_required' | 'inconclusive';

export interface ReviewerReview {
	reviewId: string;
	executionId: string;
	checkpointId: string;
	checkpointSequence: number;
	reviewAgentTargetId: string;
	reviewSessionId: string;
	clientSubmitId: string;
	status: ReviewerReviewStatus;
	verdict: ReviewerVerdict;
	summary: string;
	verdictRequestId: string;
	failureReason: string;
	disagreementReason: string;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

/** Statuses in which the reviewer still holds control of the checkpoint (the main wake waits). */
export const activeReviewerStatuses: readonly ReviewerReviewStatus[] = ['prepared', 'dispatched'];

function fromRow(row: Row): ReviewerReview {
	return {
		reviewId: str(row, 'review_id'),
		executionId: str(row, 'execution_id'),
		checkpointId: str(row, 'checkpoint_id'),
		checkpointSequence: num(row, 'checkpoint_sequence'),
		reviewAgentTargetId: str(row, 'review_agent_target_id'),
		reviewSessionId: str(row, 'review_session_id'),
		clientSubmitId: str(row, 'client_submit_id'),
		status: str(row, 'status') as ReviewerReviewStatus,
		verdict: str(row, 'verdict') as ReviewerVerdict,
		summary: str(row, 'summary'),
		verdictRequestId: str(row, 'verdict_request_id'),
		failureReason: str(row, 'failure_reason'),
		disagreementReason: str(row, 'disagreement_reason'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const reviewerReviewRepository = {
	setReviewTarget(tx: Tx, executionId: string, agentTargetId: string): void {
		tx.run('INSERT OR REPLACE INTO review_targets (execution_id, review_agent_target_id) VALUES (?, ?)', [executionId, agentTargetId]);
	},
	/** The agent target reviewing an independent execution ('' when none is recorded). */
	reviewTargetOf(r: Reader, executionId: string): string {
		const row = r.get('SELECT review_agent_target_id FROM review_targets WHERE execution_id = ?', [executionId]);
		return row ? str(row, 'review_agent_target_id') : '';
	},
	get(r: Reader, reviewId: string): ReviewerReview | undefined {
		const row = r.get('SELECT * FROM reviewer_reviews WHERE review_id = ?', [reviewId]);
		return row ? fromRow(row) : undefined;
	},
	bySubmitId(r: Reader, clientSubmitId: string): ReviewerReview | undefined {
		const row = r.get('SELECT * FROM reviewer_reviews WHERE client_submit_id = ?', [clientSubmitId]);
		return row ? fromRow(row) : undefined;
	},
	/** Every review of a checkpoint, oldest first. */
	listByCheckpoint(r: Reader, checkpointId: string): ReviewerReview[] {
		return r.all('SELECT * FROM reviewer_reviews WHERE checkpoint_id = ? ORDER BY checkpoint_sequence, created_at, review_id', [checkpointId]).map(fromRow);
	},
	insert(tx: Tx, v: ReviewerReview): void {
		tx.run(
			`INSERT INTO reviewer_reviews (review_id, execution_id, checkpoint_id, checkpoint_sequence, review_agent_target_id, review_session_id,
			 client_submit_id, status, verdict, summary, verdict_request_id, failure_reason, disagreement_reason, created_at, updated_at)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			[v.reviewId, v.executionId, v.checkpointId, v.checkpointSequence, v.reviewAgentTargetId, v.reviewSessionId, v.clientSubmitId,
				v.status, v.verdict, v.summary, v.verdictRequestId, v.failureReason, v.disagreementReason, v.createdAtUnixMs, v.updatedAtUnixMs],
		);
	},
	/** Cancels the execution's reviews still waiting for a verdict (stop/archive); returns how many. */
	cancelOpenOfExecution(tx: Tx, executionId: string, nowUnixMs: number, reason: string): number {
		return tx.run(
			`UPDATE reviewer_reviews SET status = 'canceled', failure_reason = ?, updated_at = ? WHERE execution_id = ? AND status IN (${activeReviewerStatuses.map(() => '?').join(', ')})`,
			[reason, nowUnixMs, executionId, ...activeReviewerStatuses],
		);
	},
	update(tx: Tx, v: ReviewerReview): void {
		tx.run(
			`UPDATE reviewer_reviews SET status = ?, verdict = ?, summary = ?, verdict_request_id = ?, failure_reason = ?, disagreement_reason = ?,
			 updated_at = ? WHERE review_id = ?`,
			[v.status, v.verdict, v.summary, v.verdictRequestId, v.failureReason, v.disagreementReason, v.updatedAtUnixMs, v.reviewId],
		);
	},
};
