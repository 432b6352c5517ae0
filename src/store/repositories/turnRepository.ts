// Agent Turns. A Run's Turn is submitted with `issue-run:<runId>` (unique), and only that exact Turn settles the Run.
import type { RunOutcome, TurnState } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export interface Turn {
	turnId: string;
	sessionId: string;
	clientSubmitId: string;
	state: TurnState;
	outcome: RunOutcome | null;
	createdAtUnixMs: number;
	settledAtUnixMs: number;
}

function turnFromRow(row: Row): Turn {
	const outcome = str(row, 'outcome');
	return {
		turnId: str(row, 'turn_id'),
		sessionId: str(row, 'session_id'),
		clientSubmitId: str(row, 'client_submit_id'),
		state: str(row, 'state') as TurnState,
		outcome: outcome === '' ? null : (outcome as RunOutcome),
		createdAtUnixMs: num(row, 'created_at'),
		settledAtUnixMs: num(row, 'settled_at'),
	};
}

export const turnRepository = {
	bySubmitId(r: Reader, clientSubmitId: string): Turn | undefined {
		const row = r.get('SELECT * FROM turns WHERE client_submit_id = ?', [clientSubmitId]);
		return row ? turnFromRow(row) : undefined;
	},
	insert(tx: Tx, turn: Turn): void {
		tx.run(
			'INSERT INTO turns (turn_id, session_id, client_submit_id, state, outcome, created_at, settled_at) VALUES (?,?,?,?,?,?,?)',
			[turn.turnId, turn.sessionId, turn.clientSubmitId, turn.state, turn.outcome, turn.createdAtUnixMs, turn.settledAtUnixMs],
		);
	},
	/** prepared → running (the process was started). No-op for a Turn in any other state. */
	markRunning(tx: Tx, clientSubmitId: string): boolean {
		return tx.run("UPDATE turns SET state = 'running' WHERE client_submit_id = ? AND state = 'prepared'", [clientSubmitId]) > 0;
	},
	/** Settles the Turn once; a settled Turn is never rewritten. Returns whether it settled now. */
	settle(tx: Tx, clientSubmitId: string, outcome: RunOutcome, atUnixMs: number): boolean {
		return tx.run(
			"UPDATE turns SET state = 'settled', outcome = ?, settled_at = ? WHERE client_submit_id = ? AND state <> 'settled'",
			[outcome, atUnixMs, clientSubmitId],
		) > 0;
	},
};
