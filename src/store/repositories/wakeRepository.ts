// Durable wakes of checkpoints. Suppression is stored as `canceled`; rows are never deleted.
import type { Wake, WakeStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

/** Wake statuses that still owe a delivery or an acknowledgement. */
export const openWakeStatuses: readonly WakeStatus[] = ['prepared', 'leased', 'dispatched', 'turn_settled'];
const openList = "('prepared','leased','dispatched','turn_settled')";

function wakeFromRow(row: Row): Wake {
	return {
		wakeId: str(row, 'wake_id'),
		executionId: str(row, 'execution_id'),
		checkpointId: str(row, 'checkpoint_id'),
		targetKind: str(row, 'target_kind') === 'reviewer' ? 'reviewer' : 'main',
		wakeSequence: num(row, 'wake_sequence'),
		clientSubmitId: str(row, 'client_submit_id'),
		targetSessionId: str(row, 'target_session_id'),
		status: str(row, 'status') as WakeStatus,
		prompt: str(row, 'prompt'),
		dueAtUnixMs: num(row, 'due_at'),
		attemptCount: num(row, 'attempt_count'),
		leaseOwner: str(row, 'lease_owner'),
		leaseExpiresAtUnixMs: num(row, 'lease_expires_at'),
		dispatchedAtUnixMs: num(row, 'dispatched_at'),
		turnSettledAtUnixMs: num(row, 'turn_settled_at'),
		acknowledgedAtUnixMs: num(row, 'acknowledged_at'),
		lastError: str(row, 'last_error'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const wakeRepository = {
	get(r: Reader, wakeId: string): Wake | undefined {
		const row = r.get('SELECT * FROM wakes WHERE wake_id = ?', [wakeId]);
		return row ? wakeFromRow(row) : undefined;
	},
	/** The wake a Turn was submitted for (its client submit id). */
	bySubmitId(r: Reader, clientSubmitId: string): Wake | undefined {
		const row = r.get('SELECT * FROM wakes WHERE client_submit_id = ? LIMIT 1', [clientSubmitId]);
		return row ? wakeFromRow(row) : undefined;
	},
	/** Every wake of a checkpoint and target kind, by sequence. */
	listByCheckpoint(r: Reader, checkpointId: string, targetKind: 'main' | 'reviewer' = 'main'): Wake[] {
		return r.all('SELECT * FROM wakes WHERE checkpoint_id = ? AND target_kind = ? ORDER BY wake_sequence', [checkpointId, targetKind]).map(wakeFromRow);
	},
	/** Every wake of an execution, oldest first. */
	listByExecution(r: Reader, executionId: string): Wake[] {
		return r.all('SELECT * FROM wakes WHERE execution_id = ? ORDER BY created_at, checkpoint_id, wake_sequence', [executionId]).map(wakeFromRow);
	},
	/** The newest wake of a checkpoint for a target kind. */
	latest(r: Reader, checkpointId: string, targetKind: 'main' | 'reviewer' = 'main'): Wake | undefined {
		const row = r.get('SELECT * FROM wakes WHERE checkpoint_id = ? AND target_kind = ? ORDER BY wake_sequence DESC LIMIT 1', [checkpointId, targetKind]);
		return row ? wakeFromRow(row) : undefined;
	},
	maxSequence(r: Reader, checkpointId: string, targetKind: 'main' | 'reviewer' = 'main'): number {
		const row = r.get('SELECT coalesce(max(wake_sequence), 0) AS n FROM wakes WHERE checkpoint_id = ? AND target_kind = ?', [checkpointId, targetKind]);
		return row ? num(row, 'n') : 0;
	},
	insert(tx: Tx, w: Wake): void {
		tx.run(
			`INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, target_session_id, status,
			 prompt, due_at, attempt_count, lease_owner, lease_expires_at, dispatched_at, turn_settled_at, acknowledged_at, last_error,
			 created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[w.wakeId, w.executionId, w.checkpointId, w.targetKind, w.wakeSequence, w.clientSubmitId, w.targetSessionId, w.status,
				w.prompt, w.dueAtUnixMs, w.attemptCount, w.leaseOwner, w.leaseExpiresAtUnixMs, w.dispatchedAtUnixMs, w.turnSettledAtUnixMs,
				w.acknowledgedAtUnixMs, w.lastError, w.createdAtUnixMs, w.updatedAtUnixMs],
		);
	},
	/** Writes every mutable column (identity columns never change). */
	update(tx: Tx, w: Wake): void {
		tx.run(
			`UPDATE wakes SET status = ?, prompt = ?, due_at = ?, attempt_count = ?, lease_owner = ?, lease_expires_at = ?, dispatched_at = ?,
			 turn_settled_at = ?, acknowledged_at = ?, last_error = ?, updated_at = ? WHERE wake_id = ?`,
			[w.status, w.prompt, w.dueAtUnixMs, w.attemptCount, w.leaseOwner, w.leaseExpiresAtUnixMs, w.dispatchedAtUnixMs,
				w.turnSettledAtUnixMs, w.acknowledgedAtUnixMs, w.lastError, w.updatedAtUnixMs, w.wakeId],
		);
	},
	/** A valid command on a checkpoint acknowledges every still-open wake of it; returns how many changed. */
	acknowledgeOpenOfCheckpoint(tx: Tx, checkpointId: string, nowUnixMs: number): number {
		return tx.run(
			`UPDATE wakes SET status = 'acknowledged', acknowledged_at = ?, lease_owner = '', lease_expires_at = 0, updated_at = ?
			 WHERE checkpoint_id = ? AND status IN ${openList}`,
			[nowUnixMs, nowUnixMs, checkpointId],
		);
	},
	/** Suppresses every still-open wake of an execution (archive, completion); stored as `canceled`. */
	cancelOpenOfExecution(tx: Tx, executionId: string, nowUnixMs: number, reason: string): number {
		return tx.run(
			`UPDATE wakes SET status = 'canceled', last_error = ?, lease_owner = '', lease_expires_at = 0, updated_at = ?
			 WHERE execution_id = ? AND status IN ${openList}`,
			[reason, nowUnixMs, executionId],
		);
	},
};
