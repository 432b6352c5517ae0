// The Host's kept view of an issue's tasks (Store.readWithTasks) answers what a read of every row answers: the same
// ready ids in the same order, the same count and the same task fields, after random writes (status, acceptance,
// dependency changes, supersessions, deletes), after a batch too large to apply row by row, and after the store is
// reopened from its journal.
import assert from 'node:assert/strict';
import { readyTaskIds } from '../../../src/core/graph/blockers.js';
import { Store } from '../../../src/store/database.js';
import { reworkRepository } from '../../../src/store/repositories/reworkRepository.js';
import { issueFactsRepository } from '../../../src/store/repositories/issueFactsRepository.js';
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
			// The facts the attention and "owed next" rules read, from the view (kept between reads) and from the rows.
			assert.deepEqual(issueFactsRepository.ofIssue(r, issueId, tasks), issueFactsRepository.ofIssue(r, issueId), `${where}: facts of ${issueId}`);
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

	it('keeps an issue\'s facts tasks (one array) while other issues change, and reads them again when one of its tasks or pending attempts changes', async () => {
		const store = await Store.open({ dir: temp.dir });
		try {
			const rand = seededRandom(7);
			await store.transaction((tx) => { for (let i = 0; i < 60; i++) { randomTaskWrite(tx, rand, `seed-${i}`); } });
			const factsTasks = (issueId: string): readonly unknown[] => store.readWithTasks((r, tasks) => issueFactsRepository.ofIssue(r, issueId, tasks)!.tasks);
			const [ia, ib] = countIssues as [string, string];
			const before = factsTasks(ia);
			await store.transaction((tx) => { tx.run("UPDATE tasks SET title = 'renamed' WHERE issue_id = ? AND rowid = (SELECT min(rowid) FROM tasks WHERE issue_id = ?)", [ib, ib]); });
			assert.equal(factsTasks(ia), before, 'a write to another issue keeps the array (so its index is kept too)');
			const task = store.read((r) => taskRepository.listByIssue(r, ia).find((t) => t.supersededAtUnixMs === 0))!;
			await store.transaction((tx) => { taskRepository.update(tx, { ...task, status: 'not_started', title: 'Changed', updatedAtUnixMs: task.updatedAtUnixMs + 1 }); });
			const changed = factsTasks(ia) as { taskId: string; title: string; pendingRework?: string }[];
			assert.notEqual(changed, before);
			assert.equal(changed.find((t) => t.taskId === task.taskId)?.title, 'Changed');
			await store.transaction((tx) => {
				tx.run("UPDATE task_reworks SET run_id = 'bound-elsewhere' WHERE issue_id = ? AND task_id = ? AND run_id = ''", [ia, task.taskId]);
				reworkRepository.insert(tx, {
					reworkId: 'pending-one', issueId: ia, taskId: task.taskId, kind: 'retry', attempt: 2, note: '', fromRunId: '', runId: '', requestedAtUnixMs: 5,
					mergeInto: '', mergeCommit: '', mergeSources: [], priorAcceptedCommit: '', priorAcceptanceState: '',
				});
			});
			const asked = factsTasks(ia) as { taskId: string; pendingRework?: string }[];
			assert.equal(asked.find((t) => t.taskId === task.taskId)?.pendingRework, 'retry', 'a new pending attempt (no task row changed) is read');
			assertViewEqualsRows(store, 'after the pending attempt');
		} finally {
			await store.close();
		}
	});
});
