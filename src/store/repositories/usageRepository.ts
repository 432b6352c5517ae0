// What agent Turns used and cost (migration 11), and issue budgets. A Turn's usage is recorded once per runner id
// (INSERT OR IGNORE): an exit seen twice, or again after a restart, never counts twice.
import type { SessionRole, Usage } from '../../core/model.js';
import { type IssueBudget, type IssueSpend, noBudget } from '../../core/usage/budget.js';
import type { CostSource } from '../../core/usage/prices.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, numOrNull } from './rowValues.js';

export interface TurnUsageRecord {
	processId: string;
	issueId: string;
	/** The worker Run ('' for a source or reviewer Turn). */
	runId: string;
	role: SessionRole;
	model: string;
	usage: Usage;
	costUsd: number | null;
	costSource: CostSource;
	recordedAtUnixMs: number;
}

/** A sum of Turns: tokens, the USD of the priced ones, and how many used tokens without a known price. */
export interface UsageTotals extends IssueSpend {
	turns: number;
}

function totalsFromRow(row: Row | undefined): UsageTotals {
	return {
		usage: {
			inputTokens: row ? num(row, 'input_tokens') : 0,
			outputTokens: row ? num(row, 'output_tokens') : 0,
			cacheReadTokens: row ? num(row, 'cache_read_tokens') : 0,
			cacheWriteTokens: row ? num(row, 'cache_write_tokens') : 0,
		},
		costUsd: row ? num(row, 'cost_usd') : 0,
		unpricedTurns: row ? num(row, 'unpriced') : 0,
		turns: row ? num(row, 'turns') : 0,
	};
}

const sums = `count(*) AS turns, coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
	coalesce(sum(cache_read_tokens), 0) AS cache_read_tokens, coalesce(sum(cache_write_tokens), 0) AS cache_write_tokens,
	coalesce(sum(cost_usd), 0) AS cost_usd, coalesce(sum(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END), 0) AS unpriced`;

export const usageRepository = {
	/** Records a Turn's usage; false when that Turn was recorded already (nothing changes). */
	record(tx: Tx, u: TurnUsageRecord): boolean {
		if (tx.get('SELECT 1 AS x FROM turn_usage WHERE process_id = ?', [u.processId])) { return false; }
		tx.run(
			`INSERT INTO turn_usage (process_id, issue_id, run_id, role, model, input_tokens, output_tokens, cache_read_tokens,
			 cache_write_tokens, cost_usd, cost_source, recorded_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
			[u.processId, u.issueId, u.runId, u.role, u.model, u.usage.inputTokens, u.usage.outputTokens, u.usage.cacheReadTokens,
				u.usage.cacheWriteTokens, u.costUsd, u.costSource, u.recordedAtUnixMs],
		);
		return true;
	},
	/** Every recorded Turn of the issue (worker, source and reviewer). */
	issueTotals(r: Reader, issueId: string): UsageTotals {
		return totalsFromRow(r.get(`SELECT ${sums} FROM turn_usage WHERE issue_id = ?`, [issueId]));
	},
	/** Every recorded Turn of the issue's sessions in one role (its source agent's, its reviewers'). */
	roleTotals(r: Reader, issueId: string, role: SessionRole): UsageTotals {
		return totalsFromRow(r.get(`SELECT ${sums} FROM turn_usage WHERE issue_id = ? AND role = ?`, [issueId, role]));
	},
	/** Every recorded Turn of one worker Run. */
	runTotals(r: Reader, runId: string): UsageTotals {
		if (runId === '') { return totalsFromRow(undefined); }
		return totalsFromRow(r.get(`SELECT ${sums} FROM turn_usage WHERE run_id = ?`, [runId]));
	},
	/**
	 * When the issue's recorded spend reached `budget` (the recording of the Turn whose usage crossed it, or the moment
	 * the budget was set at or below what was spent already); null while the spend is within it.
	 */
	reachedAt(r: Reader, issueId: string, budget: IssueBudget): number | null {
		if (budget.budgetUsd === null && budget.budgetTokens === null) { return null; }
		const set = r.get('SELECT updated_at FROM issue_budgets WHERE issue_id = ?', [issueId]);
		const setAt = set ? num(set, 'updated_at') : 0;
		if ((budget.budgetUsd !== null && budget.budgetUsd <= 0) || (budget.budgetTokens !== null && budget.budgetTokens <= 0)) { return setAt; }
		const row = r.get(
			`SELECT recorded_at FROM (
				SELECT recorded_at, sum(coalesce(cost_usd, 0)) OVER w AS usd,
					sum(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) OVER w AS tokens
				FROM turn_usage WHERE issue_id = ? WINDOW w AS (ORDER BY recorded_at, rowid ROWS UNBOUNDED PRECEDING))
			 WHERE (? IS NOT NULL AND usd >= ?) OR (? IS NOT NULL AND tokens >= ?) LIMIT 1`,
			[issueId, budget.budgetUsd, budget.budgetUsd, budget.budgetTokens, budget.budgetTokens],
		);
		return row ? Math.max(num(row, 'recorded_at'), setAt) : null;
	},
	budget(r: Reader, issueId: string): IssueBudget {
		const row = r.get('SELECT budget_usd, budget_tokens FROM issue_budgets WHERE issue_id = ?', [issueId]);
		return row ? { budgetUsd: numOrNull(row, 'budget_usd'), budgetTokens: numOrNull(row, 'budget_tokens') } : noBudget;
	},
	setBudget(tx: Tx, issueId: string, budget: IssueBudget, atUnixMs: number): void {
		tx.run(
			`INSERT INTO issue_budgets (issue_id, budget_usd, budget_tokens, updated_at) VALUES (?, ?, ?, ?)
			 ON CONFLICT (issue_id) DO UPDATE SET budget_usd = excluded.budget_usd, budget_tokens = excluded.budget_tokens, updated_at = excluded.updated_at`,
			[issueId, budget.budgetUsd, budget.budgetTokens, atUnixMs],
		);
	},
};
