// Issues: rows ↔ core model, plus the per-status task counts (superseded tasks excluded).
import { type Issue, type IssueStatus, type Pauser, type PlanningSource, pausers } from '../../core/model.js';
import type { StatusCounts } from '../../core/issues/issueStatus.js';
import type { Reader, Row, Tx } from '../tx.js';
import { bool, flag, num, str } from './rowValues.js';

export type { StatusCounts } from '../../core/issues/issueStatus.js';

/** The stored pauser of a paused issue; one that names nobody (or something unknown) is the developer's (fail closed). */
function pauserOf(row: Row): Pauser {
	const value = str(row, 'paused_by');
	return (pausers as readonly string[]).includes(value) ? value as Pauser : 'developer';
}

/** What `paused_by` stores: the pauser while paused (the developer's when none is named), '' while dispatch runs. */
function storedPauser(issue: Issue): string {
	return issue.dispatchPaused ? (issue.pausedBy ?? 'developer') : '';
}

function issueFromRow(row: Row): Issue {
	const dispatchPaused = bool(row, 'dispatch_paused');
	return {
		issueId: str(row, 'issue_id'),
		title: str(row, 'title'),
		content: str(row, 'content'),
		status: str(row, 'status') as IssueStatus,
		planningSource: str(row, 'planning_source') as PlanningSource,
		sourceSessionId: str(row, 'source_session_id'),
		dispatchPaused,
		...(dispatchPaused ? { pausedBy: pauserOf(row) } : {}),
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
			 paused_by, auto_accept_default, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			[issue.issueId, issue.title, issue.content, issue.status, issue.planningSource, issue.sourceSessionId,
				flag(issue.dispatchPaused), storedPauser(issue), flag(issue.autoAcceptDefault), issue.createdAtUnixMs, issue.updatedAtUnixMs],
		);
	},
	update(tx: Tx, issue: Issue): void {
		tx.run(
			`UPDATE issues SET title = ?, content = ?, status = ?, source_session_id = ?, dispatch_paused = ?,
			 paused_by = ?, auto_accept_default = ?, updated_at = ? WHERE issue_id = ?`,
			[issue.title, issue.content, issue.status, issue.sourceSessionId, flag(issue.dispatchPaused), storedPauser(issue),
				flag(issue.autoAcceptDefault), issue.updatedAtUnixMs, issue.issueId],
		);
	},
	/** Counts per status of the issue's active (non-superseded) tasks. */
	/** Per-status counts of the issue's active tasks, kept on write by the store (migration 023): one row, any size. */
	counts(r: Reader, issueId: string): StatusCounts {
		const row = r.get('SELECT not_started, running, pending_acceptance, completed, failed, canceled FROM issue_task_counts WHERE issue_id = ?', [issueId]);
		if (!row) { return { notStarted: 0, running: 0, pendingAcceptance: 0, completed: 0, failed: 0, canceled: 0 }; }
		return {
			notStarted: num(row, 'not_started'), running: num(row, 'running'), pendingAcceptance: num(row, 'pending_acceptance'),
			completed: num(row, 'completed'), failed: num(row, 'failed'), canceled: num(row, 'canceled'),
		};
	},
	/** The same counts, counted from the task rows (what the kept counts must always equal). */
	recount(r: Reader, issueId: string): StatusCounts {
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
	/** Task rows of the issue ever deleted (a cache of its tasks rebuilds when this moves). */
	deletedTasks(r: Reader, issueId: string): number {
		const row = r.get('SELECT deleted FROM issue_task_counts WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'deleted') : 0;
	},
};
