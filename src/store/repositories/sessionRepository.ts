// Agent sessions. Tokens are never stored: only their sha256.
import type { AgentSession, SessionRole } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

function sessionFromRow(row: Row): AgentSession {
	return {
		sessionId: str(row, 'session_id'),
		role: str(row, 'role') as SessionRole,
		issueId: str(row, 'issue_id'),
		taskId: str(row, 'task_id'),
		runId: str(row, 'run_id'),
		agentTargetId: str(row, 'agent_target_id'),
		providerSessionId: str(row, 'provider_session_id'),
		createdAtUnixMs: num(row, 'created_at'),
		...(str(row, 'token_revoked') === 'stopped' ? { tokenRevoked: 'stopped' as const } : {}),
	};
}

export const sessionRepository = {
	get(r: Reader, sessionId: string): AgentSession | undefined {
		const row = r.get('SELECT * FROM agent_sessions WHERE session_id = ?', [sessionId]);
		return row ? sessionFromRow(row) : undefined;
	},
	byTokenHash(r: Reader, tokenSha256: string): AgentSession | undefined {
		const row = r.get('SELECT * FROM agent_sessions WHERE token_sha256 = ?', [tokenSha256]);
		return row ? sessionFromRow(row) : undefined;
	},
	insert(tx: Tx, session: AgentSession, tokenSha256: string): void {
		tx.run(
			`INSERT INTO agent_sessions (session_id, role, token_sha256, issue_id, task_id, run_id, agent_target_id,
			 provider_session_id, created_at) VALUES (?,?,?,?,?,?,?,?,?)`,
			[session.sessionId, session.role, tokenSha256, session.issueId, session.taskId, session.runId, session.agentTargetId,
				session.providerSessionId, session.createdAtUnixMs],
		);
	},
	/** Replaces the session's token hash (a fresh token was minted; the old one stops authenticating, the new one acts). */
	updateTokenHash(tx: Tx, sessionId: string, tokenSha256: string): void {
		tx.run("UPDATE agent_sessions SET token_sha256 = ?, token_revoked = '' WHERE session_id = ?", [tokenSha256, sessionId]);
	},
	/** A Stop was recorded against the session's running Run: its current token no longer acts. */
	revokeToken(tx: Tx, sessionId: string): void {
		tx.run("UPDATE agent_sessions SET token_revoked = 'stopped' WHERE session_id = ?", [sessionId]);
	},
	/** Records the provider's own session id (claude/codex) read from a Turn's facts, so later Turns resume it. */
	updateProviderSessionId(tx: Tx, sessionId: string, providerSessionId: string): void {
		tx.run('UPDATE agent_sessions SET provider_session_id = ? WHERE session_id = ?', [providerSessionId, sessionId]);
	},
};
