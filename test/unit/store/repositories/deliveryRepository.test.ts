// Code delivery facts in the real schema: a Run's base and result recorded once, acceptance bound to a commit,
// an issue's base recorded once and its integration.
import assert from 'node:assert/strict';
import { Store } from '../../../../src/store/database.js';
import { deliveryRepository } from '../../../../src/store/repositories/deliveryRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { insertIssue, insertTask, tempStoreDir, type TempStoreDir } from '../storeTestKit.js';

describe('deliveryRepository', () => {
	let tmp: TempStoreDir;
	let store: Store;
	beforeEach(async () => {
		tmp = tempStoreDir();
		store = await Store.open({ dir: tmp.dir });
		await store.transaction((tx) => {
			insertIssue(tx, 'iss_1');
			insertTask(tx, 'iss_1', 'a');
			runRepository.insert(tx, {
				runId: 'run_1', issueId: 'iss_1', taskId: 'a', agentTargetId: 'sh', agentSessionId: '', status: 'running', outcome: null,
				usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, summary: '', errorMessage: '',
				exitCode: null, outputDir: '', executionDirectory: '.', createdAtUnixMs: 1, startedAtUnixMs: 0, completedAtUnixMs: 0, updatedAtUnixMs: 1,
			});
		});
	});
	afterEach(async () => { await store.close(); tmp.cleanup(); });

	const files = [{ path: 'a.txt', added: 2, deleted: 0, binary: false }];

	it("records a Run's base once and its result once (a second result is refused, nothing overwritten)", async () => {
		await store.transaction((tx) => {
			deliveryRepository.recordRunBase(tx, 'run_1', true, 'base1');
			deliveryRepository.recordRunBase(tx, 'run_1', true, 'other');
		});
		assert.deepEqual(store.read((r) => deliveryRepository.runsAwaitingResult(r)).map((c) => c.runId), ['run_1']);
		const first = await store.transaction((tx) => deliveryRepository.recordRunResult(tx, 'run_1', 'res1', files, 5, ['HEAD', 'refs/heads/main']));
		const second = await store.transaction((tx) => deliveryRepository.recordRunResult(tx, 'run_1', 'res2', [], 6));
		assert.equal(first, true);
		assert.equal(second, false);
		assert.deepEqual(store.read((r) => deliveryRepository.runCommits(r, 'run_1')), {
			runId: 'run_1', inWorktree: true, baseCommit: 'base1', resultCommit: 'res1', changedFiles: files, resultRecordedAtUnixMs: 5,
			outsideChanges: ['HEAD', 'refs/heads/main'],
		});
		assert.deepEqual(store.read((r) => deliveryRepository.runsAwaitingResult(r)), []);
	});

	it('binds acceptance to a commit and forgets it when reopened', async () => {
		await store.transaction((tx) => { deliveryRepository.setAcceptedCommit(tx, 'iss_1', 'a', 'c1', 7); });
		assert.equal(store.read((r) => deliveryRepository.acceptedCommit(r, 'iss_1', 'a')), 'c1');
		assert.deepEqual([...store.read((r) => deliveryRepository.acceptedCommitsOfIssue(r, 'iss_1'))], [['a', 'c1']]);
		await store.transaction((tx) => { deliveryRepository.clearAcceptedCommit(tx, 'iss_1', 'a'); });
		assert.equal(store.read((r) => deliveryRepository.acceptedCommit(r, 'iss_1', 'a')), '');
	});

	it("keeps the issue's first base and records its integration", async () => {
		await store.transaction((tx) => {
			deliveryRepository.recordIssueBase(tx, 'iss_1', 'b1', 'main');
			deliveryRepository.recordIssueBase(tx, 'iss_1', 'b2', 'other');
			deliveryRepository.recordIntegration(tx, 'iss_1', 'i1', 'main', 9, { previousCommit: '', squash: 'none', taskCommits: {}, checks: 'skipped' });
		});
		assert.deepEqual(store.read((r) => deliveryRepository.issueDelivery(r, 'iss_1')), {
			issueId: 'iss_1', baseCommit: 'b1', baseBranch: 'main', integratedCommit: 'i1', integratedInto: 'main', integratedAtUnixMs: 9, integratedChecks: 'skipped',
		});
	});
});
