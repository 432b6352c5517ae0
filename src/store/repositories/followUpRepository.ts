// The developer's follow-ups after a completed issue (migration 005). Offered by `tutti next-action` oldest first,
// each once: the call that returns one records `consumed_at` in the same transaction as its read.
import type { FollowUpFact } from '../../core/next/facts.js';
import { num, str } from './rowValues.js';
import type { Reader, Row, Tx } from '../tx.js';

export interface FollowUpRow extends FollowUpFact {
	issueId: string;
	sequence: number;
	/** When a next-action call took it; 0 = still pending. */
	consumedAtUnixMs: number;
}

function toRow(row: Row): FollowUpRow {
	return {
		followUpId: str(row, 'follow_up_id'), issueId: str(row, 'issue_id'), sequence: num(row, 'sequence'), text: str(row, 'text'),
		requestedAtUnixMs: num(row, 'requested_at'), consumedAtUnixMs: num(row, 'consumed_at'),
	};
}

/** Deterministic per issue: the n-th follow-up the developer picked. */
export function followUpIdFor(issueId: string, sequence: number): string {
	return `${issueId}-follow-up-${sequence}`;
}

export const followUpRepository = {
	/** The oldest follow-up no next-action call has taken yet. */
	pending(r: Reader, issueId: string): FollowUpRow | undefined {
		const row = r.get('SELECT * FROM issue_follow_ups WHERE issue_id = ? AND consumed_at = 0 ORDER BY sequence LIMIT 1', [issueId]);
		return row ? toRow(row) : undefined;
	},
	listByIssue(r: Reader, issueId: string): FollowUpRow[] {
		return r.all('SELECT * FROM issue_follow_ups WHERE issue_id = ? ORDER BY sequence', [issueId]).map(toRow);
	},
	/** Appends the next follow-up of the issue and returns it. */
	record(tx: Tx, issueId: string, text: string, nowUnixMs: number): FollowUpRow {
		const last = tx.get('SELECT MAX(sequence) AS n FROM issue_follow_ups WHERE issue_id = ?', [issueId]);
		const sequence = (last ? num(last, 'n') : 0) + 1;
		const followUpId = followUpIdFor(issueId, sequence);
		tx.run('INSERT INTO issue_follow_ups (follow_up_id, issue_id, sequence, text, requested_at) VALUES (?, ?, ?, ?, ?)', [followUpId, issueId, sequence, text, nowUnixMs]);
		return { followUpId, issueId, sequence, text, requestedAtUnixMs: nowUnixMs, consumedAtUnixMs: 0 };
	},
	/** Marks it taken; false when another call took it first. */
	consume(tx: Tx, followUpId: string, nowUnixMs: number): boolean {
		return tx.run('UPDATE issue_follow_ups SET consumed_at = ? WHERE follow_up_id = ? AND consumed_at = 0', [Math.max(1, nowUnixMs), followUpId]) === 1;
	},
};
