// What the manual dispatcher asks of the store beside each issue's kept ready set (src/store/taskCache.ts): which
// issues may have work to start. It never loads a whole task graph per pass.
import type { Reader } from '../tx.js';
import { str } from './rowValues.js';

export const dispatchRepository = {
	/** Unpaused manual issues that have at least one active not-started task, oldest first. */
	manualIssuesWithWork(r: Reader): string[] {
		return r.all(
			`SELECT i.issue_id FROM issues i
			 WHERE i.planning_source = 'manual' AND i.dispatch_paused = 0 AND i.status <> 'archived'
			   AND EXISTS (SELECT 1 FROM tasks t WHERE t.issue_id = i.issue_id AND t.status = 'not_started' AND t.superseded_at = 0)
			 ORDER BY i.created_at, i.issue_id`,
		).map((row) => str(row, 'issue_id'));
	},
};
