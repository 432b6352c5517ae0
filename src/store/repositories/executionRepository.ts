// Executions: one per `tutti` issue. Rows ↔ core model.
import type { Execution, ExecutionStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

function executionFromRow(row: Row): Execution {
	return {
		executionId: str(row, 'execution_id'),
		issueId: str(row, 'issue_id'),
		sourceSessionId: str(row, 'source_session_id'),
		status: str(row, 'status') as ExecutionStatus,
		graphRevision: num(row, 'graph_revision'),
		activeCheckpointId: str(row, 'active_checkpoint_id'),
		lastOrchestratorActivityAtUnixMs: num(row, 'last_orchestrator_activity_at'),
		watchdogDueAtUnixMs: num(row, 'watchdog_due_at'),
		reviewMode: str(row, 'review_mode') === 'independent' ? 'independent' : 'self',
		archiveReason: str(row, 'archive_reason'),
		completedAtUnixMs: num(row, 'completed_at'),
		archivedAtUnixMs: num(row, 'archived_at'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const executionRepository = {
	get(r: Reader, executionId: string): Execution | undefined {
		const row = r.get('SELECT * FROM executions WHERE execution_id = ?', [executionId]);
		return row ? executionFromRow(row) : undefined;
	},
	getByIssue(r: Reader, issueId: string): Execution | undefined {
		const row = r.get('SELECT * FROM executions WHERE issue_id = ?', [issueId]);
		return row ? executionFromRow(row) : undefined;
	},
	/** Executions in any of these statuses, oldest first. */
	listByStatus(r: Reader, statuses: readonly ExecutionStatus[]): Execution[] {
		if (statuses.length === 0) { return []; }
		const marks = statuses.map(() => '?').join(',');
		return r.all(`SELECT * FROM executions WHERE status IN (${marks}) ORDER BY created_at, execution_id`, [...statuses]).map(executionFromRow);
	},
	/** Every execution owned by a source session, oldest first (source-session Stop uses it). */
	listBySource(r: Reader, sourceSessionId: string): Execution[] {
		return r.all('SELECT * FROM executions WHERE source_session_id = ? ORDER BY created_at, execution_id', [sourceSessionId]).map(executionFromRow);
	},
	/** Whether some Run of the issue is `running` (the acknowledge backlog rule and the snapshot's allowedActions). */
	hasRunningRun(r: Reader, issueId: string): boolean {
		return r.get("SELECT 1 AS x FROM runs WHERE issue_id = ? AND status = 'running' LIMIT 1", [issueId]) !== undefined;
	},
	insert(tx: Tx, e: Execution): void {
		tx.run(
			`INSERT INTO executions (execution_id, issue_id, source_session_id, status, graph_revision, active_checkpoint_id,
			 last_orchestrator_activity_at, watchdog_due_at, review_mode, archive_reason, completed_at, archived_at, created_at, updated_at)
			 VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[e.executionId, e.issueId, e.sourceSessionId, e.status, e.graphRevision, e.activeCheckpointId,
				e.lastOrchestratorActivityAtUnixMs, e.watchdogDueAtUnixMs, e.reviewMode, e.archiveReason, e.completedAtUnixMs,
				e.archivedAtUnixMs, e.createdAtUnixMs, e.updatedAtUnixMs],
		);
	},
	/** Writes every mutable column. */
	update(tx: Tx, e: Execution): void {
		tx.run(
			`UPDATE executions SET status = ?, graph_revision = ?, active_checkpoint_id = ?, last_orchestrator_activity_at = ?,
			 watchdog_due_at = ?, review_mode = ?, archive_reason = ?, completed_at = ?, archived_at = ?, updated_at = ?
			 WHERE execution_id = ?`,
			[e.status, e.graphRevision, e.activeCheckpointId, e.lastOrchestratorActivityAtUnixMs, e.watchdogDueAtUnixMs,
				e.reviewMode, e.archiveReason, e.completedAtUnixMs, e.archivedAtUnixMs, e.updatedAtUnixMs, e.executionId],
		);
	},
};
