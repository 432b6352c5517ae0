// The independent reviewer at Goal Review. When the all_tasks_terminal
// checkpoint of an execution with review_mode independent becomes active, the same transaction prepares ONE review
// (`<checkpointId>:goal-review:<n>`), a hidden reviewer session on the review target, and a reviewer wake (submit id
// `tutti-goal-review:<reviewId>`). While the review is prepared or dispatched the checkpoint's main wake is held;
// the reviewer's one verdict (or its failure) releases it. The verdict is advisory: the source session decides.
import { shellQuote } from '../../core/execution/planCommands.js';
import type { Checkpoint, Execution, Issue, Wake } from '../../core/model.js';
import { reviewerReviewRepository, activeReviewerStatuses, type ReviewerReview } from '../../store/repositories/reviewerReviewRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { mintToken, tokenHash } from '../turns/sessionTokens.js';

/** The n-th independent review of a checkpoint. */
export function reviewerReviewId(checkpointId: string, n: number): string {
	return `${checkpointId}:goal-review:${n}`;
}

/** The reviewer wake's Turn submit id. */
export function reviewerSubmitId(reviewId: string): string {
	return `tutti-goal-review:${reviewId}`;
}

/**
 * The exact verdict command the reviewer runs, spelled with `goal_satisfied` so it parses as printed; the reviewer
 * swaps in its own verdict and summary.
 */
export function verdictCommand(issueId: string, review: Pick<ReviewerReview, 'reviewId' | 'checkpointId'>, graphRevision: number): string {
	return `tutti goal-review verdict --issue-id ${shellQuote(issueId)} --review-id ${shellQuote(review.reviewId)} --checkpoint-id ${shellQuote(review.checkpointId)} `
		+ `--expected-graph-revision ${graphRevision} --verdict goal_satisfied --summary "<why>" `
		+ `--request-id ${shellQuote(`${review.reviewId}:verdict`)} --json`;
}

function reviewerPrompt(r: Reader, issue: Issue, review: ReviewerReview, graphRevision: number): string {
	const tasks = taskRepository.listByIssue(r, issue.issueId).filter((t) => t.supersededAtUnixMs === 0);
	return [
		`You are the independent reviewer of issue ${issue.issueId}. Review only: do not change files, run no plan commands.`,
		'',
		`Goal: ${issue.title}`,
		issue.content,
		'',
		'Tasks:',
		...tasks.map((t) => `- ${t.taskId} ${t.title}: ${t.status}${t.acceptanceState ? ` (${t.acceptanceState})` : ''}`),
		'',
		'Decide whether the goal is satisfied, then give exactly one verdict with this command, putting your reason in --summary and, when the goal is not satisfied, more_work_required or inconclusive in --verdict:',
		verdictCommand(issue.issueId, review, graphRevision),
		'Your verdict is advisory: the source session decides whether to complete.',
	].join('\n');
}

/**
 * Prepares the review of an activated all_tasks_terminal checkpoint of an independent execution (idempotent: one
 * review per activation, keyed by the checkpoint's sequence). Returns it, or null when none applies.
 */
export function prepareIndependentReview(tx: Tx, execution: Execution, issue: Issue, checkpoint: Checkpoint, nowUnixMs: number): ReviewerReview | null {
	if (checkpoint.kind !== 'all_tasks_terminal' || execution.reviewMode !== 'independent') { return null; }
	const targetId = reviewerReviewRepository.reviewTargetOf(tx, execution.executionId);
	if (targetId === '') { return null; }
	const earlier = reviewerReviewRepository.listByCheckpoint(tx, checkpoint.checkpointId);
	if (earlier.some((v) => v.checkpointSequence === checkpoint.sequence)) { return null; }
	const n = earlier.length + 1;
	const reviewId = reviewerReviewId(checkpoint.checkpointId, n);
	const review: ReviewerReview = {
		reviewId, executionId: execution.executionId, checkpointId: checkpoint.checkpointId, checkpointSequence: checkpoint.sequence,
		reviewAgentTargetId: targetId, reviewSessionId: `${reviewId}:session`, clientSubmitId: reviewerSubmitId(reviewId),
		status: 'prepared', verdict: '', summary: '', verdictRequestId: '', failureReason: '', disagreementReason: '',
		createdAtUnixMs: nowUnixMs, updatedAtUnixMs: nowUnixMs,
	};
	reviewerReviewRepository.insert(tx, review);
	sessionRepository.insert(tx, {
		sessionId: review.reviewSessionId, role: 'reviewer', issueId: issue.issueId, taskId: '', runId: '',
		agentTargetId: targetId, providerSessionId: '', createdAtUnixMs: nowUnixMs,
	}, tokenHash(mintToken()));
	const wake: Wake = {
		wakeId: `${checkpoint.checkpointId}:wake:reviewer:${n}`, executionId: execution.executionId, checkpointId: checkpoint.checkpointId,
		targetKind: 'reviewer', wakeSequence: n, clientSubmitId: review.clientSubmitId, targetSessionId: review.reviewSessionId,
		status: 'prepared', prompt: reviewerPrompt(tx, issue, review, checkpoint.graphRevision), dueAtUnixMs: nowUnixMs, attemptCount: 0,
		leaseOwner: '', leaseExpiresAtUnixMs: 0, dispatchedAtUnixMs: 0, turnSettledAtUnixMs: 0, acknowledgedAtUnixMs: 0, lastError: '',
		createdAtUnixMs: nowUnixMs, updatedAtUnixMs: nowUnixMs,
	};
	wakeRepository.insert(tx, wake);
	return review;
}

