// What the board and the panel draw but must not re-derive is derived by the Host and sent in its DTOs: an issue's
// execution status, whether it is terminal and which controls apply (issue/list, issue/get), every task's readiness
// and blocker (issue/get), and the active wake's marker (plan/get). Real Host services over a real Store.
import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { WakeKit } from '../wakes/wakeKit.js';

const noControls = { pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, integrate: false };

describe('host: the fields the UIs draw (issue/list, issue/get, plan/get)', () => {
	let k: WakeKit;
	beforeEach(async () => { k = await WakeKit.open(); });
	afterEach(async () => { await k.close(); });

	it('a manual issue: no execution, its controls, and every task with its readiness and blocker', async () => {
		const { issueId } = await k.call('issue/create', { title: 'Manual' });
		await k.call('issue/pause', { issueId }); // nothing is dispatched while the test reads
		await k.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'w' });
		await k.call('task/add', { issueId, taskId: 'b', title: 'B', agentTargetId: 'w', dependencyTaskIds: ['a'] });
		await k.call('task/add', { issueId, taskId: 'c', title: 'C' });
		const got = await k.call('issue/get', { issueId });
		assert.deepEqual(got.tasks.map((t) => [t.taskId, t.ready, t.blockerReason]), [
			['a', true, ''], ['b', false, 'dependency_unsatisfied'], ['c', false, 'missing_agent_target'],
		]);
		assert.equal(got.executionStatus, null);
		assert.equal(got.terminal, false);
		assert.deepEqual(got.controls, { pause: false, resume: true, stop: false, confirmGoal: false, requestGoalChanges: false, integrate: false });
		const listed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.deepEqual(listed.controls, got.controls, 'issue/list sends the same controls');
	});

	it('a managed issue awaiting its first schedule: its execution status, Pause and Stop', async () => {
		const { issueId } = await k.managedQuiet('Goal');
		const listed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.equal(listed.executionStatus, 'awaiting_schedule');
		assert.equal(listed.terminal, false);
		assert.deepEqual(listed.controls, { pause: true, resume: false, stop: true, confirmGoal: false, requestGoalChanges: false, integrate: false });
	});

	it('an issue whose source session is gone is terminal: no Pause, no Stop, no review, wherever it is read', async () => {
		const { issueId } = await k.managedQuiet('Orphan');
		await k.store.transaction((tx) => {
			const execution = executionRepository.getByIssue(tx, issueId)!;
			executionRepository.update(tx, { ...execution, status: 'orphaned_source' });
		});
		const listed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.equal(listed.executionStatus, 'orphaned_source');
		assert.equal(listed.terminal, true);
		assert.deepEqual(listed.controls, noControls);
		const got = await k.call('issue/get', { issueId });
		assert.deepEqual([got.terminal, got.controls], [true, noControls]);
	});

	it('plan/get: the active wake carries the marker the Host read from its prompt, and the body without it', async () => {
		const { issueId } = await k.managedQuiet('Marked');
		const plan = await k.call('plan/get', { issueId });
		const wake = plan.activeWake!;
		assert.deepEqual(wake.marker, { kind: 'initial_schedule', graphRevision: plan.activeCheckpoint!.graphRevision });
		assert.ok(wake.prompt.startsWith('<!-- TUTTI_MODE_CHECKPOINT_WAKE '), 'the prompt stays verbatim');
		assert.ok(!wake.body.includes('TUTTI_MODE_CHECKPOINT_WAKE'), wake.body.slice(0, 200));
		assert.ok(wake.body.length > 0 && wake.prompt.endsWith(wake.body));
	});
});
