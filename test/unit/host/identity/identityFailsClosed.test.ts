// Identity fails closed: an execution, checkpoint or Run read back from a real store whose stored ids disagree with
// what they are derived from is refused with `identity_mismatch`, and the refused command changes nothing.
import { strict as assert } from 'node:assert';
import { DomainError } from '../../../../src/core/errors.js';
import { RunQueries } from '../../../../src/host/services/runQueries.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { sessionRepository } from '../../../../src/store/repositories/sessionRepository.js';
import type { Store } from '../../../../src/store/database.js';
import type { Row } from '../../../../src/store/tx.js';
import { PlanKit, taskSpec, user, type ManagedIssueDriver } from '../plan/planKit.js';
import { rejects, ServiceHarness } from '../services/serviceHarness.js';

/** Every row of every table, in a stable order: equal dumps = the store is unchanged. */
function dump(kit: PlanKit): Record<string, Row[]> {
	return dumpStore(kit.store);
}

function dumpStore(store: Store): Record<string, Row[]> {
	return store.read((r) => {
		const tables = r.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => String(row['name']));
		return Object.fromEntries(tables.map((table) => [table, r.all(`SELECT * FROM "${table}" ORDER BY rowid`)]));
	});
}

async function tamper(kit: PlanKit, sql: string, params: (string | number)[]): Promise<void> {
	const changed = await kit.store.transaction((tx) => tx.run(sql, params));
	assert.equal(changed, 1, `the tampering changed one row: ${sql}`);
}

async function refused(kit: PlanKit, action: () => Promise<unknown>, pattern: RegExp): Promise<void> {
	const before = dump(kit);
	await assert.rejects(action(), (e: unknown) => {
		assert.ok(e instanceof DomainError, String(e));
		assert.equal(e.reasonCode, 'identity_mismatch', e.message);
		assert.match(e.message, pattern);
		return true;
	});
	assert.deepEqual(dump(kit), before, 'the refused command changed nothing');
}

