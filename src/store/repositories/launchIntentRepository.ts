// Run launch intents: one per Run, `launch-intent:<runId>`, bound to the Run's exact submit id.
// Admission writes it `prepared`; the launcher leases it, then marks it `dispatched`; settlement seals a
// `prepared`/`leased` one as `failed` or `canceled`.
import type { LaunchIntentStatus } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, numOrNull, str } from './rowValues.js';

export interface LaunchIntent {
	launchIntentId: string;
	runId: string;
	clientSubmitId: string;
	status: LaunchIntentStatus;
	leaseOwner: string;
	leaseExpiresAtUnixMs: number;
	pid: number | null;
	lastError: string;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

function intentFromRow(row: Row): LaunchIntent {
	return {
		launchIntentId: str(row, 'launch_intent_id'),
		runId: str(row, 'run_id'),
		clientSubmitId: str(row, 'client_submit_id'),
		status: str(row, 'status') as LaunchIntentStatus,
		leaseOwner: str(row, 'lease_owner'),
		leaseExpiresAtUnixMs: num(row, 'lease_expires_at'),
		pid: numOrNull(row, 'pid'),
		lastError: str(row, 'last_error'),
		createdAtUnixMs: num(row, 'created_at'),
		updatedAtUnixMs: num(row, 'updated_at'),
	};
}

export const launchIntentRepository = {
	byRun(r: Reader, runId: string): LaunchIntent | undefined {
		const row = r.get('SELECT * FROM launch_intents WHERE run_id = ?', [runId]);
		return row ? intentFromRow(row) : undefined;
	},
	listByStatus(r: Reader, status: LaunchIntentStatus): LaunchIntent[] {
		return r.all('SELECT * FROM launch_intents WHERE status = ? ORDER BY created_at, launch_intent_id', [status]).map(intentFromRow);
	},
	insert(tx: Tx, intent: LaunchIntent): void {
		tx.run(
			`INSERT INTO launch_intents (launch_intent_id, run_id, client_submit_id, status, lease_owner, lease_expires_at, pid,
			 last_error, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			[intent.launchIntentId, intent.runId, intent.clientSubmitId, intent.status, intent.leaseOwner,
				intent.leaseExpiresAtUnixMs, intent.pid, intent.lastError, intent.createdAtUnixMs, intent.updatedAtUnixMs],
		);
	},
	/**
	 * Moves the intent to `to` only if it is still in one of `from` (compare-and-set). Returns whether it moved.
	 * `lease` sets the owner and expiry (leasing); `lastError` records why a launch failed or was canceled.
	 */
	transition(
		tx: Tx,
		runId: string,
		from: readonly LaunchIntentStatus[],
		to: LaunchIntentStatus,
		atUnixMs: number,
		extra: { lease?: { owner: string; expiresAtUnixMs: number }; lastError?: string } = {},
	): boolean {
		const placeholders = from.map(() => '?').join(',');
		const sets = ['status = ?', 'updated_at = ?'];
		const params: (string | number)[] = [to, atUnixMs];
		if (extra.lease) {
			sets.push('lease_owner = ?', 'lease_expires_at = ?');
			params.push(extra.lease.owner, extra.lease.expiresAtUnixMs);
		}
		if (extra.lastError !== undefined) {
			sets.push('last_error = ?');
			params.push(extra.lastError);
		}
		return tx.run(
			`UPDATE launch_intents SET ${sets.join(', ')} WHERE run_id = ? AND status IN (${placeholders})`,
			[...params, runId, ...from],
		) > 0;
	},
};
