import { strict as assert } from 'node:assert';
import { defaultModelPrices, priceKeyOf, priceTable, turnCost } from '../../../../src/core/usage/prices.js';

const usage = { inputTokens: 1_000_000, outputTokens: 200_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 100_000 };
const mine = { 'my-model': { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.2, cacheWritePerMTok: 2.5 } };

describe('core/usage/prices', () => {
	it("prefers the agent's own figure over any price", () => {
		assert.deepEqual(turnCost(usage, 'my-model', 0.42, priceTable(mine)), { usd: 0.42, source: 'agent' });
	});

	it('prices every kind of token by the model (USD per million tokens)', () => {
		// 1M × $2 + 0.2M × $10 + 2M × $0.2 + 0.1M × $2.5 = 2 + 2 + 0.4 + 0.25
		const cost = turnCost(usage, 'my-model', null, priceTable(mine));
		assert.equal(cost.source, 'prices');
		assert.ok(Math.abs(cost.usd! - 4.65) < 1e-9, String(cost.usd));
	});

	it('an unknown model has no price: the cost is unknown, not 0', () => {
		assert.deepEqual(turnCost(usage, 'gpt-scripted', null, priceTable(mine)), { usd: null, source: 'unknown' });
		assert.deepEqual(turnCost(usage, '', null, priceTable(mine)), { usd: null, source: 'unknown' });
	});

	it('a Turn that used no tokens costs 0 whatever its model', () => {
		assert.deepEqual(turnCost({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, 'gpt-scripted', null, priceTable(undefined)), { usd: 0, source: 'prices' });
	});

	it('a negative or non-finite agent figure is ignored', () => {
		assert.equal(turnCost(usage, 'my-model', -1, priceTable(mine)).source, 'prices');
		assert.equal(turnCost(usage, 'my-model', Number.NaN, priceTable(mine)).source, 'prices');
	});

	it('configured prices replace a default and add models; the defaults stay otherwise', () => {
		const table = priceTable({ 'gpt-5.5': { inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: 0, cacheWritePerMTok: 0 }, ...mine });
		assert.deepEqual(table['gpt-5.5'], { inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: 0, cacheWritePerMTok: 0 });
		assert.deepEqual(table['claude-opus-4-8'], defaultModelPrices['claude-opus-4-8']);
		assert.ok(table['my-model']);
	});

	it('matches model names as agents report them: a context suffix and a date suffix are dropped', () => {
		const table = priceTable(undefined);
		assert.equal(priceKeyOf('claude-opus-4-8[1m]', table), 'claude-opus-4-8');
		assert.equal(priceKeyOf('claude-haiku-4-5-20251001', table), 'claude-haiku-4-5');
		assert.equal(priceKeyOf('gpt-5.5', table), 'gpt-5.5');
		assert.equal(priceKeyOf('claude-opus-4', table), '');
	});

	it('the defaults price the models the adapters use: claude-opus-4-8 at $5 / $25 and gpt-5.5 at $5 / $30 per MTok', () => {
		const oneEach = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0 };
		assert.equal(turnCost(oneEach, 'claude-opus-4-8', null, priceTable(undefined)).usd, 30);
		assert.equal(turnCost(oneEach, 'gpt-5.5', null, priceTable(undefined)).usd, 35);
	});
});
