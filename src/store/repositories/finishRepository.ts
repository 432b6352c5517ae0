// The developer's Finish after a completed issue (migration 004): recorded once, so resume and the Stop hook stop
// offering work; with whether accepted work was left not integrated (migration 017).
import type { Reader, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export const finishRepository = {
	/** When Finish was recorded; 0 = not finished. */
	finishedAt(r: Reader, issueId: string): number {
		const row = r.get('SELECT finished_at FROM issue_finishes WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'finished_at') : 0;
	},
	/** Records Finish once; a repeat keeps the first. `withoutIntegrating`: accepted work was left not integrated. */
	record(tx: Tx, issueId: string, nowUnixMs: number, withoutIntegrating = false): void {
		tx.run('INSERT OR IGNORE INTO issue_finishes (issue_id, finished_at, without_integrating) VALUES (?, ?, ?)', [issueId, nowUnixMs, withoutIntegrating ? 1 : 0]);
	},
	/** The recorded Finish left accepted work not integrated (false when not finished). */
	finishedWithoutIntegrating(r: Reader, issueId: string): boolean {
		const row = r.get('SELECT without_integrating FROM issue_finishes WHERE issue_id = ?', [issueId]);
		return row ? num(row, 'without_integrating') === 1 : false;
	},
	/** Every issue with a recorded Finish. */
	finishedIssueIds(r: Reader): string[] {
		return r.all('SELECT issue_id FROM issue_finishes ORDER BY issue_id').map((row) => str(row, 'issue_id'));
	},
};
