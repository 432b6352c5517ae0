// The wake-delivery reads of the wake loop: every listing applies the pause gate
// (`i.dispatch_paused = 0`) and only runnable executions; a main wake is listed only for a source session bound to an
// agent target (a session Tutti can start a Turn in) that is not busy with another Turn.
import type { Reader } from '../tx.js';

/** Executions whose wakes may be delivered and whose watchdog may fire. */
export const runnableExecutionStatuses = "('awaiting_schedule','running','awaiting_main','pending_goal_review')";

/**
 * Ids of wakes ready for delivery now: prepared, or leased with an expired lease (recovery), oldest due first,
 * at most `limit`. Wakes of busy sessions are left out so they never starve later executions. A main wake is held
 * while an independent reviewer holds its checkpoint; a reviewer wake is listed only while its review is open.
 */
export function listDeliverableWakeIds(r: Reader, nowUnixMs: number, limit: number): string[] {
	return r.all(
		`SELECT w.wake_id FROM wakes w
		 JOIN executions e ON e.execution_id = w.execution_id
		 JOIN issues i ON i.issue_id = e.issue_id
		 JOIN agent_sessions s ON s.session_id = w.target_session_id
		 WHERE i.dispatch_paused = 0 AND e.status IN ${runnableExecutionStatuses}
		   AND ((w.target_kind = 'main' AND NOT EXISTS (SELECT 1 FROM reviewer_reviews v WHERE v.checkpoint_id = w.checkpoint_id
		                                                  AND v.status IN ('prepared','dispatched')))
		        OR (w.target_kind = 'reviewer' AND EXISTS (SELECT 1 FROM reviewer_reviews v WHERE v.client_submit_id = w.client_submit_id
		                                                   AND v.status IN ('prepared','dispatched'))))
		   AND s.agent_target_id <> ''
		   AND ((w.status = 'prepared' AND w.due_at <= ?) OR (w.status = 'leased' AND w.lease_expires_at <= ?))
		   AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = w.target_session_id AND t.state <> 'settled'
		                   AND t.client_submit_id <> w.client_submit_id)
		 ORDER BY w.due_at, w.created_at, w.wake_id LIMIT ?`,
		[nowUnixMs, nowUnixMs, limit],
	).map((row) => String(row.wake_id));
}

/** Executions whose watchdog is due now: runnable and not paused (the watchdog materialization gate). */
export function listDueWatchdogExecutionIds(r: Reader, nowUnixMs: number): string[] {
	return r.all(
		`SELECT e.execution_id FROM executions e JOIN issues i ON i.issue_id = e.issue_id
		 WHERE i.dispatch_paused = 0 AND e.status IN ${runnableExecutionStatuses} AND e.watchdog_due_at > 0 AND e.watchdog_due_at <= ?
		 ORDER BY e.watchdog_due_at, e.execution_id`,
		[nowUnixMs],
	).map((row) => String(row.execution_id));
}

/** Executions that can never be woken again but still have open wakes (startup suppression). */
export function listNonRunnableWithOpenWakes(r: Reader): string[] {
	return r.all(
		`SELECT DISTINCT e.execution_id FROM executions e JOIN wakes w ON w.execution_id = e.execution_id
		 WHERE e.status NOT IN ${runnableExecutionStatuses} AND w.status IN ('prepared','leased','dispatched','turn_settled')
		 ORDER BY e.execution_id`,
	).map((row) => String(row.execution_id));
}

/** The wake delivered by a Turn (by its submit id). */
export function wakeIdBySubmitId(r: Reader, clientSubmitId: string): string | undefined {
	const row = r.get('SELECT wake_id FROM wakes WHERE client_submit_id = ?', [clientSubmitId]);
	return row ? String(row.wake_id) : undefined;
}
