// The Stop hook budget per agent session (migration 004).
import type { Reader, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

/** How long the Stop hook has been blocking one session on the same owed command. */
export interface StopHookBudget {
	sessionId: string;
	observedCommand: string;
	blocks: number;
	firstBlockedAtUnixMs: number;
	/** 0 = still blocking; > 0 = released at (durable: later Stops allow until the owed command changes). */
	releasedAtUnixMs: number;
}

export const stopHookBudgetRepository = {
	get(r: Reader, sessionId: string): StopHookBudget | undefined {
		const row = r.get('SELECT * FROM stop_hook_budgets WHERE session_id = ?', [sessionId]);
		return row ? {
			sessionId: str(row, 'session_id'), observedCommand: str(row, 'observed_command'), blocks: num(row, 'blocks'),
			firstBlockedAtUnixMs: num(row, 'first_blocked_at'), releasedAtUnixMs: num(row, 'released_at'),
		} : undefined;
	},
	put(tx: Tx, b: StopHookBudget, nowUnixMs: number): void {
		tx.run(
			`INSERT INTO stop_hook_budgets (session_id, observed_command, blocks, first_blocked_at, released_at, updated_at) VALUES (?,?,?,?,?,?)
			 ON CONFLICT (session_id) DO UPDATE SET observed_command = excluded.observed_command, blocks = excluded.blocks,
			 first_blocked_at = excluded.first_blocked_at, released_at = excluded.released_at, updated_at = excluded.updated_at`,
			[b.sessionId, b.observedCommand, b.blocks, b.firstBlockedAtUnixMs, b.releasedAtUnixMs, nowUnixMs],
		);
	},
	delete(tx: Tx, sessionId: string): void {
		tx.run('DELETE FROM stop_hook_budgets WHERE session_id = ?', [sessionId]);
	},
};
