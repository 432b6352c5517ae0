// Stall marks of running Runs (src/core/runs/stallRules.ts): one row per stall of a Run, the marks in force served by a
// partial index; a lifted mark stays as history.
import type { RunStall, StallClearReason } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

function stallFromRow(row: Row): RunStall {
	return {
		runId: str(row, 'run_id'),
		issueId: str(row, 'issue_id'),
		episode: num(row, 'episode'),
		lastActivityAtUnixMs: num(row, 'last_activity_at'),
		markedAtUnixMs: num(row, 'marked_at'),
		clearedAtUnixMs: num(row, 'cleared_at'),
		clearedBy: str(row, 'cleared_by') as StallClearReason,
	};
}

export const runStallRepository = {
	/** The Run's mark in force, if any. */
	inForce(r: Reader, runId: string): RunStall | undefined {
		const row = r.get('SELECT * FROM run_stalls WHERE run_id = ? AND cleared_at = 0', [runId]);
		return row ? stallFromRow(row) : undefined;
	},
	/** The marks in force of one issue's Runs. */
	inForceOfIssue(r: Reader, issueId: string): RunStall[] {
		return r.all('SELECT * FROM run_stalls WHERE issue_id = ? AND cleared_at = 0', [issueId]).map(stallFromRow);
	},
	/** Every mark in force, by Run. */
	allInForce(r: Reader): Map<string, RunStall> {
		return new Map(r.all('SELECT * FROM run_stalls WHERE cleared_at = 0').map((row) => { const s = stallFromRow(row); return [s.runId, s] as const; }));
	},
	/** Every stall of the Run, oldest first (history included). */
	listOfRun(r: Reader, runId: string): RunStall[] {
		return r.all('SELECT * FROM run_stalls WHERE run_id = ? ORDER BY episode', [runId]).map(stallFromRow);
	},
	/** Marks the Run stalled as its next episode, unless a mark is in force already; returns the mark in force. */
	mark(tx: Tx, stall: Pick<RunStall, 'runId' | 'issueId' | 'lastActivityAtUnixMs' | 'markedAtUnixMs'>): { stall: RunStall; created: boolean } {
		const current = runStallRepository.inForce(tx, stall.runId);
		if (current) { return { stall: current, created: false }; }
		const last = tx.get('SELECT coalesce(max(episode), 0) AS n FROM run_stalls WHERE run_id = ?', [stall.runId]);
		const episode = (last ? num(last, 'n') : 0) + 1;
		const row: RunStall = { ...stall, episode, clearedAtUnixMs: 0, clearedBy: '' };
		tx.run('INSERT INTO run_stalls (run_id, episode, issue_id, last_activity_at, marked_at, cleared_at, cleared_by) VALUES (?, ?, ?, ?, ?, 0, \'\')',
			[row.runId, row.episode, row.issueId, row.lastActivityAtUnixMs, row.markedAtUnixMs]);
		return { stall: row, created: true };
	},
	/** Lifts the Run's mark in force; returns it as lifted (undefined when none was in force). */
	clear(tx: Tx, runId: string, by: Exclude<StallClearReason, ''>, nowUnixMs: number): RunStall | undefined {
		const current = runStallRepository.inForce(tx, runId);
		if (!current) { return undefined; }
		tx.run('UPDATE run_stalls SET cleared_at = ?, cleared_by = ? WHERE run_id = ? AND episode = ?', [nowUnixMs, by, runId, current.episode]);
		return { ...current, clearedAtUnixMs: nowUnixMs, clearedBy: by };
	},
};
