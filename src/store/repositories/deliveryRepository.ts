// Code delivery facts (migration 008): each worktree Run's base and result commits and changed files, the commit
// each task's acceptance is bound to, and each issue's base (commit and branch) and integration; and (migration 014)
// each acceptance reopened because the task's branch moved after it.
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export interface ChangedFileRecord {
	path: string;
	added: number;
	deleted: number;
	binary: boolean;
}

export interface RunCommits {
	runId: string;
	/** false: the Run worked in the shared folder; its base is HEAD at launch and it has no result commit. */
	inWorktree: boolean;
	baseCommit: string;
	/** '' until the Host has recorded the result (and always for a Run outside a worktree). */
	resultCommit: string;
	changedFiles: ChangedFileRecord[];
	resultRecordedAtUnixMs: number;
	/** What changed outside the Run's tree and branch while it ran (migration 016; src/core/runs/outsideChanges.ts). */
	outsideChanges: string[];
}

/** A task's code, as its DTO shows it. */
export interface TaskCommits {
	/** Where the task's latest Run started ('' before any Run in a worktree or when none was recorded). */
	baseCommit: string;
	/** The result of the task's latest successful Run ('' when it has none, or worked in the shared folder). */
	resultCommit: string;
	/** The commit the task's acceptance is bound to ('' until accepted). */
	acceptedCommit: string;
	/** The latest reopening of the task's acceptance (its branch moved after it), null when none. */
	acceptanceChange: { runId: string; reason: string } | null;
}

export const noTaskCommits: TaskCommits = { baseCommit: '', resultCommit: '', acceptedCommit: '', acceptanceChange: null };

/** The reason recorded when a task's branch moved after its acceptance. */
export const changedAfterAcceptance = 'changed after acceptance';

/** An acceptance reopened: the accepted Run's branch had moved from `acceptedCommit` to `movedToCommit`. */
export interface AcceptanceChange {
	issueId: string;
	taskId: string;
	runId: string;
	acceptedCommit: string;
	movedToCommit: string;
	reason: string;
	changedAtUnixMs: number;
}

function acceptanceChangeFromRow(row: Row): AcceptanceChange {
	return {
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		runId: str(row, 'run_id'),
		acceptedCommit: str(row, 'accepted_commit'),
		movedToCommit: str(row, 'moved_to_commit'),
		reason: str(row, 'reason'),
		changedAtUnixMs: num(row, 'changed_at'),
	};
}

export interface IssueDelivery {
	issueId: string;
	baseCommit: string;
	/** The branch checked out when the base was recorded ('' for a detached HEAD). */
	baseBranch: string;
	integratedCommit: string;
	integratedInto: string;
	integratedAtUnixMs: number;
	/** How the last integration was verified (migration 018): `passed`, `skipped` (the developer's choice), `none`; '' before. */
	integratedChecks: string;
}

export type SquashMode = 'none' | 'task' | 'issue';

/** One `tutti issue integrate` (migration 017): history, never rewritten but for its push's outcome. */
export interface IntegrationRecord {
	issueId: string;
	sequence: number;
	into: string;
	previousCommit: string;
	integratedCommit: string;
	squash: SquashMode;
	/** taskId → the accepted commit it took. */
	taskCommits: Record<string, string>;
	/** The remote it was pushed to ('' when not pushed). */
	pushRemote: string;
	pushState: '' | 'pushed' | 'failed';
	pushError: string;
	integratedAtUnixMs: number;
	/** How the integrated commit was verified, as `issue integrate` answered it (JSON; '' before migration 021). */
	checksJson: string;
}

