// What each source session last read of its plan (migration 10): the issue's task change revision its last
// `plan issue get` answered, so the next compact snapshot lists only the tasks changed since.
import type { Reader, Tx } from '../tx.js';
import { num } from './rowValues.js';

export const planReadRepository = {
	/** The task revision this session last read on this issue; undefined when it never read it. */
	lastRead(r: Reader, sessionId: string, issueId: string): number | undefined {
		const row = r.get('SELECT task_revision FROM plan_reads WHERE session_id = ? AND issue_id = ?', [sessionId, issueId]);
		return row ? num(row, 'task_revision') : undefined;
	},
	/** Remembers a read; never moves back (of two reads in flight, the later revision stays). */
	recordRead(tx: Tx, sessionId: string, issueId: string, taskRevision: number, atUnixMs: number): void {
		tx.run(
			`INSERT INTO plan_reads (session_id, issue_id, task_revision, read_at) VALUES (?, ?, ?, ?)
			 ON CONFLICT (session_id, issue_id) DO UPDATE SET task_revision = max(task_revision, excluded.task_revision), read_at = excluded.read_at`,
			[sessionId, issueId, taskRevision, atUnixMs],
		);
	},
};
