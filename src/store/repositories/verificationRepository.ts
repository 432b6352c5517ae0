// Checks and verifications (migration 018): the developer's checks of an issue ('' task) and of a task, each
// verification of a Run's result with the checks it runs, and one row per check that ended (recorded once).
import type { AcceptanceCheckState, CheckInput, CheckResult, CheckSpec, VerificationStatus, VerificationSubject } from '../../core/checks/checks.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, numOrNull, str } from './rowValues.js';

export interface Verification {
	verificationId: string;
	runId: string;
	issueId: string;
	taskId: string;
	subject: VerificationSubject;
	/** The commit the checks run at ('' for the shared folder). */
	commit: string;
	/** Where they run, relative to the workspace: the task's tree, or '' for the workspace itself. */
	directory: string;
	status: VerificationStatus;
	checks: CheckSpec[];
	/** Host starts that (re)began it: 1, and one more for each restart that found it running. */
	attempts: number;
	/** The check in flight (-1: none) and its process, so a later Host can end it before running it again. */
	currentIndex: number;
	currentPid: number;
	currentStartTicks: string;
	/** check index → how many of its starts a Host restart interrupted. */
	interruptions: Record<string, number>;
	/** Why it failed without a check failing ('' otherwise). */
	problem: string;
	createdAtUnixMs: number;
	completedAtUnixMs: number;
	/** When the tree moved on from its commit (0: current). */
	staleAtUnixMs: number;
}

function parseJson<T>(text: string, fallback: T): T {
	try {
		return JSON.parse(text) as T;
	} catch {
		return fallback;
	}
}

function verificationFromRow(row: Row): Verification {
	return {
		verificationId: str(row, 'verification_id'),
		runId: str(row, 'run_id'),
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		subject: str(row, 'subject') as VerificationSubject,
		commit: str(row, 'commit_sha'),
		directory: str(row, 'directory'),
		status: str(row, 'status') as VerificationStatus,
		checks: parseJson<CheckSpec[]>(str(row, 'checks_json'), []),
		attempts: num(row, 'attempts'),
		currentIndex: num(row, 'current_index'),
		currentPid: num(row, 'current_pid'),
		currentStartTicks: str(row, 'current_start_ticks'),
		interruptions: parseJson<Record<string, number>>(str(row, 'interruptions_json'), {}),
		problem: str(row, 'problem'),
		createdAtUnixMs: num(row, 'created_at'),
		completedAtUnixMs: num(row, 'completed_at'),
		staleAtUnixMs: num(row, 'stale_at'),
	};
}

function resultFromRow(row: Row): CheckResult {
	return {
		index: num(row, 'check_index'),
		name: str(row, 'name'),
		exitCode: numOrNull(row, 'exit_code'),
		signal: str(row, 'signal'),
		timedOut: num(row, 'timed_out') === 1,
		error: str(row, 'error'),
		durationMs: num(row, 'duration_ms'),
		outputTail: str(row, 'output_tail'),
		startedAtUnixMs: num(row, 'started_at'),
		endedAtUnixMs: num(row, 'ended_at'),
		interrupted: num(row, 'interrupted'),
	};
}

