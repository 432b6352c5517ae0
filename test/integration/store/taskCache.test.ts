// The Host's kept view of an issue's tasks (Store.readWithTasks) answers what a read of every row answers: the same
// ready ids in the same order, the same count and the same task fields, after random writes (status, acceptance,
// dependency changes, supersessions, deletes), after a batch too large to apply row by row, and after the store is
// reopened from its journal.
import assert from 'node:assert/strict';
import { readyTaskIds } from '../../../src/core/graph/blockers.js';
import { Store } from '../../../src/store/database.js';
import { taskRepository } from '../../../src/store/repositories/taskRepository.js';
import { tempStoreDir, type TempStoreDir } from '../../unit/store/storeTestKit.js';
import { countIssues, randomTaskWrite, seededRandom } from './taskCountsWorkload.js';

function assertViewEqualsRows(store: Store, where: string): void {
	store.readWithTasks((r, tasks) => {
		for (const issueId of countIssues) {
			const rows = taskRepository.listByIssue(r, issueId);
			const view = tasks(issueId);
			const expected = readyTaskIds(rows);
			assert.deepEqual(view.ready.next(expected.length + 5), expected, `${where}: ready ids of ${issueId}`);
			assert.equal(view.ready.count, expected.length, `${where}: ready count of ${issueId}`);
			assert.equal(view.revision, taskRepository.taskRevision(r, issueId), `${where}: revision of ${issueId}`);
			assert.deepEqual(view.ordered().map((t) => [t.taskId, t.status, t.acceptanceState, t.supersededAtUnixMs, t.dependencyTaskIds.join(','), t.title, t.latestRunId]),
				rows.map((t) => [t.taskId, t.status, t.acceptanceState, t.supersededAtUnixMs, t.dependencyTaskIds.join(','), t.title, t.latestRunId]), `${where}: tasks of ${issueId}`);
		}
	});
}

describe('the kept view of an issue\'s tasks', function () {
	this.timeout(120_000);
	let temp: TempStoreDir;
	beforeEach(() => { temp = tempStoreDir(); });
	afterEach(() => { temp.cleanup(); });

	it('equals a read of every row after each of 300 random transactions, a large batch, and a reopen', async () => {
		let store = await Store.open({ dir: temp.dir });
		try {
			const rand = seededRandom(42);
			for (let n = 0; n < 300; n++) {
				await store.transaction((tx) => { for (let i = 0; i < 1 + Math.floor(rand() * 3); i++) { randomTaskWrite(tx, rand, `t${n}-${i}`); } });
				assertViewEqualsRows(store, `after transaction ${n}`);
			}
			await store.transaction((tx) => { for (let i = 0; i < 900; i++) { randomTaskWrite(tx, rand, `batch-${i}`); } });
			assertViewEqualsRows(store, 'after a batch of 900 writes');
			await store.close();
			store = await Store.open({ dir: temp.dir });
			assertViewEqualsRows(store, 'after a reopen');
			await store.transaction((tx) => { randomTaskWrite(tx, rand, 'after-reopen'); });
			assertViewEqualsRows(store, 'after a write on the reopened store');
		} finally {
			await store.close();
		}
	});
});
