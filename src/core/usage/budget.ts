// An issue's spend against its budget, and whether it may start anything more (pure). Every launch path asks the
// same rule: a worker Run's admission, a source wake's Turn and an independent reviewer's Turn.
import type { Usage } from '../model.js';
import { type PriceTable, priceKeyOf, totalTokens } from './prices.js';

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

/** What a launch (a worker Run's Turn, a source wake's Turn, a reviewer's Turn) will be counted by, known before it starts. */
export interface LaunchModel {
	/** The agent target's id (named in the refusal). */
	targetId: string;
	adapter: 'claude' | 'codex' | 'command';
	/** The model it is launched with: the task's, else the target's; '' when neither names one. */
	model: string;
}

/**
 * Why a USD budget cannot count this launch's cost, or null when it can. Claude Code reports its own cost
 * (`total_cost_usd`), so a claude launch always can; codex reports tokens only, so its model needs a price (a codex
 * target that names no model runs Codex's own default, which Tutti cannot price); a command target is a plain process
 * that reports no usage, so it is checked only when it names a model.
 */
export function unpricedLaunch(launch: LaunchModel, table: PriceTable): string | null {
	if (launch.adapter === 'claude') { return null; }
	if (launch.model === '') {
		return launch.adapter === 'command' ? null
			: `the USD budget cannot be checked: agent target '${launch.targetId}' names no model, so Tutti cannot price what it uses`;
	}
	if (priceKeyOf(launch.model, table) !== '') { return null; }
	return `the USD budget cannot be checked: agent target '${launch.targetId}' uses model '${launch.model}', which has no known price`;
}

/**
 * The budget rule before a launch: `decideBudget` for the issue as a whole, then, with a USD budget, whether this
 * launch's cost can be counted at all (fail closed: a model with no known price starts nothing). A token budget
 * alone never needs a price.
 */
export function decideLaunchBudget(budget: IssueBudget, spend: IssueSpend, launch: LaunchModel, table: PriceTable): BudgetDecision {
	const issueWide = decideBudget(budget, spend);
	if (issueWide.kind !== 'ok' || budget.budgetUsd === null) { return issueWide; }
	const unpriced = unpricedLaunch(launch, table);
	return unpriced === null ? issueWide : { kind: 'unavailable', message: unpriced };
}

/**
 * The issue's standing as the developer and the orchestrator see it: `decideBudget`, or, with a USD budget, the first
 * launch it has pending (a not-started task, its source agent) whose cost cannot be counted, so it shows why that
 * launch will be refused before anyone tries.
 */
export function decideIssueBudget(budget: IssueBudget, spend: IssueSpend, pending: readonly LaunchModel[], table: PriceTable): BudgetDecision {
	const issueWide = decideBudget(budget, spend);
	if (issueWide.kind !== 'ok' || budget.budgetUsd === null) { return issueWide; }
	for (const launch of pending) {
		const unpriced = unpricedLaunch(launch, table);
		if (unpriced !== null) { return { kind: 'unavailable', message: unpriced }; }
	}
	return issueWide;
}

/** What is left of each budget (null: no budget of that kind); never below 0. */
export function budgetRemaining(budget: IssueBudget, spend: IssueSpend): { usd: number | null; tokens: number | null } {
	return {
		usd: budget.budgetUsd === null ? null : Math.max(0, budget.budgetUsd - spend.costUsd),
		tokens: budget.budgetTokens === null ? null : Math.max(0, budget.budgetTokens - totalTokens(spend.usage)),
	};
}
