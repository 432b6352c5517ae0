// Archive operations: the recoverable Stop of an execution (requested → canceling_runs → archiving → completed).
import type { ArchiveStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export interface ArchiveOperation {
	operationId: string;
	executionId: string;
	requestId: string;
	status: ArchiveStatus;
	requestedBy: string;
	reason: string;
	attemptCount: number;
	lastError: string;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

function operationFromRow(row: Row): ArchiveOperation {
	return {
		operationId: str(row, 'operation_id'),
		executionId: str(row, 'execution_id'),
		requestId: str(row, 'request_id'),
		status: str(row, 'status') as ArchiveStatus,
		requestedBy: str(row, 'requested_by'),
		reason: str(row, 'reason'),
		attemptCount: num(row, 'attempt_count'),
		lastError: str(row, 'last_error'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const archiveRepository = {
	get(r: Reader, operationId: string): ArchiveOperation | undefined {
		const row = r.get('SELECT * FROM archive_operations WHERE operation_id = ?', [operationId]);
		return row ? operationFromRow(row) : undefined;
	},
	byRequest(r: Reader, executionId: string, requestId: string): ArchiveOperation | undefined {
		const row = r.get('SELECT * FROM archive_operations WHERE execution_id = ? AND request_id = ?', [executionId, requestId]);
		return row ? operationFromRow(row) : undefined;
	},
	listByExecution(r: Reader, executionId: string): ArchiveOperation[] {
		return r.all('SELECT * FROM archive_operations WHERE execution_id = ? ORDER BY created_at, operation_id', [executionId]).map(operationFromRow);
	},
	/** Operations that have not reached `completed` (restart recovery), oldest first. */
	listUnfinished(r: Reader): ArchiveOperation[] {
		return r.all("SELECT * FROM archive_operations WHERE status <> 'completed' ORDER BY created_at, operation_id").map(operationFromRow);
	},
	insert(tx: Tx, op: ArchiveOperation): void {
		tx.run(
			`INSERT INTO archive_operations (operation_id, execution_id, request_id, status, requested_by, reason, attempt_count, last_error,
			 created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			[op.operationId, op.executionId, op.requestId, op.status, op.requestedBy, op.reason, op.attemptCount, op.lastError,
				op.createdAtUnixMs, op.updatedAtUnixMs],
		);
	},
	update(tx: Tx, op: ArchiveOperation): void {
		tx.run(
			'UPDATE archive_operations SET status = ?, attempt_count = ?, last_error = ?, updated_at = ? WHERE operation_id = ?',
			[op.status, op.attemptCount, op.lastError, op.updatedAtUnixMs, op.operationId],
		);
	},
};
