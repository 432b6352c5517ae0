// Agent Turns. A Run's Turn is submitted with `issue-run:<runId>` (unique), and only that exact Turn settles the Run.
// A source session's wake Turn is submitted with `tutti-execution-wake:<wakeId>`; its process runs in a turn-scoped
// runner directory (`process_id`, one per delivery attempt).
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
	/** The runner id of the Turn's process ('' when it has none of its own, e.g. a Run's Turn uses the Run id). */
	processId?: string;
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
		processId: str(row, 'process_id'),
	};
}

export const turnRepository = {
	bySubmitId(r: Reader, clientSubmitId: string): Turn | undefined {
		const row = r.get('SELECT * FROM turns WHERE client_submit_id = ?', [clientSubmitId]);
		return row ? turnFromRow(row) : undefined;
	},
	/** The Turn whose process runs under this runner id. */
	byProcessId(r: Reader, processId: string): Turn | undefined {
		if (processId === '') { return undefined; }
		const row = r.get('SELECT * FROM turns WHERE process_id = ?', [processId]);
		return row ? turnFromRow(row) : undefined;
	},
	/** Turns of a session that are not settled (a source session with one is busy). */
	openOfSession(r: Reader, sessionId: string): Turn[] {
		return r.all("SELECT * FROM turns WHERE session_id = ? AND state <> 'settled' ORDER BY created_at, turn_id", [sessionId]).map(turnFromRow);
	},
	/** How many Turns a session has had (0: the next one is its first). */
	countOfSession(r: Reader, sessionId: string): number {
		const row = r.get('SELECT count(*) AS n FROM turns WHERE session_id = ?', [sessionId]);
		return row ? num(row, 'n') : 0;
	},
	/** Turns with a process of their own (source and reviewer Turns) that have not settled: prepared or running. */
	listOpenWithProcess(r: Reader): Turn[] {
		return r.all("SELECT * FROM turns WHERE state <> 'settled' AND process_id <> '' ORDER BY created_at, turn_id").map(turnFromRow);
	},
	/** Running Turns that have a process of their own (restart reconciliation of source-session Turns). */
	listRunningWithProcess(r: Reader): Turn[] {
		return r.all("SELECT * FROM turns WHERE state = 'running' AND process_id <> '' ORDER BY created_at, turn_id").map(turnFromRow);
	},
	insert(tx: Tx, turn: Turn): void {
		tx.run(
			'INSERT INTO turns (turn_id, session_id, client_submit_id, state, outcome, created_at, settled_at, process_id) VALUES (?,?,?,?,?,?,?,?)',
			[turn.turnId, turn.sessionId, turn.clientSubmitId, turn.state, turn.outcome, turn.createdAtUnixMs, turn.settledAtUnixMs, turn.processId ?? ''],
		);
	},
	/** Binds a not-yet-started Turn to the process of a new delivery attempt. */
	setProcessId(tx: Tx, clientSubmitId: string, processId: string): boolean {
		return tx.run("UPDATE turns SET process_id = ? WHERE client_submit_id = ? AND state = 'prepared'", [processId, clientSubmitId]) > 0;
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