function integrationFromRow(row: Row): IntegrationRecord {
	let taskCommits: Record<string, string> = {};
	try {
		const value: unknown = JSON.parse(str(row, 'task_commits_json'));
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			taskCommits = Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
		}
	} catch {
		taskCommits = {};
	}
	const squash = str(row, 'squash');
	const pushState = str(row, 'push_state');
	return {
		issueId: str(row, 'issue_id'), sequence: num(row, 'sequence'), into: str(row, 'into_branch'),
		previousCommit: str(row, 'previous_commit'), integratedCommit: str(row, 'integrated_commit'),
		squash: squash === 'task' || squash === 'issue' ? squash : 'none', taskCommits,
		pushRemote: str(row, 'push_remote'), pushState: pushState === 'pushed' || pushState === 'failed' ? pushState : '',
		pushError: str(row, 'push_error'), integratedAtUnixMs: num(row, 'integrated_at'), checksJson: str(row, 'checks_json'),
	};
}

/** The disk an issue's worktrees use, as last measured (migration 017). */
export interface WorktreeDisk {
	issueId: string;
	bytes: number;
	trees: number;
	measuredAtUnixMs: number;
}

function outsideChangesOf(text: string): string[] {
	try {
		const value: unknown = JSON.parse(text);
		return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
	} catch {
		return [];
	}
}

function changedFilesOf(text: string): ChangedFileRecord[] {
	try {
		const value: unknown = JSON.parse(text);
		return Array.isArray(value) ? value as ChangedFileRecord[] : [];
	} catch {
		return [];
	}
}

function runCommitsFromRow(row: Row): RunCommits {
	return {
		runId: str(row, 'run_id'),
		inWorktree: num(row, 'in_worktree') === 1,
		baseCommit: str(row, 'base_commit'),
		resultCommit: str(row, 'result_commit'),
		changedFiles: changedFilesOf(str(row, 'changed_files_json')),
		resultRecordedAtUnixMs: num(row, 'result_recorded_at'),
		outsideChanges: outsideChangesOf(str(row, 'outside_changes_json')),
	};
}

function issueDeliveryFromRow(row: Row): IssueDelivery {
	return {
		issueId: str(row, 'issue_id'),
		baseCommit: str(row, 'base_commit'),
		baseBranch: str(row, 'base_branch'),
		integratedCommit: str(row, 'integrated_commit'),
		integratedInto: str(row, 'integrated_into'),
		integratedAtUnixMs: num(row, 'integrated_at'),
		integratedChecks: str(row, 'integrated_checks'),
	};
}

