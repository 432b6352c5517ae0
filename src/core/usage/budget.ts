// An issue's spend against its budget, and whether it may start anything more (pure). Every launch path asks the
// same rule: a worker Run's admission, a source wake's Turn and an independent reviewer's Turn.
import type { Usage } from '../model.js';
import { totalTokens } from './prices.js';

/** null: no budget of that kind. */
export interface IssueBudget {
	budgetUsd: number | null;
	budgetTokens: number | null;
}

export const noBudget: IssueBudget = { budgetUsd: null, budgetTokens: null };

/** What an issue's Turns have used, summed over every recorded Turn (worker, source and reviewer). */
export interface IssueSpend {
	usage: Usage;
	/** USD of the Turns whose cost is known. */
	costUsd: number;
	/** Turns that used tokens but whose cost is unknown (their model has no price). */
	unpricedTurns: number;
}

export const noSpend: IssueSpend = { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, unpricedTurns: 0 };

export type BudgetDecision =
	| { kind: 'ok' }
	/** At or over a budget: start nothing more. `message` is what the developer sees ("budget reached: $X of $Y"). */
	| { kind: 'exceeded'; message: string }
	/** A USD budget cannot be checked: a Turn's model has no known price. */
	| { kind: 'unavailable'; message: string };

/** $1.23 (cents), or 4 significant digits below a cent so small spends are not shown as $0.00. */
export function formatUsd(usd: number): string {
	if (usd !== 0 && Math.abs(usd) < 0.01) { return `$${usd.toPrecision(2)}`; }
	return `$${usd.toFixed(2)}`;
}

export function decideBudget(budget: IssueBudget, spend: IssueSpend): BudgetDecision {
	if (budget.budgetUsd !== null) {
		if (spend.costUsd >= budget.budgetUsd) {
			return { kind: 'exceeded', message: `budget reached: ${formatUsd(spend.costUsd)} of ${formatUsd(budget.budgetUsd)}` };
		}
		if (spend.unpricedTurns > 0) {
			return {
				kind: 'unavailable',
				message: `the USD budget cannot be checked: ${spend.unpricedTurns} Turn${spend.unpricedTurns === 1 ? '' : 's'} used a model with no known price (spent ${formatUsd(spend.costUsd)} of ${formatUsd(budget.budgetUsd)} on priced Turns)`,
			};
		}
	}
	if (budget.budgetTokens !== null) {
		const used = totalTokens(spend.usage);
		if (used >= budget.budgetTokens) {
			return { kind: 'exceeded', message: `budget reached: ${used} of ${budget.budgetTokens} tokens` };
		}
	}
	return { kind: 'ok' };
}

/** What is left of each budget (null: no budget of that kind); never below 0. */
export function budgetRemaining(budget: IssueBudget, spend: IssueSpend): { usd: number | null; tokens: number | null } {
	return {
		usd: budget.budgetUsd === null ? null : Math.max(0, budget.budgetUsd - spend.costUsd),
		tokens: budget.budgetTokens === null ? null : Math.max(0, budget.budgetTokens - totalTokens(spend.usage)),
	};
}
