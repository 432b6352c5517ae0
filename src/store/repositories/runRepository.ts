// Runs and their Stop events (with the answer each press got).
import { rejection } from '../../core/hints.js';
import { verifyRunIdentity } from '../../core/ids.js';
import type { Run, RunOutcome, RunStatus, StopAnswer, StopReason } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, numOrNull, str } from './rowValues.js';
import { sessionRepository } from './sessionRepository.js';

export interface StopEventRecord {
	eventId: string;
	runId: string;
	reason: StopReason;
	requestedAtUnixMs: number;
	answer: StopAnswer | null;
	answeredAtUnixMs: number;
}

function runFromRow(row: Row): Run {
	const outcome = str(row, 'outcome');
	return {
		runId: str(row, 'run_id'),
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		agentTargetId: str(row, 'agent_target_id'),
		agentSessionId: str(row, 'agent_session_id'),
		status: str(row, 'status') as RunStatus,
		outcome: outcome === '' ? null : (outcome as RunOutcome),
		usage: {
			inputTokens: num(row, 'input_tokens'),
			outputTokens: num(row, 'output_tokens'),
			cacheReadTokens: num(row, 'cache_read_tokens'),
			cacheWriteTokens: num(row, 'cache_write_tokens'),
		},
		summary: str(row, 'summary'),
		errorMessage: str(row, 'error_message'),
		exitCode: numOrNull(row, 'exit_code'),
		outputDir: str(row, 'output_dir'),
		executionDirectory: str(row, 'execution_directory'),
		createdAtUnixMs: num(row, 'created_at'),
		startedAtUnixMs: num(row, 'started_at'),
		completedAtUnixMs: num(row, 'completed_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

function stopFromRow(row: Row): StopEventRecord {
	const answer = str(row, 'answer');
	return {
		eventId: str(row, 'event_id'),
		runId: str(row, 'run_id'),
		reason: str(row, 'reason') as StopReason,
		requestedAtUnixMs: num(row, 'requested_at'),
		answer: answer === '' ? null : (answer as StopAnswer),
		answeredAtUnixMs: num(row, 'answered_at'),
	};
}

export const runRepository = {
	/**
	 * The Run, or `run_not_found`; a Run that disagrees with the worker session admitted with it is refused
	 * (`identity_mismatch`), inside the read or transaction, so nothing is written.
	 */
	load(r: Reader, runId: string): Run {
		const run = runRepository.get(r, runId);
		if (!run) { throw rejection('run_not_found', `Run ${runId} does not exist.`, { runId }); }
		const session = run.agentSessionId !== '' ? sessionRepository.get(r, run.agentSessionId) : undefined;
		const problem = verifyRunIdentity(run, session ? { session } : {});
		if (problem !== null) { throw rejection('identity_mismatch', `Refused: ${problem}.`, { issueId: run.issueId, runId }); }
		return run;
	},

	get(r: Reader, runId: string): Run | undefined {
		const row = r.get('SELECT * FROM runs WHERE run_id = ?', [runId]);
		return row ? runFromRow(row) : undefined;
	},
	listByIssue(r: Reader, issueId: string): Run[] {
		return r.all('SELECT * FROM runs WHERE issue_id = ? ORDER BY created_at, run_id', [issueId]).map(runFromRow);
	},
	listByStatus(r: Reader, status: RunStatus): Run[] {
		return r.all('SELECT * FROM runs WHERE status = ? ORDER BY created_at, run_id', [status]).map(runFromRow);
	},
	/**
	 * Runs live at some moment since `sinceUnixMs`: running now, or updated at or after it (a Run's settlement, after its
	 * result commit, updates it; its completedAt is its process's exit, which may be earlier).
	 */
	listLiveSince(r: Reader, sinceUnixMs: number): Run[] {
		return r.all("SELECT * FROM runs WHERE status = 'running' OR updated_at >= ? ORDER BY created_at, run_id", [sinceUnixMs]).map(runFromRow);
	},
	/** Whether the issue has any Run, settled or not. */
	hasAny(r: Reader, issueId: string): boolean {
		return r.get('SELECT 1 AS found FROM runs WHERE issue_id = ? LIMIT 1', [issueId]) !== undefined;
	},
	countRunning(r: Reader): number {
		const row = r.get("SELECT count(*) AS n FROM runs WHERE status = 'running'");
		return row ? num(row, 'n') : 0;
	},
	insert(tx: Tx, run: Run): void {
		tx.run(
			`INSERT INTO runs (run_id, issue_id, task_id, agent_target_id, agent_session_id, status, outcome, input_tokens,
			 output_tokens, cache_read_tokens, cache_write_tokens, summary, error_message, exit_code, output_dir,
			 execution_directory, created_at, started_at, completed_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[run.runId, run.issueId, run.taskId, run.agentTargetId, run.agentSessionId, run.status, run.outcome,
				run.usage.inputTokens, run.usage.outputTokens, run.usage.cacheReadTokens, run.usage.cacheWriteTokens, run.summary,
				run.errorMessage, run.exitCode, run.outputDir, run.executionDirectory, run.createdAtUnixMs, run.startedAtUnixMs,
				run.completedAtUnixMs, run.updatedAtUnixMs],
		);
	},
	update(tx: Tx, run: Run): void {
		tx.run(
			`UPDATE runs SET agent_session_id = ?, status = ?, outcome = ?, input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
			 cache_write_tokens = ?, summary = ?, error_message = ?, exit_code = ?, output_dir = ?, execution_directory = ?,
			 started_at = ?, completed_at = ?, updated_at = ? WHERE run_id = ?`,
			[run.agentSessionId, run.status, run.outcome, run.usage.inputTokens, run.usage.outputTokens, run.usage.cacheReadTokens,
				run.usage.cacheWriteTokens, run.summary, run.errorMessage, run.exitCode, run.outputDir, run.executionDirectory,
				run.startedAtUnixMs, run.completedAtUnixMs, run.updatedAtUnixMs, run.runId],
		);
	},
	stopEvents(r: Reader, runId: string): StopEventRecord[] {
		return r.all('SELECT * FROM stop_events WHERE run_id = ? ORDER BY requested_at, event_id', [runId]).map(stopFromRow);
	},
	insertStopEvent(tx: Tx, e: StopEventRecord): void {
		tx.run('INSERT INTO stop_events (event_id, run_id, reason, requested_at, answer, answered_at) VALUES (?,?,?,?,?,?)',
			[e.eventId, e.runId, e.reason, e.requestedAtUnixMs, e.answer, e.answeredAtUnixMs]);
	},
	/** Records what a press did; keyed by its event id, so a later press never overwrites an earlier answer. */
	answerStopEvent(tx: Tx, eventId: string, answer: StopAnswer, answeredAtUnixMs: number): void {
		tx.run('UPDATE stop_events SET answer = ?, answered_at = ? WHERE event_id = ?', [answer, answeredAtUnixMs, eventId]);
	},
};
