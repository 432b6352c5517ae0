// What a Turn cost, from its token usage and a price table (pure). The agent's own figure wins where it reports one
// (Claude Code's `total_cost_usd`); otherwise the model's price; an unknown model has no price (cost unknown).
import type { Usage } from '../model.js';

/** USD per million tokens of each kind. */
export interface ModelPrice {
	inputPerMTok: number;
	outputPerMTok: number;
	cacheReadPerMTok: number;
	cacheWritePerMTok: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Defaults for the models the adapters use, as of 2026-12-01, as third-party price listings reported the vendors' API
 * rates on that date (not read from the vendors' own pages; check them against yours) (Anthropic:
 * Claude Opus 4.8 $5 / $25 per MTok input / output, cache reads 0.1× input, 5-minute cache writes 1.25× input;
 * Sonnet 4.6 $3 / $15; Haiku 4.5 $1 / $5. OpenAI: GPT-5.5 $5 input, $0.50 cached input, $30 output, standard tier
 * up to 272K input tokens; OpenAI bills no cache writes). Prices change: the setting `tutti.modelPrices` (headless:
 * `modelPrices` in `.tutti/config.json`) overrides or adds models.
 */
export const defaultModelPrices: PriceTable = {
	'claude-opus-4-8': { inputPerMTok: 5, outputPerMTok: 25, cacheReadPerMTok: 0.5, cacheWritePerMTok: 6.25 },
	'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
	'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cacheReadPerMTok: 0.1, cacheWritePerMTok: 1.25 },
	'gpt-5.5': { inputPerMTok: 5, outputPerMTok: 30, cacheReadPerMTok: 0.5, cacheWritePerMTok: 0 },
};

/** The table in effect: the defaults with the configured entries over them (a configured model replaces its default). */
export function priceTable(configured: PriceTable | undefined): PriceTable {
	return { ...defaultModelPrices, ...(configured ?? {}) };
}

/**
 * The table's key for a model name as agents report it: exact first, then without a context-window suffix such as
 * `[1m]` and without a date suffix (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`). '' when none matches.
 */
export function priceKeyOf(model: string, table: PriceTable): string {
	const candidates = [model, model.replace(/\[[^\]]*\]$/, ''), model.replace(/\[[^\]]*\]$/, '').replace(/-\d{8}$/, '')];
	for (const c of candidates) {
		if (c !== '' && Object.prototype.hasOwnProperty.call(table, c)) { return c; }
	}
	return '';
}

export function totalTokens(u: Usage): number {
	return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** Where a Turn's cost came from: the agent's report, the price table, or nowhere (tokens without a known price). */
export type CostSource = 'agent' | 'prices' | 'unknown';

export interface TurnCost {
	/** null: unknown (the Turn used tokens and its model has no price). */
	usd: number | null;
	source: CostSource;
}

/** A Turn's cost: the agent's own figure where present, else usage × the model's price, else unknown. */
export function turnCost(usage: Usage, model: string, agentCostUsd: number | null, table: PriceTable): TurnCost {
	if (agentCostUsd !== null && Number.isFinite(agentCostUsd) && agentCostUsd >= 0) { return { usd: agentCostUsd, source: 'agent' }; }
	if (totalTokens(usage) === 0) { return { usd: 0, source: 'prices' }; }
	const key = priceKeyOf(model, table);
	const price = key === '' ? undefined : table[key];
	if (!price) { return { usd: null, source: 'unknown' }; }
	const usd = (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok
		+ usage.cacheReadTokens * price.cacheReadPerMTok + usage.cacheWriteTokens * price.cacheWritePerMTok) / 1_000_000;
	return { usd, source: 'prices' };
}
