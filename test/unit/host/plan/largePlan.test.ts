// Plans of any size: a 5,000-task plan applies in one mutate; one operation more is refused as malformed,
// with nothing changed.
import * as assert from 'node:assert/strict';
import { PlanKit, rejects, taskSpec } from './planKit.js';

describe('plan issue mutate: a whole large plan in one request', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	const adds = (n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => ({
		kind: 'add', task: taskSpec(`t${i}`, { dependencyTaskIds: i % 10 === 0 ? [] : [`t${i - 1}`] }),
	}));

	it('applies 5,000 operations at once and refuses 5,001', async () => {
		const issue = await kit.managedIssue();
		await rejects(issue.mutate(adds(5001)), 'invalid_mutation_operation', /malformed/);
		assert.equal(issue.execution().graphRevision, 1, 'nothing changed');
		const result = await issue.mutate(adds(5000));
		assert.equal(result.addedTaskIds.length, 5000);
		assert.equal(result.graphRevision, 2);
	});
});
