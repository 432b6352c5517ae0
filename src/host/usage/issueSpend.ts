// An issue's spend against its budget, read from the store and judged by the one core rule (src/core/usage/budget.ts):
// the DTO every surface shows, and the check every launch path makes before it starts anything.
import { isTerminalExecution } from '../../core/execution/allowedActions.js';
import { rejection } from '../../core/hints.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import {
	budgetRemaining, type BudgetDecision, decideBudget, decideIssueBudget, decideLaunchBudget, formatUsd, type IssueBudget, type IssueSpend, type LaunchModel,
} from '../../core/usage/budget.js';
import { priceTable, totalTokens } from '../../core/usage/prices.js';
import type { Caller } from '../../protocol/controlPlane.js';
import type { SpendDto } from '../../protocol/dto.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { reviewerReviewRepository } from '../../store/repositories/reviewerReviewRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { usageRepository } from '../../store/repositories/usageRepository.js';
import type { Reader } from '../../store/tx.js';
import type { HostConfig } from '../config.js';

/** What a launch's price depends on: the configured targets and prices (`tutti.modelPrices` over the defaults). */
export type LaunchPricing = Pick<HostConfig, 'agentTargets' | 'modelPrices'>;

/** The budget rule's answer for the issue now, whatever it launches next (its spend against its budget). */
export function issueBudgetDecision(r: Reader, issueId: string): BudgetDecision {
	return decideBudget(usageRepository.budget(r, issueId), usageRepository.issueTotals(r, issueId));
}

/** What a launch on `target` is counted by: the task's model where it names one, else the target's. */
export function launchModelOf(target: AgentTargetConfig, taskModel = ''): LaunchModel {
	return { targetId: target.id, adapter: target.adapter, model: taskModel !== '' ? taskModel : target.model ?? '' };
}

/** The budget rule before one launch (src/core/usage/budget.ts decideLaunchBudget): every launch path asks it. */
export function launchBudgetDecision(r: Reader, issueId: string, launch: LaunchModel, pricing: LaunchPricing): BudgetDecision {
	return launchBudgetGate(r, issueId, pricing)(launch);
}

/** The same rule for many launches of one issue, reading its budget and spend once. */
export function launchBudgetGate(r: Reader, issueId: string, pricing: LaunchPricing): (launch: LaunchModel) => BudgetDecision {
	const budget = usageRepository.budget(r, issueId);
	const totals = usageRepository.issueTotals(r, issueId);
	const table = priceTable(pricing.modelPrices);
	return (launch) => decideLaunchBudget(budget, totals, launch, table);
}

/**
 * The launches the issue has pending: its source agent's and its independent reviewer's (while the execution goes on)
 * and its not-started tasks' (configured targets only).
 */
function pendingLaunches(r: Reader, issueId: string, pricing: LaunchPricing): LaunchModel[] {
	const targetOf = (id: string): AgentTargetConfig | undefined => pricing.agentTargets.find((t) => t.id === id);
	const launches: LaunchModel[] = [];
	const issue = issueRepository.get(r, issueId);
	const execution = issue && issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issueId) : undefined;
	// A finished execution wakes its source no more.
	const source = issue && execution && !isTerminalExecution(execution.status) && issue.sourceSessionId !== ''
		? sessionRepository.get(r, issue.sourceSessionId) : undefined;
	const sourceTarget = source ? targetOf(source.agentTargetId) : undefined;
	if (sourceTarget) { launches.push(launchModelOf(sourceTarget)); }
	const reviewer = source && execution && execution.reviewMode === 'independent' ? targetOf(reviewerReviewRepository.reviewTargetOf(r, execution.executionId)) : undefined;
	if (reviewer) { launches.push(launchModelOf(reviewer)); }
	for (const pending of taskRepository.pendingLaunchTargets(r, issueId)) {
		const target = targetOf(pending.agentTargetId);
		if (target) { launches.push(launchModelOf(target, pending.model)); }
	}
	return launches;
}

/**
 * The issue's standing as every surface shows it: its spend against its budget and, given the pricing (the Host's
 * config), a pending launch the USD budget cannot count, so the developer sees why it is refused before it is tried.
 */
export function issueStandingDecision(r: Reader, issueId: string, pricing: LaunchPricing | undefined): BudgetDecision {
	return standing(r, issueId, usageRepository.budget(r, issueId), usageRepository.issueTotals(r, issueId), pricing);
}

function standing(r: Reader, issueId: string, budget: IssueBudget, totals: IssueSpend, pricing: LaunchPricing | undefined): BudgetDecision {
	if (pricing === undefined || budget.budgetUsd === null) { return decideBudget(budget, totals); }
	return decideIssueBudget(budget, totals, pendingLaunches(r, issueId, pricing), priceTable(pricing.modelPrices));
}

/** `pricing`: the Host's targets and prices (absent: the spend alone is judged). */
export function readSpendDto(r: Reader, issueId: string, pricing?: LaunchPricing): SpendDto {
	const budget = usageRepository.budget(r, issueId);
	const totals = usageRepository.issueTotals(r, issueId);
	const decision = standing(r, issueId, budget, totals, pricing);
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
		reachedAtUnixMs: decision.kind === 'exceeded' ? usageRepository.reachedAt(r, issueId, budget) : null,
	};
}

/**
 * Before a launch: throws `budget_exceeded` (at or over the budget) or `budget_unavailable` (a USD budget and a Turn,
 * ran or about to run, whose model has no known price). `what` names the launch in the message ("run start").
 */
export function requireLaunchWithinBudget(
	r: Reader, issueId: string, launch: LaunchModel, pricing: LaunchPricing, what: string, ctx: { taskId?: string } = {},
): void {
	const decision = launchBudgetDecision(r, issueId, launch, pricing);
	if (decision.kind === 'ok') { return; }
	if (decision.kind === 'exceeded') {
		throw rejection('budget_exceeded', `${what}: issue ${issueId} starts nothing more: ${decision.message}.`, { issueId, ...ctx }, { budget: decision.message });
	}
	throw rejection('budget_unavailable', `${what}: refused in issue ${issueId}: ${decision.message}.`, { issueId, ...ctx }, { budget: decision.message });
}

/** An issue that has used nothing and has no budget. */
export function emptySpendDto(): SpendDto {
	return {
		usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, tokens: 0, costUsd: 0, unpricedTurns: 0,
		budgetUsd: null, budgetTokens: null, remainingUsd: null, remainingTokens: null, budgetState: 'none', budgetBlocker: '',
		reachedAtUnixMs: null,
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
