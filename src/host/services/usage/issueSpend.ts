// An issue's spend against its budget, read from the store and judged by the one core rule (src/core/usage/budget.ts):
// the DTO every surface shows, and the check every launch path makes before it starts anything.
import { rejection } from '../../../core/hints.js';
import { budgetRemaining, type BudgetDecision, decideBudget, formatUsd, type IssueBudget } from '../../../core/usage/budget.js';
import { totalTokens } from '../../../core/usage/prices.js';
import type { Caller } from '../../../protocol/controlPlane.js';
import type { SpendDto } from '../../../protocol/dto.js';
import { usageRepository } from '../../../store/repositories/usageRepository.js';
import type { Reader } from '../../../store/tx.js';

/** The budget rule's answer for the issue now. */
export function issueBudgetDecision(r: Reader, issueId: string): BudgetDecision {
	return decideBudget(usageRepository.budget(r, issueId), usageRepository.issueTotals(r, issueId));
}

export function readSpendDto(r: Reader, issueId: string): SpendDto {
	const budget = usageRepository.budget(r, issueId);
	const totals = usageRepository.issueTotals(r, issueId);
	const decision = decideBudget(budget, totals);
	const remaining = budgetRemaining(budget, totals);
	const hasBudget = budget.budgetUsd !== null || budget.budgetTokens !== null;
	return {
		usage: { ...totals.usage },
		tokens: totalTokens(totals.usage),
		costUsd: totals.costUsd,
		unpricedTurns: totals.unpricedTurns,
		budgetUsd: budget.budgetUsd,
		budgetTokens: budget.budgetTokens,
		remainingUsd: remaining.usd,
		remainingTokens: remaining.tokens,
		budgetState: decision.kind === 'ok' ? (hasBudget ? 'within' : 'none') : decision.kind,
		budgetBlocker: decision.kind === 'ok' ? '' : decision.message,
	};
}

/**
 * Before a launch: throws `budget_exceeded` (at or over the budget) or `budget_unavailable` (a USD budget and a Turn
 * whose model has no known price). `what` names the launch in the message ("schedule", "run start").
 */
export function requireWithinBudget(r: Reader, issueId: string, what: string, ctx: { taskId?: string } = {}): void {
	const decision = issueBudgetDecision(r, issueId);
	if (decision.kind === 'ok') { return; }
	const reason = decision.kind === 'exceeded' ? 'budget_exceeded' : 'budget_unavailable';
	throw rejection(reason, `${what}: issue ${issueId} starts nothing more: ${decision.message}.`, { issueId, ...ctx }, { budget: decision.message });
}

/** An issue that has used nothing and has no budget. */
export function emptySpendDto(): SpendDto {
	return {
		usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, tokens: 0, costUsd: 0, unpricedTurns: 0,
		budgetUsd: null, budgetTokens: null, remainingUsd: null, remainingTokens: null, budgetState: 'none', budgetBlocker: '',
	};
}

/** The budget fields a create or update request may carry (null: no budget of that kind; absent: unchanged/default). */
export interface BudgetParams {
	budgetUsd?: number | null | undefined;
	budgetTokens?: number | null | undefined;
}

/**
 * A new issue's budget: what the request names, else the `defaultBudgetUsd` setting. An agent session may set a
 * budget but not escape the developer's default: no USD budget, or one above the default, is the developer's call.
 */
export function newIssueBudget(params: BudgetParams, defaultBudgetUsd: number | undefined, caller: Caller, command: string): IssueBudget {
	const budgetUsd = params.budgetUsd === undefined ? defaultBudgetUsd ?? null : params.budgetUsd;
	if (caller.kind !== 'user' && defaultBudgetUsd !== undefined && (budgetUsd === null || budgetUsd > defaultBudgetUsd)) {
		throw rejection('forbidden', `${command}: only the developer may create an issue without a USD budget or above the default of ${formatUsd(defaultBudgetUsd)} (the tutti.defaultBudgetUsd setting).`);
	}
	return { budgetUsd, budgetTokens: params.budgetTokens ?? null };
}
