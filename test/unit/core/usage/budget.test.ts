import { strict as assert } from 'node:assert';
import {
	budgetRemaining, type BudgetDecision, decideBudget, decideIssueBudget, decideLaunchBudget, formatUsd, type IssueBudget, type IssueSpend, type LaunchModel,
} from '../../../../src/core/usage/budget.js';
import { type PriceTable } from '../../../../src/core/usage/prices.js';

function spend(costUsd: number, tokens = 0, unpricedTurns = 0): IssueSpend {
	return { usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd, unpricedTurns };
}
const budget = (budgetUsd: number | null, budgetTokens: number | null = null): IssueBudget => ({ budgetUsd, budgetTokens });

describe('core/usage/budget', () => {
	const table: [string, IssueBudget, IssueSpend, BudgetDecision][] = [
		['no budget: anything goes', budget(null), spend(1_000, 1e9, 3), { kind: 'ok' }],
		['under a USD budget', budget(1), spend(0.99), { kind: 'ok' }],
		['exactly at the USD budget: nothing more starts', budget(1), spend(1), { kind: 'exceeded', message: 'budget reached: $1.00 of $1.00' }],
		['over the USD budget', budget(1), spend(1.2345), { kind: 'exceeded', message: 'budget reached: $1.23 of $1.00' }],
		['a zero budget starts nothing', budget(0), spend(0), { kind: 'exceeded', message: 'budget reached: $0.00 of $0.00' }],
		['a USD budget and an unpriced Turn: cannot be checked', budget(5), spend(1, 10, 1),
			{ kind: 'unavailable', message: 'the USD budget cannot be checked: 1 Turn used a model with no known price (spent $1.00 of $5.00 on priced Turns)' }],
		['over the USD budget wins over unpriced Turns', budget(1), spend(2, 10, 2), { kind: 'exceeded', message: 'budget reached: $2.00 of $1.00' }],
		['a token budget only: unpriced Turns do not matter', budget(null, 100), spend(0, 99, 4), { kind: 'ok' }],
		['at the token budget', budget(null, 100), spend(0, 100), { kind: 'exceeded', message: 'budget reached: 100 of 100 tokens' }],
		['both budgets: the token one reached', budget(10, 100), spend(1, 150), { kind: 'exceeded', message: 'budget reached: 150 of 100 tokens' }],
	];
	for (const [name, b, s, expected] of table) {
		it(`decideBudget: ${name}`, () => { assert.deepEqual(decideBudget(b, s), expected); });
	}

	it('counts every kind of token against a token budget', () => {
		const s: IssueSpend = { usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 40 }, costUsd: 0, unpricedTurns: 0 };
		assert.equal(decideBudget(budget(null, 100), s).kind, 'exceeded');
		assert.equal(decideBudget(budget(null, 101), s).kind, 'ok');
	});

	it('what is left never goes below 0', () => {
		assert.deepEqual(budgetRemaining(budget(1, 100), spend(0.25, 40)), { usd: 0.75, tokens: 60 });
		assert.deepEqual(budgetRemaining(budget(1, 100), spend(3, 400)), { usd: 0, tokens: 0 });
		assert.deepEqual(budgetRemaining(budget(null), spend(3, 400)), { usd: null, tokens: null });
	});

	it('formats small spends so they are not shown as $0.00', () => {
		assert.equal(formatUsd(0.00035), '$0.00035');
		assert.equal(formatUsd(12.5), '$12.50');
		assert.equal(formatUsd(0), '$0.00');
	});

	describe('before a launch: a USD budget needs a price for the launch\'s model', () => {
		const table: PriceTable = { 'gpt-known': { inputPerMTok: 1, outputPerMTok: 2, cacheReadPerMTok: 0, cacheWritePerMTok: 0 } };
		const launch = (adapter: LaunchModel['adapter'], model: string): LaunchModel => ({ targetId: `t-${adapter}`, adapter, model });
		const unpriced = (target: string, model: string): BudgetDecision => ({
			kind: 'unavailable', message: `the USD budget cannot be checked: agent target '${target}' uses model '${model}', which has no known price`,
		});
		const cases: [string, IssueBudget, LaunchModel, BudgetDecision][] = [
			['codex, unknown model, USD budget: refused', budget(5), launch('codex', 'gpt-mystery'), unpriced('t-codex', 'gpt-mystery')],
			['codex, no model named, USD budget: refused (its default model has no price Tutti knows)', budget(5), launch('codex', ''),
				{ kind: 'unavailable', message: "the USD budget cannot be checked: agent target 't-codex' names no model, so Tutti cannot price what it uses" }],
			['codex, a priced model (date suffix stripped): goes', budget(5), launch('codex', 'gpt-known-20260101'), { kind: 'ok' }],
			['claude reports its own cost: goes whatever its model', budget(5), launch('claude', 'claude-unknown-9'), { kind: 'ok' }],
			['a command target naming an unknown model: refused', budget(5), launch('command', 'local-llm'), unpriced('t-command', 'local-llm')],
			['a command target naming no model is a plain process: goes', budget(5), launch('command', ''), { kind: 'ok' }],
			['a token budget alone never needs a price', budget(null, 1000), launch('codex', 'gpt-mystery'), { kind: 'ok' }],
			['no budget: goes', budget(null), launch('codex', 'gpt-mystery'), { kind: 'ok' }],
		];
		for (const [name, b, l, expected] of cases) {
			it(`decideLaunchBudget: ${name}`, () => { assert.deepEqual(decideLaunchBudget(b, spend(0), l, table), expected); });
		}

		it('an issue at its budget answers exceeded first, whatever the launch', () => {
			assert.deepEqual(decideLaunchBudget(budget(1), spend(1), launch('codex', 'gpt-mystery'), table), { kind: 'exceeded', message: 'budget reached: $1.00 of $1.00' });
		});

		it("the issue's standing names the first pending launch its USD budget cannot count", () => {
			const pending = [launch('claude', ''), launch('codex', 'gpt-known'), launch('codex', 'gpt-mystery')];
			assert.deepEqual(decideIssueBudget(budget(5), spend(1), pending, table), unpriced('t-codex', 'gpt-mystery'));
			assert.deepEqual(decideIssueBudget(budget(null, 10_000), spend(1), pending, table), { kind: 'ok' });
			assert.deepEqual(decideIssueBudget(budget(5), spend(1), pending.slice(0, 2), table), { kind: 'ok' });
		});
	});
});