export const deliveryRepository = {
	/** Where a Run started (recorded before its process starts; a later call for the same Run keeps the first). */
	recordRunBase(tx: Tx, runId: string, inWorktree: boolean, baseCommit: string): void {
		tx.run('INSERT OR IGNORE INTO run_commits (run_id, in_worktree, base_commit) VALUES (?, ?, ?)', [runId, inWorktree ? 1 : 0, baseCommit]);
	},
	/** The Run's result commit and changed files (once: a recorded result is never overwritten). */
	recordRunResult(tx: Tx, runId: string, resultCommit: string, changedFiles: readonly ChangedFileRecord[], atUnixMs: number,
		outsideChanges: readonly string[] = []): boolean {
		return tx.run('UPDATE run_commits SET result_commit = ?, changed_files_json = ?, result_recorded_at = ?, outside_changes_json = ? WHERE run_id = ? AND result_recorded_at = 0',
			[resultCommit, JSON.stringify(changedFiles), atUnixMs, JSON.stringify(outsideChanges), runId]) === 1;
	},
	/** The Run's outside changes when its result could not be recorded (a recorded result keeps its own). */
	recordOutsideChanges(tx: Tx, runId: string, outsideChanges: readonly string[]): void {
		tx.run('UPDATE run_commits SET outside_changes_json = ? WHERE run_id = ? AND result_recorded_at = 0', [JSON.stringify(outsideChanges), runId]);
	},
	/** runId → outside changes, for every Run that has any (few: the partial index of migration 016 holds only them). */
	runsWithOutsideChanges(r: Reader): Map<string, string[]> {
		return new Map(r.all("SELECT run_id, outside_changes_json FROM run_commits WHERE outside_changes_json != '[]'")
			.map((row) => [str(row, 'run_id'), outsideChangesOf(str(row, 'outside_changes_json'))] as const));
	},
	/**
	 * The Run's result moved on after it was recorded (its branch gained commits after the task's acceptance): the
	 * result is now `resultCommit`, with the files changed from the Run's base to it.
	 */
	moveRunResult(tx: Tx, runId: string, resultCommit: string, changedFiles: readonly ChangedFileRecord[]): void {
		tx.run('UPDATE run_commits SET result_commit = ?, changed_files_json = ? WHERE run_id = ? AND in_worktree = 1',
			[resultCommit, JSON.stringify(changedFiles), runId]);
	},
	runCommits(r: Reader, runId: string): RunCommits | undefined {
		const row = r.get('SELECT * FROM run_commits WHERE run_id = ?', [runId]);
		return row ? runCommitsFromRow(row) : undefined;
	},
	/** Worktree Runs whose result is not recorded yet (a Host that died between the Run's end and its result commit). */
	runsAwaitingResult(r: Reader): RunCommits[] {
		return r.all('SELECT * FROM run_commits WHERE in_worktree = 1 AND result_recorded_at = 0 ORDER BY run_id').map(runCommitsFromRow);
	},
	setAcceptedCommit(tx: Tx, issueId: string, taskId: string, acceptedCommit: string, atUnixMs: number): void {
		tx.run('INSERT OR REPLACE INTO task_acceptances (issue_id, task_id, accepted_commit, accepted_at) VALUES (?, ?, ?, ?)',
			[issueId, taskId, acceptedCommit, atUnixMs]);
	},
	clearAcceptedCommit(tx: Tx, issueId: string, taskId: string): void {
		tx.run('DELETE FROM task_acceptances WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
	},
	acceptedCommit(r: Reader, issueId: string, taskId: string): string {
		const row = r.get('SELECT accepted_commit FROM task_acceptances WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		return row ? str(row, 'accepted_commit') : '';
	},
	/** taskId → accepted commit, for every task of the issue that has one. */
	acceptedCommitsOfIssue(r: Reader, issueId: string): Map<string, string> {
		return new Map(r.all('SELECT task_id, accepted_commit FROM task_acceptances WHERE issue_id = ?', [issueId])
			.map((row) => [str(row, 'task_id'), str(row, 'accepted_commit')] as const));
	},
	/** taskCommitsOfIssue's resultCommit for one task: its latest successful Run's result commit ('' when none). */
	resultCommitOfTask(r: Reader, issueId: string, taskId: string): string {
		const row = r.get(`SELECT c.result_commit FROM runs r JOIN run_commits c ON c.run_id = r.run_id
			WHERE r.issue_id = ? AND r.task_id = ? AND r.outcome = 'success' AND c.result_commit <> '' ORDER BY r.created_at DESC, r.run_id DESC LIMIT 1`, [issueId, taskId]);
		return row ? str(row, 'result_commit') : '';
	},
	/** taskId → its commits, for every task of the issue that has any. */
	taskCommitsOfIssue(r: Reader, issueId: string): Map<string, TaskCommits> {
		const commits = new Map<string, TaskCommits>();
		const rows = r.all(`SELECT r.task_id, r.outcome, c.base_commit, c.result_commit FROM runs r JOIN run_commits c ON c.run_id = r.run_id
			WHERE r.issue_id = ? ORDER BY r.created_at, r.run_id`, [issueId]);
		for (const row of rows) {
			const taskId = str(row, 'task_id');
			const current = commits.get(taskId) ?? { ...noTaskCommits };
			current.baseCommit = str(row, 'base_commit');
			if (str(row, 'outcome') === 'success' && str(row, 'result_commit') !== '') { current.resultCommit = str(row, 'result_commit'); }
			commits.set(taskId, current);
		}
		for (const [taskId, accepted] of this.acceptedCommitsOfIssue(r, issueId)) {
			commits.set(taskId, { ...(commits.get(taskId) ?? noTaskCommits), acceptedCommit: accepted });
		}
		for (const [taskId, change] of this.latestAcceptanceChanges(r, issueId)) {
			commits.set(taskId, { ...(commits.get(taskId) ?? noTaskCommits), acceptanceChange: { runId: change.runId, reason: change.reason } });
		}
		return commits;
	},
	recordAcceptanceChange(tx: Tx, change: AcceptanceChange): void {
		tx.run(`INSERT OR IGNORE INTO task_acceptance_changes (issue_id, task_id, run_id, accepted_commit, moved_to_commit, reason, changed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
		[change.issueId, change.taskId, change.runId, change.acceptedCommit, change.movedToCommit, change.reason, change.changedAtUnixMs]);
	},
	/** taskId → the latest reopening of its acceptance, for every task of the issue that had one. */
	latestAcceptanceChanges(r: Reader, issueId: string): Map<string, AcceptanceChange> {
		const latest = new Map<string, AcceptanceChange>();
		for (const row of r.all('SELECT * FROM task_acceptance_changes WHERE issue_id = ? ORDER BY changed_at, rowid', [issueId])) {
			const change = acceptanceChangeFromRow(row);
			latest.set(change.taskId, change);
		}
		return latest;
	},
	/**
	 * Tasks whose reopened acceptance still awaits the developer: the latest reopening is of the task's latest Run,
	 * and the task (active) is pending acceptance.
	 */
	openAcceptanceChanges(r: Reader, issueId: string): string[] {
		return r.all(`SELECT DISTINCT t.task_id FROM task_acceptance_changes c JOIN tasks t ON t.issue_id = c.issue_id AND t.task_id = c.task_id
			WHERE c.issue_id = ? AND t.status = 'pending_acceptance' AND t.superseded_at = 0 AND t.latest_run_id = c.run_id ORDER BY t.task_id`, [issueId])
			.map((row) => str(row, 'task_id'));
	},
	/** The active tasks accepted (bound to a commit) after the issue's last integration, or never integrated. */
	unintegratedTaskIds(r: Reader, issueId: string): string[] {
		return r.all(`SELECT a.task_id FROM task_acceptances a JOIN tasks t ON t.issue_id = a.issue_id AND t.task_id = a.task_id AND t.superseded_at = 0
			LEFT JOIN issue_delivery d ON d.issue_id = a.issue_id
			WHERE a.issue_id = ? AND a.accepted_at > COALESCE(d.integrated_at, 0) ORDER BY a.task_id`, [issueId]).map((row) => str(row, 'task_id'));
	},
	/** Some active task was accepted (bound to a commit) after the issue's last integration, or was never integrated. */
	/** Some active (not superseded) task's acceptance is bound to a commit. */
	hasAcceptedCommit(r: Reader, issueId: string): boolean {
		return r.get(`SELECT 1 AS found FROM task_acceptances a JOIN tasks t ON t.issue_id = a.issue_id AND t.task_id = a.task_id AND t.superseded_at = 0
			WHERE a.issue_id = ? AND a.accepted_commit <> '' LIMIT 1`, [issueId]) !== undefined;
	},
	hasUnintegratedAcceptance(r: Reader, issueId: string): boolean {
		return r.get(`SELECT 1 AS found FROM task_acceptances a JOIN tasks t ON t.issue_id = a.issue_id AND t.task_id = a.task_id AND t.superseded_at = 0
			LEFT JOIN issue_delivery d ON d.issue_id = a.issue_id
			WHERE a.issue_id = ? AND a.accepted_at > COALESCE(d.integrated_at, 0) LIMIT 1`, [issueId]) !== undefined;
	},
	/** The issue's base (first call wins: the base is recorded when the issue first needs one). */
	recordIssueBase(tx: Tx, issueId: string, baseCommit: string, baseBranch: string): void {
		tx.run('INSERT OR IGNORE INTO issue_delivery (issue_id, base_commit, base_branch) VALUES (?, ?, ?)', [issueId, baseCommit, baseBranch]);
	},
	issueDelivery(r: Reader, issueId: string): IssueDelivery | undefined {
		const row = r.get('SELECT * FROM issue_delivery WHERE issue_id = ?', [issueId]);
		return row ? issueDeliveryFromRow(row) : undefined;
	},
	/** The issue's latest integration, and (migration 017) one more row of its integration history; returns its sequence. */
	recordIntegration(tx: Tx, issueId: string, integratedCommit: string, into: string, atUnixMs: number,
		history: { previousCommit: string; squash: SquashMode; taskCommits: Record<string, string>; checks?: string; checksJson?: string } = { previousCommit: '', squash: 'none', taskCommits: {} }): number {
		tx.run('UPDATE issue_delivery SET integrated_commit = ?, integrated_into = ?, integrated_at = ?, integrated_checks = ? WHERE issue_id = ?',
			[integratedCommit, into, atUnixMs, history.checks ?? '', issueId]);
		const sequence = num(tx.get('SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM integrations WHERE issue_id = ?', [issueId]) ?? {}, 'next');
		tx.run(`INSERT INTO integrations (issue_id, sequence, into_branch, previous_commit, integrated_commit, squash, task_commits_json, integrated_at, checks_json)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		[issueId, sequence, into, history.previousCommit, integratedCommit, history.squash, JSON.stringify(history.taskCommits), atUnixMs, history.checksJson ?? '']);
		return sequence;
	},
	/** How the push after integration `sequence` went. */
	recordPush(tx: Tx, issueId: string, sequence: number, remote: string, state: 'pushed' | 'failed', error: string): void {
		tx.run('UPDATE integrations SET push_remote = ?, push_state = ?, push_error = ? WHERE issue_id = ? AND sequence = ?',
			[remote, state, error, issueId, sequence]);
	},
	/** The issue's latest integration, or undefined before one. */
	lastIntegration(r: Reader, issueId: string): IntegrationRecord | undefined {
		const row = r.get('SELECT * FROM integrations WHERE issue_id = ? ORDER BY sequence DESC LIMIT 1', [issueId]);
		return row ? integrationFromRow(row) : undefined;
	},
	/** The issue's integrations, oldest first. */
	integrations(r: Reader, issueId: string): IntegrationRecord[] {
		return r.all('SELECT * FROM integrations WHERE issue_id = ? ORDER BY sequence', [issueId]).map(integrationFromRow);
	},
	worktreeDisk(r: Reader, issueId: string): WorktreeDisk | undefined {
		const row = r.get('SELECT * FROM worktree_disk WHERE issue_id = ?', [issueId]);
		return row ? { issueId, bytes: num(row, 'bytes'), trees: num(row, 'trees'), measuredAtUnixMs: num(row, 'measured_at') } : undefined;
	},
	allWorktreeDisk(r: Reader): Map<string, WorktreeDisk> {
		return new Map(r.all('SELECT * FROM worktree_disk').map((row) => [str(row, 'issue_id'), {
			issueId: str(row, 'issue_id'), bytes: num(row, 'bytes'), trees: num(row, 'trees'), measuredAtUnixMs: num(row, 'measured_at'),
		}] as const));
	},
	/** The new measurement of an issue's trees; an issue with no tree left has no row. */
	setWorktreeDisk(tx: Tx, disk: WorktreeDisk): void {
		if (disk.trees === 0) {
			tx.run('DELETE FROM worktree_disk WHERE issue_id = ?', [disk.issueId]);
			return;
		}
		tx.run('INSERT OR REPLACE INTO worktree_disk (issue_id, bytes, trees, measured_at) VALUES (?, ?, ?, ?)',
			[disk.issueId, disk.bytes, disk.trees, disk.measuredAtUnixMs]);
	},
};
