// Approval requests (migration 012): one row per tool call an agent asked the developer about. Answered once (the
// UPDATE only touches a pending row); the Host closes the open ones of a Run that is stopped or ends.
import type { Approval, ApprovalAnswer, ApprovalAnswerer, ApprovalStatus } from '../../core/approvals/approvalRules.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

function parseJson(text: string): unknown {
	if (text === '') { return null; }
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function toApproval(row: Row): Approval {
	return {
		approvalId: str(row, 'approval_id'), issueId: str(row, 'issue_id'), taskId: str(row, 'task_id'), runId: str(row, 'run_id'),
		sessionId: str(row, 'session_id'), toolUseId: str(row, 'tool_use_id'), tool: str(row, 'tool'), input: parseJson(str(row, 'input_json')),
		requestedAtUnixMs: num(row, 'requested_at'), status: str(row, 'status') as ApprovalStatus, answer: str(row, 'answer') as ApprovalAnswer,
		answeredBy: str(row, 'answered_by') as ApprovalAnswerer, answeredAtUnixMs: num(row, 'answered_at'), message: str(row, 'message'),
		updatedInput: parseJson(str(row, 'updated_input_json')), grantedByApprovalId: str(row, 'granted_by_approval_id'),
	};
}

function jsonOrEmpty(value: unknown): string {
	return value === null || value === undefined ? '' : JSON.stringify(value);
}

export const approvalRepository = {
	get(r: Reader, approvalId: string): Approval | undefined {
		const row = r.get('SELECT * FROM approvals WHERE approval_id = ?', [approvalId]);
		return row ? toApproval(row) : undefined;
	},
	/** The request of this tool call of the Run (a resent request finds it). */
	byToolUse(r: Reader, runId: string, toolUseId: string): Approval | undefined {
		const row = r.get('SELECT * FROM approvals WHERE run_id = ? AND tool_use_id = ?', [runId, toolUseId]);
		return row ? toApproval(row) : undefined;
	},
	/** How many requests of the issue's running Runs wait for the developer (a request whose Run ended is expired). */
	pendingCountOfRunningRuns(r: Reader, issueId: string): number {
		const row = r.get("SELECT count(*) AS n FROM approvals a JOIN runs ru ON ru.run_id = a.run_id WHERE a.issue_id = ? AND a.status = 'pending' AND ru.status = 'running'", [issueId]);
		return row ? num(row, 'n') : 0;
	},
	listByIssue(r: Reader, issueId: string): Approval[] {
		return r.all('SELECT * FROM approvals WHERE issue_id = ? ORDER BY requested_at, approval_id', [issueId]).map(toApproval);
	},
	listByRun(r: Reader, runId: string): Approval[] {
		return r.all('SELECT * FROM approvals WHERE run_id = ? ORDER BY requested_at, approval_id', [runId]).map(toApproval);
	},
	/** Every pending request, oldest first (some may belong to Runs that ended: the caller shows those as expired). */
	listPending(r: Reader): Approval[] {
		return r.all("SELECT * FROM approvals WHERE status = 'pending' ORDER BY requested_at, approval_id").map(toApproval);
	},
	/** The developer's allow-for-task that covers this tool in this task, if any (the earliest). */
	taskGrant(r: Reader, issueId: string, taskId: string, tool: string): Approval | undefined {
		const row = r.get("SELECT * FROM approvals WHERE task_id = ? AND tool = ? AND issue_id = ? AND answer = 'allow_for_task' ORDER BY answered_at, approval_id LIMIT 1", [taskId, tool, issueId]);
		return row ? toApproval(row) : undefined;
	},
	insert(tx: Tx, a: Approval): void {
		tx.run(
			`INSERT INTO approvals (approval_id, issue_id, task_id, run_id, session_id, tool_use_id, tool, input_json, requested_at, status, answer,
			 answered_by, answered_at, message, updated_input_json, granted_by_approval_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[a.approvalId, a.issueId, a.taskId, a.runId, a.sessionId, a.toolUseId, a.tool, JSON.stringify(a.input ?? null), a.requestedAtUnixMs, a.status,
				a.answer, a.answeredBy, a.answeredAtUnixMs, a.message, jsonOrEmpty(a.updatedInput), a.grantedByApprovalId],
		);
	},
	/** Records the answer of a pending request; false when it was answered (or closed) first. */
	answer(tx: Tx, approvalId: string, fields: Pick<Approval, 'status' | 'answer' | 'answeredBy' | 'answeredAtUnixMs' | 'message' | 'updatedInput'>): boolean {
		return tx.run(
			"UPDATE approvals SET status = ?, answer = ?, answered_by = ?, answered_at = ?, message = ?, updated_input_json = ? WHERE approval_id = ? AND status = 'pending'",
			[fields.status, fields.answer, fields.answeredBy, Math.max(1, fields.answeredAtUnixMs), fields.message, jsonOrEmpty(fields.updatedInput), approvalId],
		) === 1;
	},
	/** Closes every pending request of the Run (`canceled` by a Stop, `expired` when it ended); returns how many. */
	closeOpenOfRun(tx: Tx, runId: string, status: 'canceled' | 'expired', message: string, nowUnixMs: number): number {
		return tx.run(
			"UPDATE approvals SET status = ?, answered_by = 'host', answered_at = ?, message = ? WHERE run_id = ? AND status = 'pending'",
			[status, Math.max(1, nowUnixMs), message, runId],
		);
	},
};
