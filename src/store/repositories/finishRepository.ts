// The developer's Finish after a completed issue (migration 004): recorded once, so resume and the Stop hook stop
// offering work.
import type { Reader, Tx } from '../tx.js';
import { num } from './rowValues.js';

export const finishRepository = {
	/** When Finish was recorded; 0 = not finished. */
	finishedAt(r: Reader, issueId: string): number {
		const row = r.get('SELECT finished_at FROM issue_finishes WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'finished_at') : 0;
	},
	/** Records Finish once; a repeat keeps the first time. */
	record(tx: Tx, issueId: string, nowUnixMs: number): void {
		tx.run('INSERT OR IGNORE INTO issue_finishes (issue_id, finished_at) VALUES (?, ?)', [issueId, nowUnixMs]);
	},
};
