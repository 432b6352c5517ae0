// Checkpoints of an execution: the active one, the ordered pending backlog, and history (never deleted).
import type { Checkpoint, CheckpointKind, CheckpointStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { bool, flag, num, str } from './rowValues.js';

function checkpointFromRow(row: Row): Checkpoint {
	return {
		checkpointId: str(row, 'checkpoint_id'),
		executionId: str(row, 'execution_id'),
		kind: str(row, 'kind') as CheckpointKind,
		status: str(row, 'status') as CheckpointStatus,
		sequence: num(row, 'sequence'),
		graphRevision: num(row, 'graph_revision'),
		subjectTaskId: str(row, 'subject_task_id'),
		subjectRunId: str(row, 'subject_run_id'),
		creationReason: str(row, 'creation_reason'),
		requiresGoalReview: bool(row, 'requires_goal_review'),
		createdAtUnixMs: num(row, 'created_at'),
		resolvedAtUnixMs: num(row, 'resolved_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
		note: str(row, 'note'),
	};
}

export const checkpointRepository = {
	get(r: Reader, checkpointId: string): Checkpoint | undefined {
		const row = r.get('SELECT * FROM checkpoints WHERE checkpoint_id = ?', [checkpointId]);
		return row ? checkpointFromRow(row) : undefined;
	},
	/** Every checkpoint of the execution (history included), by sequence. */
	listByExecution(r: Reader, executionId: string): Checkpoint[] {
		return r.all('SELECT * FROM checkpoints WHERE execution_id = ? ORDER BY sequence', [executionId]).map(checkpointFromRow);
	},
	/** The active checkpoint and the pending backlog, by sequence. */
	listOpen(r: Reader, executionId: string): Checkpoint[] {
		return r.all(
			"SELECT * FROM checkpoints WHERE execution_id = ? AND status IN ('active','pending') ORDER BY sequence", [executionId],
		).map(checkpointFromRow);
	},
	active(r: Reader, executionId: string): Checkpoint | undefined {
		const row = r.get("SELECT * FROM checkpoints WHERE execution_id = ? AND status = 'active'", [executionId]);
		return row ? checkpointFromRow(row) : undefined;
	},
	/** The oldest pending checkpoint (the next one to promote). */
	oldestPending(r: Reader, executionId: string): Checkpoint | undefined {
		const row = r.get("SELECT * FROM checkpoints WHERE execution_id = ? AND status = 'pending' ORDER BY sequence LIMIT 1", [executionId]);
		return row ? checkpointFromRow(row) : undefined;
	},
	/** Whether a pending checkpoint with a sequence after `sequence` exists. */
	hasPendingAfter(r: Reader, executionId: string, sequence: number): boolean {
		return r.get("SELECT 1 AS x FROM checkpoints WHERE execution_id = ? AND status = 'pending' AND sequence > ? LIMIT 1", [executionId, sequence]) !== undefined;
	},
	maxSequence(r: Reader, executionId: string): number {
		const row = r.get('SELECT coalesce(max(sequence), 0) AS n FROM checkpoints WHERE execution_id = ?', [executionId]);
		return row ? num(row, 'n') : 0;
	},
	/** Ids of every checkpoint of the execution (one query). */
	existingIds(r: Reader, executionId: string): Set<string> {
		return new Set(r.all('SELECT checkpoint_id FROM checkpoints WHERE execution_id = ?', [executionId]).map((row) => str(row, 'checkpoint_id')));
	},
	insert(tx: Tx, c: Checkpoint): void {
		tx.run(
			`INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
			 creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[c.checkpointId, c.executionId, c.kind, c.status, c.sequence, c.graphRevision, c.subjectTaskId, c.subjectRunId,
				c.creationReason, flag(c.requiresGoalReview), c.createdAtUnixMs, c.resolvedAtUnixMs, c.updatedAtUnixMs, c.note ?? ''],
		);
	},
	/** Writes status, sequence, revision, reason and times (kind, subject and note are identity and never change). */
	update(tx: Tx, c: Checkpoint): void {
		tx.run(
			`UPDATE checkpoints SET status = ?, sequence = ?, graph_revision = ?, creation_reason = ?, requires_goal_review = ?,
			 resolved_at = ?, updated_at = ? WHERE checkpoint_id = ?`,
			[c.status, c.sequence, c.graphRevision, c.creationReason, flag(c.requiresGoalReview), c.resolvedAtUnixMs, c.updatedAtUnixMs, c.checkpointId],
		);
	},
	/** Cancels the active and pending checkpoints of an execution (archive); returns how many changed. */
	cancelOpen(tx: Tx, executionId: string, nowUnixMs: number): number {
		return tx.run(
			"UPDATE checkpoints SET status = 'canceled', updated_at = ? WHERE execution_id = ? AND status IN ('active','pending')",
			[nowUnixMs, executionId],
		);
	},
};