describe('identity fails closed (executions, checkpoints, Runs read back from the store)', () => {
	let kit: PlanKit;
	let issue: ManagedIssueDriver;
	beforeEach(async () => {
		kit = await PlanKit.open();
		issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
	});
	afterEach(async () => { await kit.close(); });

	it('an execution read for an issue whose id is not derived from that issue is refused', async () => {
		// Another managed issue's row now claims this issue: its executionId is not tutti-execution:<this issue>.
		const other = await kit.managedIssue();
		await kit.store.transaction((tx) => {
			issueRepository.insert(tx, {
				issueId: 'parked', title: 'Parked', content: '', status: 'open', planningSource: 'manual', sourceSessionId: '',
				dispatchPaused: false, autoAcceptDefault: true, createdAtUnixMs: 1, updatedAtUnixMs: 1,
			});
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', ['parked', issue.issueId]);
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', [issue.issueId, other.issueId]);
		});
		const fence = { checkpointId: `${other.executionId}:checkpoint:initial-schedule`, expectedGraphRevision: 0 };
		await refused(kit, () => issue.schedule(['a'], fence), /executionId is "tutti-execution:.*" but must be "tutti-execution:/);
		await refused(kit, () => issue.get(), /executionId/);
		await refused(kit, () => issue.get(user), /executionId/);
	});

	it("the developer's decision on an issue carrying another issue's execution is refused", async () => {
		await issue.schedule(['a']);
		await kit.settle(await issue.runOf('a'), 'success');
		const other = await kit.managedIssue();
		await kit.store.transaction((tx) => {
			issueRepository.insert(tx, {
				issueId: 'parked', title: 'Parked', content: '', status: 'open', planningSource: 'manual', sourceSessionId: '',
				dispatchPaused: false, autoAcceptDefault: true, createdAtUnixMs: 1, updatedAtUnixMs: 1,
			});
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', ['parked', issue.issueId]);
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', [issue.issueId, other.issueId]);
		});
		await refused(kit, () => issue.accept('a'), /executionId is ".*" but must be "tutti-execution:/);
		await refused(kit, () => issue.requestChanges('a', 'again'), /executionId/);
	});

	it('a checkpoint whose id is not the one its kind derives is refused by the fenced commands and by get', async () => {
		const fence = await issue.fence();
		await tamper(kit, "UPDATE checkpoints SET kind = 'all_tasks_terminal' WHERE checkpoint_id = ?", [fence.checkpointId]);
		await refused(kit, () => issue.schedule(['a'], fence), /checkpointId is ".*initial-schedule" but must be ".*all-tasks-terminal"/);
		await refused(kit, () => issue.mutate([{ kind: 'add', task: taskSpec('c') }], fence), /checkpointId/);
		await refused(kit, () => issue.acknowledge(fence), /checkpointId/);
		await refused(kit, () => issue.get(), /checkpointId/);
	});

	it('a Run whose stored task is not the task it is the latest Run of is refused by the developer decision', async () => {
		await issue.schedule(['a']);
		const runId = await issue.runOf('a');
		await kit.settle(runId, 'success');
		await tamper(kit, 'UPDATE runs SET task_id = ? WHERE run_id = ?', ['b', runId]);
		await refused(kit, () => issue.accept('a'), /taskId is "b" but must be "a"/);
		await refused(kit, () => issue.requestChanges('a', 'do it again'), /taskId is "b" but must be "a"/);
	});

	it('a Run that disagrees with the worker session admitted with it is refused by run get', async () => {
		await issue.schedule(['a']);
		const runId = await issue.runOf('a');
		const queries = new RunQueries({ store: kit.store, clock: kit.clock, runs: undefined as never });
		await kit.store.transaction((tx) => {
			sessionRepository.insert(tx, {
				sessionId: `worker-${runId}`, role: 'worker', issueId: issue.issueId, taskId: 'a', runId, agentTargetId: 'ok', providerSessionId: '', createdAtUnixMs: 1,
			}, 'f'.repeat(64));
		});
		assert.equal((await queries.get({ runId })).runId, runId, 'a Run that agrees with its session is shown');
		await tamper(kit, 'UPDATE agent_sessions SET task_id = ? WHERE session_id = ?', ['b', `worker-${runId}`]);
		await refused(kit, () => queries.get({ runId }), /taskId is "a" but must be "b"/);
	});

	it('an untampered store passes every check (the same commands succeed)', async () => {
		await issue.schedule(['a']);
		const runId = await issue.runOf('a');
		await kit.settle(runId, 'success');
		assert.equal((await issue.accept('a')).taskStatus, 'completed');
		assert.equal(kit.store.read((r) => issueRepository.get(r, issue.issueId))?.issueId, issue.issueId);
	});
});

describe('identity fails closed in the bounded waits, agent resume, Finish and follow-up', () => {
	let h: ServiceHarness;
	beforeEach(async () => { h = await ServiceHarness.open({ realPlan: true }); });
	afterEach(async () => { await h.close(); });

	it('a tampered active checkpoint is refused by plan issue await, await-review, next-action and agent resume, and nothing changes', async () => {
		const source = await h.session('source');
		const created = await h.call('plan/create', { title: 'Goal', content: 'x', requestId: 'c1' }, source.caller);
		assert.equal(created.executionId, `tutti-execution:${created.issueId}`, 'the real plan service derives the execution id');
		const waits = [
			() => h.call('await/checkpoint', { issueId: created.issueId, waitMs: 1 }, source.caller),
			() => h.call('await/review', { issueId: created.issueId, waitMs: 1 }, source.caller),
			() => h.call('await/next-action', { issueId: created.issueId, waitMs: 1 }, source.caller),
			() => h.call('agent/resume', {}, source.caller),
		];
		for (const wait of waits) { assert.equal((await wait()).ok, true, 'an untampered store answers'); }
		const changed = await h.store.transaction((tx) => tx.run("UPDATE checkpoints SET kind = 'watchdog' WHERE status = 'active'"));
		assert.equal(changed, 1);
		for (const wait of waits) {
			const before = dumpStore(h.store);
			const e = await rejects(wait(), 'identity_mismatch');
			assert.match(e.message, /checkpointId is ".*initial-schedule" but must be ".*watchdog:1"/);
			assert.deepEqual(dumpStore(h.store), before);
		}
	});

	it("an issue carrying another issue's execution is refused by the developer's Finish and follow-up, and nothing changes", async () => {
		const source = await h.session('source');
		const mine = await h.call('plan/create', { title: 'Mine', content: 'x', requestId: 'c1' }, source.caller);
		const other = await h.call('plan/create', { title: 'Other', content: 'y', requestId: 'c2' }, source.caller);
		await h.store.transaction((tx) => {
			issueRepository.insert(tx, {
				issueId: 'parked', title: 'Parked', content: '', status: 'open', planningSource: 'manual', sourceSessionId: '',
				dispatchPaused: false, autoAcceptDefault: true, createdAtUnixMs: 1, updatedAtUnixMs: 1,
			});
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', ['parked', mine.issueId]);
			tx.run('UPDATE executions SET issue_id = ? WHERE issue_id = ?', [mine.issueId, other.issueId]);
		});
		for (const action of [
			() => h.call('issue/finish', { issueId: mine.issueId }),
			() => h.call('issue/followUp', { issueId: mine.issueId, text: 'next' }),
		]) {
			const before = dumpStore(h.store);
			const e = await rejects(action(), 'identity_mismatch');
			assert.match(e.message, new RegExp(`executionId is "${other.executionId}" but must be "${mine.executionId}"`));
			assert.deepEqual(dumpStore(h.store), before);
		}
	});
});
