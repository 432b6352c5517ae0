// When an issue's recorded spend reached its budget: the recording of the Turn that crossed it, or the moment a
// budget was set at or below what was spent; null while within it.
import assert from 'node:assert/strict';
import type { IssueBudget } from '../../../../src/core/usage/budget.js';
import { Store } from '../../../../src/store/database.js';
import { usageRepository } from '../../../../src/store/repositories/usageRepository.js';
import { insertIssue, tempStoreDir, type TempStoreDir } from '../storeTestKit.js';

describe('usageRepository.reachedAt', () => {
	let tmp: TempStoreDir;
	let store: Store;
	beforeEach(async () => {
		tmp = tempStoreDir();
		store = await Store.open({ dir: tmp.dir });
		await store.transaction((tx) => { insertIssue(tx, 'iss_1'); });
	});
	afterEach(async () => { await store.close(); tmp.cleanup(); });

	/** A Turn of iss_1 recorded at `at`: $`usd` (null: no known price) and `tokens` input tokens. */
	const turn = (processId: string, at: number, usd: number | null, tokens = 100) => store.transaction((tx) => usageRepository.record(tx, {
		processId, issueId: 'iss_1', runId: '', role: 'worker', model: 'm', usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
		costUsd: usd, costSource: usd === null ? 'unknown' : 'agent', recordedAtUnixMs: at,
	}));
	const setBudget = (budget: IssueBudget, at: number) => store.transaction((tx) => { usageRepository.setBudget(tx, 'iss_1', budget, at); });
	const reachedAt = () => store.read((r) => usageRepository.reachedAt(r, 'iss_1', usageRepository.budget(r, 'iss_1')));

	it('is the recording of the Turn whose cost crossed the USD budget, unpriced Turns counting nothing', async () => {
		await setBudget({ budgetUsd: 1, budgetTokens: null }, 10);
		assert.equal(reachedAt(), null, 'nothing spent');
		await turn('t1', 100, 0.6);
		await turn('t2', 200, null);
		assert.equal(reachedAt(), null, '$0.60 of $1');
		await turn('t3', 300, 0.4);
		await turn('t4', 400, 0.6);
		assert.equal(reachedAt(), 300, '$1.00 of $1 at t3');
	});

	it('a raised budget is reached again later; one lowered below the spend is reached when it was set', async () => {
		await setBudget({ budgetUsd: 1, budgetTokens: null }, 10);
		await turn('t1', 100, 0.6);
		await turn('t2', 200, 0.6);
		assert.equal(reachedAt(), 200);
		await setBudget({ budgetUsd: 2, budgetTokens: null }, 250);
		assert.equal(reachedAt(), null, '$1.20 of $2');
		await turn('t3', 300, 0.6);
		await turn('t4', 400, 0.6);
		assert.equal(reachedAt(), 400, '$2.40 of $2 at t4');
		await setBudget({ budgetUsd: 0.5, budgetTokens: null }, 500);
		assert.equal(reachedAt(), 500, 'set below what was spent at 500');
		await setBudget({ budgetUsd: 0, budgetTokens: null }, 600);
		assert.equal(reachedAt(), 600, 'a budget of $0 is reached as it is set');
	});

	it('counts tokens for a token budget, and the earlier of the two budgets', async () => {
		await setBudget({ budgetUsd: null, budgetTokens: 250 }, 10);
		await turn('t1', 100, null, 100);
		await turn('t2', 200, null, 100);
		assert.equal(reachedAt(), null);
		await turn('t3', 300, null, 100);
		assert.equal(reachedAt(), 300);
		await setBudget({ budgetUsd: 0.1, budgetTokens: 250 }, 20);
		await turn('t0', 50, 0.2, 0);
		assert.equal(reachedAt(), 50, 'the USD budget was reached first');
		await setBudget({ budgetUsd: null, budgetTokens: null }, 30);
		assert.equal(reachedAt(), null, 'no budget: never reached');
	});
});