export const verificationRepository = {
	/** The developer's checks of an issue (`taskId` '') or of a task; replaces what was set. */
	setChecks(tx: Tx, issueId: string, taskId: string, checks: readonly CheckInput[], atUnixMs: number): void {
		tx.run('INSERT OR REPLACE INTO check_settings (issue_id, task_id, checks_json, set_at) VALUES (?, ?, ?, ?)',
			[issueId, taskId, JSON.stringify(checks), atUnixMs]);
	},
	/** The checks set on an issue (`taskId` '') or a task; undefined when none were ever set there. */
	checksOf(r: Reader, issueId: string, taskId: string): CheckInput[] | undefined {
		const row = r.get('SELECT checks_json FROM check_settings WHERE issue_id = ? AND task_id = ?', [issueId, taskId]);
		return row ? parseJson<CheckInput[]>(str(row, 'checks_json'), []) : undefined;
	},
	/**
	 * A new verification; every earlier one of the same tree (its `directory`, for commits) or of the same Run becomes
	 * stale: the tree moved on from what they saw.
	 */
	insert(tx: Tx, v: Verification): void {
		if (v.subject === 'commit') {
			tx.run("UPDATE verifications SET stale_at = ? WHERE stale_at = 0 AND subject = 'commit' AND directory = ? AND verification_id != ?",
				[v.createdAtUnixMs, v.directory, v.verificationId]);
		}
		tx.run('UPDATE verifications SET stale_at = ? WHERE stale_at = 0 AND run_id = ? AND verification_id != ?', [v.createdAtUnixMs, v.runId, v.verificationId]);
		tx.run(`INSERT INTO verifications (verification_id, run_id, issue_id, task_id, subject, commit_sha, directory, status, checks_json, attempts,
			current_index, current_pid, current_start_ticks, interruptions_json, problem, created_at, completed_at, stale_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		[v.verificationId, v.runId, v.issueId, v.taskId, v.subject, v.commit, v.directory, v.status, JSON.stringify(v.checks), v.attempts,
			v.currentIndex, v.currentPid, v.currentStartTicks, JSON.stringify(v.interruptions), v.problem, v.createdAtUnixMs, v.completedAtUnixMs, v.staleAtUnixMs]);
	},
	get(r: Reader, verificationId: string): Verification | undefined {
		const row = r.get('SELECT * FROM verifications WHERE verification_id = ?', [verificationId]);
		return row ? verificationFromRow(row) : undefined;
	},
	/** The Run's latest verification (its current one unless stale). */
	latestOfRun(r: Reader, runId: string): Verification | undefined {
		const row = r.get('SELECT * FROM verifications WHERE run_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1', [runId]);
		return row ? verificationFromRow(row) : undefined;
	},
	countOfRun(r: Reader, runId: string): number {
		return num(r.get('SELECT COUNT(*) AS n FROM verifications WHERE run_id = ?', [runId]) ?? {}, 'n');
	},
	/** Verifications whose checks have not all ended (a Host start continues them). */
	listRunning(r: Reader): Verification[] {
		return r.all("SELECT * FROM verifications WHERE status = 'running' ORDER BY created_at, rowid").map(verificationFromRow);
	},
	/** runId → its latest verification, for every Run of the issue that has one. */
	latestOfIssue(r: Reader, issueId: string): Map<string, Verification> {
		const latest = new Map<string, Verification>();
		for (const row of r.all('SELECT * FROM verifications WHERE issue_id = ? ORDER BY created_at, rowid', [issueId])) {
			const v = verificationFromRow(row);
			latest.set(v.runId, v);
		}
		return latest;
	},
	results(r: Reader, verificationId: string): CheckResult[] {
		return r.all('SELECT * FROM check_results WHERE verification_id = ? ORDER BY check_index', [verificationId]).map(resultFromRow);
	},
	/** The check's process is starting (or started): kept so a later Host can end it before running the check again. */
	markCurrent(tx: Tx, verificationId: string, index: number, pid: number, startTicks: string): void {
		tx.run('UPDATE verifications SET current_index = ?, current_pid = ?, current_start_ticks = ? WHERE verification_id = ? AND status = \'running\'',
			[index, pid, startTicks, verificationId]);
	},
	/** One check ended: its row (once; a second report of the same check is a no-op) and nothing in flight. */
	recordResult(tx: Tx, verificationId: string, result: CheckResult): boolean {
		const inserted = tx.run(`INSERT OR IGNORE INTO check_results (verification_id, check_index, name, exit_code, signal, timed_out, error, duration_ms,
			output_tail, started_at, ended_at, interrupted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		[verificationId, result.index, result.name, result.exitCode, result.signal, result.timedOut ? 1 : 0, result.error, result.durationMs,
			result.outputTail, result.startedAtUnixMs, result.endedAtUnixMs, result.interrupted]) === 1;
		tx.run("UPDATE verifications SET current_index = -1, current_pid = 0, current_start_ticks = '' WHERE verification_id = ?", [verificationId]);
		return inserted;
	},
	/** A Host start found it running: one more attempt, and the check it interrupted (if any) counted. */
	resume(tx: Tx, v: Verification): Verification {
		const interruptions = { ...v.interruptions };
		if (v.currentIndex >= 0) { interruptions[String(v.currentIndex)] = (interruptions[String(v.currentIndex)] ?? 0) + 1; }
		const next: Verification = { ...v, attempts: v.attempts + 1, currentIndex: -1, currentPid: 0, currentStartTicks: '', interruptions };
		tx.run(`UPDATE verifications SET attempts = ?, current_index = -1, current_pid = 0, current_start_ticks = '', interruptions_json = ?
			WHERE verification_id = ? AND status = 'running'`, [next.attempts, JSON.stringify(interruptions), v.verificationId]);
		return next;
	},
	/** What the checks said when the task's result of `runId` was accepted (by the developer or automatically). */
	recordAcceptance(tx: Tx, issueId: string, taskId: string, runId: string, checks: AcceptanceCheckState, atUnixMs: number): void {
		tx.run('INSERT OR REPLACE INTO acceptance_checks (issue_id, task_id, run_id, checks_status, accepted_at) VALUES (?, ?, ?, ?, ?)',
			[issueId, taskId, runId, checks, atUnixMs]);
	},
	/** taskId → what its checks said at the acceptance of its latest Run's result, for the issue's tasks that have one. */
	acceptancesOfIssue(r: Reader, issueId: string): Map<string, { runId: string; checks: AcceptanceCheckState; acceptedAtUnixMs: number }> {
		const out = new Map<string, { runId: string; checks: AcceptanceCheckState; acceptedAtUnixMs: number }>();
		for (const row of r.all(`SELECT a.task_id, a.run_id, a.checks_status, a.accepted_at FROM acceptance_checks a
			JOIN tasks t ON t.issue_id = a.issue_id AND t.task_id = a.task_id AND t.latest_run_id = a.run_id WHERE a.issue_id = ?`, [issueId])) {
			out.set(str(row, 'task_id'), { runId: str(row, 'run_id'), checks: str(row, 'checks_status') as AcceptanceCheckState, acceptedAtUnixMs: num(row, 'accepted_at') });
		}
		return out;
	},
	/** Its checks have all ended (or one failed, or it could not run): passed or failed, once. */
	complete(tx: Tx, verificationId: string, status: Exclude<VerificationStatus, 'running'>, problem: string, atUnixMs: number): boolean {
		return tx.run(`UPDATE verifications SET status = ?, problem = ?, completed_at = ?, current_index = -1, current_pid = 0, current_start_ticks = ''
			WHERE verification_id = ? AND status = 'running'`, [status, problem, atUnixMs, verificationId]) === 1;
	},
};