/** The review of the checkpoint's current activation, if any. */
export function currentReview(r: Reader, checkpoint: Pick<Checkpoint, 'checkpointId' | 'sequence'>): ReviewerReview | undefined {
	return reviewerReviewRepository.listByCheckpoint(r, checkpoint.checkpointId).filter((v) => v.checkpointSequence === checkpoint.sequence).pop();
}

/** Whether the reviewer still holds the checkpoint (its main wake waits). */
export function reviewerHolds(r: Reader, checkpointId: string): boolean {
	return reviewerReviewRepository.listByCheckpoint(r, checkpointId).some((v) => activeReviewerStatuses.includes(v.status));
}

/** Appends the review's outcome to the checkpoint's still-prepared main wakes, so the source session sees it. */
function noteForMain(tx: Tx, checkpointId: string, note: string, nowUnixMs: number): void {
	for (const wake of wakeRepository.listByCheckpoint(tx, checkpointId, 'main')) {
		if (wake.status === 'prepared') { wakeRepository.update(tx, { ...wake, prompt: `${wake.prompt}\n\n${note}`, updatedAtUnixMs: nowUnixMs }); }
	}
}

function closeReviewerWakes(tx: Tx, review: ReviewerReview, status: 'acknowledged' | 'canceled', reason: string, nowUnixMs: number): void {
	for (const wake of wakeRepository.listByCheckpoint(tx, review.checkpointId, 'reviewer')) {
		if (wake.clientSubmitId !== review.clientSubmitId || !['prepared', 'leased', 'dispatched', 'turn_settled'].includes(wake.status)) { continue; }
		wakeRepository.update(tx, {
			...wake, status, lastError: reason, leaseOwner: '', leaseExpiresAtUnixMs: 0,
			acknowledgedAtUnixMs: status === 'acknowledged' ? nowUnixMs : wake.acknowledgedAtUnixMs, updatedAtUnixMs: nowUnixMs,
		});
	}
}

/** Records the reviewer's verdict; the main wake is released carrying it. */
export function recordVerdict(tx: Tx, review: ReviewerReview, fields: Pick<ReviewerReview, 'verdict' | 'summary' | 'verdictRequestId'>, nowUnixMs: number): ReviewerReview {
	const submitted: ReviewerReview = { ...review, ...fields, status: 'submitted', updatedAtUnixMs: nowUnixMs };
	reviewerReviewRepository.update(tx, submitted);
	closeReviewerWakes(tx, review, 'acknowledged', '', nowUnixMs);
	const advice = fields.verdict === 'goal_satisfied' ? '' : ' To complete anyway, pass --disagreement-reason "<why>" to `tutti plan issue complete`.';
	noteForMain(tx, review.checkpointId, `Independent reviewer verdict (advisory): ${fields.verdict} — ${fields.summary}${advice}`, nowUnixMs);
	return submitted;
}

/** The reviewer failed (its Turn ended without a verdict, or it could not be started): control returns to main. */
export function failReview(tx: Tx, review: ReviewerReview, failureReason: string, nowUnixMs: number): void {
	if (!activeReviewerStatuses.includes(review.status)) { return; }
	reviewerReviewRepository.update(tx, { ...review, status: 'failed', failureReason, updatedAtUnixMs: nowUnixMs });
	closeReviewerWakes(tx, review, 'canceled', failureReason, nowUnixMs);
	noteForMain(tx, review.checkpointId, `The independent reviewer failed (${failureReason}); no verdict was given. `
		+ 'To complete, pass --disagreement-reason "<why>" to `tutti plan issue complete`.', nowUnixMs);
}

/** A graph mutation supersedes the checkpoint's prepared or dispatched review (failure_reason graph_superseded). */
export function cancelActiveReviews(tx: Tx, checkpointId: string, nowUnixMs: number, failureReason = 'graph_superseded'): void {
	for (const review of reviewerReviewRepository.listByCheckpoint(tx, checkpointId)) {
		if (!activeReviewerStatuses.includes(review.status)) { continue; }
		reviewerReviewRepository.update(tx, { ...review, status: 'canceled', failureReason, updatedAtUnixMs: nowUnixMs });
		closeReviewerWakes(tx, review, 'canceled', failureReason, nowUnixMs);
	}
}
