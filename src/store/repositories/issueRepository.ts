// Issues: rows ↔ core model, plus the per-status task counts (superseded tasks excluded).
import type { Issue, IssueStatus, PlanningSource } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { bool, flag, num, str } from './rowValues.js';

export interface StatusCounts {
	notStarted: number;
	running: number;
	pendingAcceptance: number;
	completed: number;
	failed: number;
	canceled: number;
}

function issueFromRow(row: Row): Issue {
	return {
		issueId: str(row, 'issue_id'),
		title: str(row, 'title'),
		content: str(row, 'content'),
		status: str(row, 'status') as IssueStatus,
		planningSource: str(row, 'planning_source') as PlanningSource,
		sourceSessionId: str(row, 'source_session_id'),
		dispatchPaused: bool(row, 'dispatch_paused'),
		autoAcceptDefault: bool(row, 'auto_accept_default'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const issueRepository = {
	get(r: Reader, issueId: string): Issue | undefined {
		const row = r.get('SELECT * FROM issues WHERE issue_id = ?', [issueId]);
		return row ? issueFromRow(row) : undefined;
	},
	list(r: Reader): Issue[] {
		return r.all('SELECT * FROM issues ORDER BY created_at, issue_id').map(issueFromRow);
	},
	insert(tx: Tx, issue: Issue): void {
		tx.run(
			`INSERT INTO issues (issue_id, title, content, status, planning_source, source_session_id, dispatch_paused,
			 auto_accept_default, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			[issue.issueId, issue.title, issue.content, issue.status, issue.planningSource, issue.sourceSessionId,
				flag(issue.dispatchPaused), flag(issue.autoAcceptDefault), issue.createdAtUnixMs, issue.updatedAtUnixMs],
		);
	},
	update(tx: Tx, issue: Issue): void {
		tx.run(
			`UPDATE issues SET title = ?, content = ?, status = ?, source_session_id = ?, dispatch_paused = ?,
			 auto_accept_default = ?, updated_at = ? WHERE issue_id = ?`,
			[issue.title, issue.content, issue.status, issue.sourceSessionId, flag(issue.dispatchPaused),
				flag(issue.autoAcceptDefault), issue.updatedAtUnixMs, issue.issueId],
		);
	},
	/** Counts per status of the issue's active (non-superseded) tasks. */
	counts(r: Reader, issueId: string): StatusCounts {
		const counts: StatusCounts = { notStarted: 0, running: 0, pendingAcceptance: 0, completed: 0, failed: 0, canceled: 0 };
		for (const row of r.all('SELECT status, count(*) AS n FROM tasks WHERE issue_id = ? AND superseded_at = 0 GROUP BY status', [issueId])) {
			const n = num(row, 'n');
			switch (str(row, 'status')) {
				case 'not_started': counts.notStarted = n; break;
				case 'running': counts.running = n; break;
				case 'pending_acceptance': counts.pendingAcceptance = n; break;
				case 'completed': counts.completed = n; break;
				case 'failed': counts.failed = n; break;
				case 'canceled': counts.canceled = n; break;
			}
		}
		return counts;
	},
};
