// New attempts of tasks (migration 020): each rework the developer asked for, pending until a Run is admitted for it
// and bound to that Run afterwards. History: rows are never deleted.
import type { AcceptanceState, MergeSource, ReworkKind, TaskRework } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

function sourcesOf(text: string): MergeSource[] {
	try {
		const value: unknown = JSON.parse(text);
		return Array.isArray(value)
			? value.filter((v): v is MergeSource => typeof v === 'object' && v !== null && typeof (v as MergeSource).label === 'string' && typeof (v as MergeSource).commit === 'string')
			: [];
	} catch {
		return [];
	}
}

function reworkFromRow(row: Row): TaskRework {
	return {
		reworkId: str(row, 'rework_id'),
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		kind: str(row, 'kind') as ReworkKind,
		attempt: num(row, 'attempt'),
		note: str(row, 'note'),
		fromRunId: str(row, 'from_run_id'),
		runId: str(row, 'run_id'),
		requestedAtUnixMs: num(row, 'requested_at'),
		mergeInto: str(row, 'merge_into'),
		mergeCommit: str(row, 'merge_commit'),
		mergeSources: sourcesOf(str(row, 'merge_sources_json')),
		priorAcceptedCommit: str(row, 'prior_accepted_commit'),
		priorAcceptanceState: str(row, 'prior_acceptance_state') as AcceptanceState,
	};
}

export const reworkRepository = {
	insert(tx: Tx, rework: TaskRework): void {
		tx.run(
			`INSERT INTO task_reworks (rework_id, issue_id, task_id, kind, attempt, note, from_run_id, run_id, requested_at, merge_into, merge_commit,
			 merge_sources_json, prior_accepted_commit, prior_acceptance_state) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[rework.reworkId, rework.issueId, rework.taskId, rework.kind, rework.attempt, rework.note, rework.fromRunId, rework.runId, rework.requestedAtUnixMs,
				rework.mergeInto, rework.mergeCommit, JSON.stringify(rework.mergeSources), rework.priorAcceptedCommit, rework.priorAcceptanceState],
		);
	},
	/** How many reworks the task has had (the next one's number is this + 1). */
	countOfTask(r: Reader, issueId: string, taskId: string): number {
		const row = r.get('SELECT count(*) AS n FROM task_reworks WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		return row ? num(row, 'n') : 0;
	},
	/** The task's rework that waits for its Run (at most one: a new one is asked only of a settled task). */
	pendingOfTask(r: Reader, issueId: string, taskId: string): TaskRework | undefined {
		const row = r.get("SELECT * FROM task_reworks WHERE issue_id = ? AND task_id = ? AND run_id = '' ORDER BY requested_at DESC, rowid DESC LIMIT 1", [issueId, taskId]);
		return row ? reworkFromRow(row) : undefined;
	},
	/** The rework a Run carries out, if it is one. */
	ofRun(r: Reader, runId: string): TaskRework | undefined {
		if (runId === '') { return undefined; }
		const row = r.get('SELECT * FROM task_reworks WHERE run_id = ?', [runId]);
		return row ? reworkFromRow(row) : undefined;
	},
	/** Binds the pending rework to the Run admitted for it. */
	bindRun(tx: Tx, reworkId: string, runId: string): void {
		tx.run("UPDATE task_reworks SET run_id = ? WHERE rework_id = ? AND run_id = ''", [runId, reworkId]);
	},
	/** taskId → its latest rework (pending or bound), for every task of the issue that has one. */
	latestOfIssue(r: Reader, issueId: string): Map<string, TaskRework> {
		const latest = new Map<string, TaskRework>();
		for (const row of r.all('SELECT * FROM task_reworks WHERE issue_id = ? ORDER BY requested_at, rowid', [issueId])) {
			const rework = reworkFromRow(row);
			latest.set(rework.taskId, rework);
		}
		return latest;
	},
	/** taskId → every rework asked of it (pending or bound), oldest first. */
	historyOfIssue(r: Reader, issueId: string): Map<string, TaskRework[]> {
		const history = new Map<string, TaskRework[]>();
		for (const row of r.all('SELECT * FROM task_reworks WHERE issue_id = ? ORDER BY requested_at, rowid', [issueId])) {
			const rework = reworkFromRow(row);
			history.set(rework.taskId, [...(history.get(rework.taskId) ?? []), rework]);
		}
		return history;
	},
	/** taskId → how many Runs it has had (each Run is one attempt), for every task of the issue that has any. */
	attemptsOfIssue(r: Reader, issueId: string): Map<string, number> {
		return new Map(r.all('SELECT task_id, count(*) AS n FROM runs WHERE issue_id = ? GROUP BY task_id', [issueId])
			.map((row) => [str(row, 'task_id'), num(row, 'n')] as const));
	},
	/** How many Runs the task has had. */
	attemptsOfTask(r: Reader, issueId: string, taskId: string): number {
		const row = r.get('SELECT count(*) AS n FROM runs WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		return row ? num(row, 'n') : 0;
	},
};
