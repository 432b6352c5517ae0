// Developer confirmation facts: review decisions on task results, Goal Review requests awaiting
// the developer, and the per-issue developerConfirmation override. Rows are never deleted.
//
// What is owed next is derived from these facts plus the task and checkpoint rows (src/core/next/**):
// - a task awaits the developer while its status is `pending_acceptance` (entered review at the settlement of its
//   latest Run: that Run's completedAtUnixMs; `decisionFor` is then undefined);
// - `openChangeRequests` lists the developer's requests the source agent has not taken up yet (their checkpoint is
//   still active or pending);
// - `awaitingGoalReview` is the Goal Review request awaiting the developer (requestedAtUnixMs = durable entry time).
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export const reviewDecisionKinds = ['accepted', 'changes_requested'] as const;
export type ReviewDecisionKind = (typeof reviewDecisionKinds)[number];

/** One developer decision on the result of one Run of a task. */
export interface ReviewDecision {
	decisionId: string;
	issueId: string;
	taskId: string;
	/** The Run whose result was decided (the task's latestRunId at the time). */
	runId: string;
	decision: ReviewDecisionKind;
	/** Required (non-empty) for changes_requested; optional for accepted. */
	note: string;
	/** 'user' (the developer credential). */
	decidedBy: string;
	/** The changes_requested checkpoint created for the source agent ('' for accepted and for manual issues). */
	checkpointId: string;
	/** When the task entered review (its Run's settlement). */
	reviewEnteredAtUnixMs: number;
	createdAtUnixMs: number;
}

export const goalReviewStatuses = ['awaiting_developer', 'confirmed', 'changes_requested', 'canceled'] as const;
export type GoalReviewStatus = (typeof goalReviewStatuses)[number];

/** A Goal Review request: the source agent completed with goal_satisfied and the developer's confirmation is awaited. */
export interface GoalReview {
	goalReviewId: string;
	executionId: string;
	issueId: string;
	/** The all_tasks_terminal checkpoint the source completed at (resolved by that complete). */
	checkpointId: string;
	graphRevision: number;
	status: GoalReviewStatus;
	decision: 'goal_satisfied';
	disagreementReason: string;
	/** The developer's note when they requested changes. */
	note: string;
	/** The goal_changes_requested checkpoint created for the source agent. */
	replyCheckpointId: string;
	/** Durable entry time of the wait for the developer. */
	requestedAtUnixMs: number;
	decidedAtUnixMs: number;
	updatedAtUnixMs: number;
}

/** A developer's request for changes the source agent has not taken up yet (its checkpoint is active or pending). */
export interface OpenChangeRequest {
	/** The task the note is about; '' for a Goal Review request. */
	taskId: string;
	note: string;
	requestedAtUnixMs: number;
	checkpointId: string;
	checkpointStatus: 'active' | 'pending';
}

function decisionFromRow(row: Row): ReviewDecision {
	return {
		decisionId: str(row, 'decision_id'),
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		runId: str(row, 'run_id'),
		decision: str(row, 'decision') as ReviewDecisionKind,
		note: str(row, 'note'),
		decidedBy: str(row, 'decided_by'),
		checkpointId: str(row, 'checkpoint_id'),
		reviewEnteredAtUnixMs: num(row, 'review_entered_at'),
		createdAtUnixMs: num(row, 'created_at'),
	};
}

function goalReviewFromRow(row: Row): GoalReview {
	return {
		goalReviewId: str(row, 'goal_review_id'),
		executionId: str(row, 'execution_id'),
		issueId: str(row, 'issue_id'),
		checkpointId: str(row, 'checkpoint_id'),
		graphRevision: num(row, 'graph_revision'),
		status: str(row, 'status') as GoalReviewStatus,
		decision: 'goal_satisfied',
		disagreementReason: str(row, 'disagreement_reason'),
		note: str(row, 'note'),
		replyCheckpointId: str(row, 'reply_checkpoint_id'),
		requestedAtUnixMs: num(row, 'requested_at'),
		decidedAtUnixMs: num(row, 'decided_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

/** The deterministic id of the decision on one Run's result. */
export function reviewDecisionId(issueId: string, taskId: string, runId: string): string {
	return `${issueId}:review:${taskId}:${runId}`;
}

export const reviewRepository = {
	insertDecision(tx: Tx, d: ReviewDecision): void {
		tx.run(
			`INSERT INTO review_decisions (decision_id, issue_id, task_id, run_id, decision, note, decided_by, checkpoint_id, review_entered_at, created_at)
			 VALUES (?,?,?,?,?,?,?,?,?,?)`,
			[d.decisionId, d.issueId, d.taskId, d.runId, d.decision, d.note, d.decidedBy, d.checkpointId, d.reviewEnteredAtUnixMs, d.createdAtUnixMs],
		);
	},
	/** Withdraws the decision on `runId` (its acceptance was reopened: the result it decided on changed since). */
	deleteDecision(tx: Tx, issueId: string, taskId: string, runId: string): void {
		tx.run('DELETE FROM review_decisions WHERE issue_id = ? AND task_id = ? AND run_id = ?', [issueId, taskId, runId]);
	},
	/** The decision on the result of `runId` of the task, if the developer made one. */
	decisionFor(r: Reader, issueId: string, taskId: string, runId: string): ReviewDecision | undefined {
		const row = r.get('SELECT * FROM review_decisions WHERE issue_id = ? AND task_id = ? AND run_id = ?', [issueId, taskId, runId]);
		return row ? decisionFromRow(row) : undefined;
	},
	/** Every decision of the issue, oldest first. */
	listDecisions(r: Reader, issueId: string): ReviewDecision[] {
		return r.all('SELECT * FROM review_decisions WHERE issue_id = ? ORDER BY created_at, decision_id', [issueId]).map(decisionFromRow);
	},
	/** The latest decision on any Run of the task, if any. */
	latestDecisionOfTask(r: Reader, issueId: string, taskId: string): ReviewDecision | undefined {
		const row = r.get('SELECT * FROM review_decisions WHERE issue_id = ? AND task_id = ? ORDER BY created_at DESC, decision_id DESC LIMIT 1', [issueId, taskId]);
		return row ? decisionFromRow(row) : undefined;
	},

	insertGoalReview(tx: Tx, g: GoalReview): void {
		tx.run(
			`INSERT INTO goal_reviews (goal_review_id, execution_id, issue_id, checkpoint_id, graph_revision, status, decision, disagreement_reason,
			 note, reply_checkpoint_id, requested_at, decided_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[g.goalReviewId, g.executionId, g.issueId, g.checkpointId, g.graphRevision, g.status, g.decision, g.disagreementReason,
				g.note, g.replyCheckpointId, g.requestedAtUnixMs, g.decidedAtUnixMs, g.updatedAtUnixMs],
		);
	},
	/** Writes the decision fields (identity, request and entry time never change). */
	updateGoalReview(tx: Tx, g: GoalReview): void {
		tx.run(
			'UPDATE goal_reviews SET status = ?, note = ?, reply_checkpoint_id = ?, decided_at = ?, updated_at = ? WHERE goal_review_id = ?',
			[g.status, g.note, g.replyCheckpointId, g.decidedAtUnixMs, g.updatedAtUnixMs, g.goalReviewId],
		);
	},
	getGoalReview(r: Reader, goalReviewId: string): GoalReview | undefined {
		const row = r.get('SELECT * FROM goal_reviews WHERE goal_review_id = ?', [goalReviewId]);
		return row ? goalReviewFromRow(row) : undefined;
	},
	/** The Goal Review request awaiting the developer (at most one per execution), if any. */
	awaitingGoalReview(r: Reader, executionId: string): GoalReview | undefined {
		const row = r.get("SELECT * FROM goal_reviews WHERE execution_id = ? AND status = 'awaiting_developer'", [executionId]);
		return row ? goalReviewFromRow(row) : undefined;
	},
	/** The most recent Goal Review request of the execution (any status), if any. */
	latestGoalReview(r: Reader, executionId: string): GoalReview | undefined {
		const row = r.get('SELECT * FROM goal_reviews WHERE execution_id = ? ORDER BY requested_at DESC, goal_review_id DESC LIMIT 1', [executionId]);
		return row ? goalReviewFromRow(row) : undefined;
	},
	listGoalReviews(r: Reader, executionId: string): GoalReview[] {
		return r.all('SELECT * FROM goal_reviews WHERE execution_id = ? ORDER BY requested_at, goal_review_id', [executionId]).map(goalReviewFromRow);
	},
	/** Marks a Goal Review still awaiting the developer canceled (archive, or a graph change); returns how many changed. */
	cancelAwaitingGoalReview(tx: Tx, executionId: string, nowUnixMs: number): number {
		return tx.run("UPDATE goal_reviews SET status = 'canceled', updated_at = ? WHERE execution_id = ? AND status = 'awaiting_developer'", [nowUnixMs, executionId]);
	},

	/**
	 * The developer's requests for changes on this issue that the source agent has not taken up yet: their
	 * changes_requested / goal_changes_requested checkpoint is still active or pending. Oldest first.
	 */
	openChangeRequests(r: Reader, issueId: string): OpenChangeRequest[] {
		return r.all(
			`SELECT c.subject_task_id AS task_id, c.note AS note, c.created_at AS created_at, c.checkpoint_id AS checkpoint_id, c.status AS status
			 FROM checkpoints c JOIN executions e ON e.execution_id = c.execution_id
			 WHERE e.issue_id = ? AND c.kind IN ('changes_requested','goal_changes_requested') AND c.status IN ('active','pending')
			 ORDER BY c.sequence`,
			[issueId],
		).map((row) => ({
			taskId: str(row, 'task_id'),
			note: str(row, 'note'),
			requestedAtUnixMs: num(row, 'created_at'),
			checkpointId: str(row, 'checkpoint_id'),
			checkpointStatus: str(row, 'status') === 'active' ? 'active' : 'pending',
		}));
	},

	/** The per-issue developerConfirmation override, or null to follow the Host setting. */
	developerConfirmationOverride(r: Reader, executionId: string): boolean | null {
		const row = r.get('SELECT developer_confirmation FROM execution_review_settings WHERE execution_id = ?', [executionId]);
		return row ? num(row, 'developer_confirmation') !== 0 : null;
	},
	setDeveloperConfirmation(tx: Tx, executionId: string, value: boolean): void {
		tx.run(
			'INSERT INTO execution_review_settings (execution_id, developer_confirmation) VALUES (?, ?) ON CONFLICT (execution_id) DO UPDATE SET developer_confirmation = excluded.developer_confirmation',
			[executionId, value ? 1 : 0],
		);
	},
};
