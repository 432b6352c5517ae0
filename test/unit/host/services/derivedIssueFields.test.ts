// What the board and the panel draw but must not re-derive is derived by the Host and sent in its DTOs: an issue's
// execution status, whether it is terminal and which controls apply (issue/list, issue/get), every task's readiness,
// blocker, superseded flag and controls (issue/get, plan/get), and the active wake's marker (plan/get). Real Host
// services over a real Store.
import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { task } from '../../core/builders.js';
import { WakeKit } from '../wakes/wakeKit.js';

const none = { pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, reviewTask: false, integrate: false };
const noControls = { ...none, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false };

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
		// Paused before its first Run: Start (not Resume), and Add Task.
		assert.deepEqual(got.controls, { ...noControls, start: true, addTask: true });
		const listed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.deepEqual(listed.controls, got.controls, 'issue/list sends the same controls');
	});

	it('a manual issue\'s not-started tasks can be edited, and deleted unless an active task depends on them; a managed plan\'s cannot', async () => {
		const { issueId } = await k.call('issue/create', { title: 'Editable', dispatchPaused: true });
		await k.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'w' });
		await k.call('task/add', { issueId, taskId: 'b', title: 'B', agentTargetId: 'w', dependencyTaskIds: ['a'] });
		await k.store.transaction((tx) => taskRepository.insert(tx, task('ran', { issueId, status: 'failed', sortIndex: 2 })));
		const editDelete = async (of: string): Promise<unknown> => (await k.call('issue/get', { issueId: of })).tasks.map((t) => [t.taskId, t.controls.edit, t.controls.delete]);
		assert.deepEqual(await editDelete(issueId), [['a', true, false], ['b', true, true], ['ran', false, false]]);
		await k.call('task/delete', { issueId, taskId: 'b' });
		assert.deepEqual(await editDelete(issueId), [['a', true, true], ['ran', false, false]], 'once b is gone, nothing depends on a');
		const managed = await k.managedQuiet('Planned');
		await k.store.transaction((tx) => taskRepository.insert(tx, task('todo', { issueId: managed.issueId, status: 'not_started' })));
		assert.deepEqual((await k.call('issue/get', { issueId: managed.issueId })).tasks.map((t) => [t.controls.edit, t.controls.delete]), [[false, false]]);
	});

	it('task/add without an id names the task after its title, unique in the whole workspace', async () => {
		const first = await k.call('issue/create', { title: 'One', dispatchPaused: true });
		const second = await k.call('issue/create', { title: 'Two', dispatchPaused: true });
		const added = [
			await k.call('task/add', { issueId: first.issueId, title: 'Write the tests' }),
			await k.call('task/add', { issueId: first.issueId, title: 'Write the tests!' }),
			await k.call('task/add', { issueId: second.issueId, title: 'write THE tests' }),
			await k.call('task/add', { issueId: second.issueId, title: 'Écrire la doc' }),
		];
		assert.deepEqual(added.map((t) => t.taskId), ['write-the-tests', 'write-the-tests-2', 'write-the-tests-3', 'ecrire-la-doc']);
	});

	it('a managed issue awaiting its first schedule: its execution status, Pause and Stop', async () => {
		const { issueId } = await k.managedQuiet('Goal');
		const listed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.equal(listed.executionStatus, 'awaiting_schedule');
		assert.equal(listed.terminal, false);
		assert.deepEqual(listed.controls, { ...noControls, pause: true, stop: true, stopSource: true });
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

	it('every task carries the Host\'s controls: Accept and Request changes while it awaits the developer, also after its source session is gone', async () => {
		const { issueId } = await k.managedQuiet('Review');
		await k.store.transaction((tx) => {
			taskRepository.insert(tx, task('done', { issueId, status: 'pending_acceptance', sortIndex: 0 }));
			taskRepository.insert(tx, task('todo', { issueId, status: 'not_started', sortIndex: 1 }));
		});
		const review = { accept: true, requestChanges: true, openChanges: false, retry: false, updateFromBase: false, edit: false, delete: false };
		const nothing = { accept: false, requestChanges: false, openChanges: false, retry: false, updateFromBase: false, edit: false, delete: false };
		const controlsOf = async (): Promise<unknown> => {
			const got = await k.call('issue/get', { issueId });
			const plan = await k.call('plan/get', { issueId });
			assert.deepEqual(plan.tasks.map((t) => [t.taskId, t.superseded, t.controls]), got.tasks.map((t) => [t.taskId, t.superseded, t.controls]), 'plan/get sends the same');
			return [got.controls.reviewTask, got.tasks.map((t) => [t.taskId, t.controls])];
		};
		assert.deepEqual(await controlsOf(), [true, [['done', review], ['todo', nothing]]]);
		await k.store.transaction((tx) => {
			executionRepository.update(tx, { ...executionRepository.getByIssue(tx, issueId)!, status: 'orphaned_source' });
		});
		assert.deepEqual(await controlsOf(), [true, [['done', review], ['todo', nothing]]], 'a gone source session leaves the results to the developer');
		await k.store.transaction((tx) => {
			executionRepository.update(tx, { ...executionRepository.getByIssue(tx, issueId)!, status: 'archived' });
		});
		assert.deepEqual(await controlsOf(), [false, [['done', nothing], ['todo', nothing]]], 'nothing awaits the developer once archived');
	});

	it('plan/get: a superseded task is history: superseded, with no controls, and issue/get leaves it out', async () => {
		const { issueId } = await k.managedQuiet('History');
		await k.store.transaction((tx) => taskRepository.insert(tx, task('old', { issueId, status: 'pending_acceptance', supersededAtUnixMs: 5 })));
		const plan = await k.call('plan/get', { issueId });
		assert.deepEqual(plan.tasks.map((t) => [t.taskId, t.superseded, t.controls]), [['old', true, { accept: false, requestChanges: false, openChanges: false, retry: false, updateFromBase: false, edit: false, delete: false }]]);
		assert.deepEqual((await k.call('issue/get', { issueId })).tasks, []);
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

	it('issue/create with dispatchPaused: a manual issue held back until Start; Start resumes dispatch and leaves Pause', async () => {
		const created = await k.call('issue/create', { title: 'Draft', dispatchPaused: true });
		assert.equal(created.dispatchPaused, true);
		assert.deepEqual(created.controls, { ...noControls, start: true, addTask: true }, 'an empty draft offers Add Task and Start');
		await k.call('task/add', { issueId: created.issueId, taskId: 'a', title: 'A' });
		const draft = await k.call('issue/get', { issueId: created.issueId });
		assert.deepEqual(draft.controls, { ...noControls, start: true, addTask: true });
		assert.deepEqual([draft.attention.state, draft.attention.label, draft.tasks[0]?.attention?.label], ['not_started', 'Not started', 'Not started'],
			'held back before its first Run: not started, not paused');
		const started = await k.call('issue/resume', { issueId: created.issueId });
		assert.deepEqual([started.dispatchPaused, started.controls.start, started.controls.pause], [false, false, true]);
		assert.notEqual(started.attention.state, 'not_started');
	});

	it('a completed managed issue offers Finish and Follow Up until Finish is recorded; independent review offers Switch to self', async () => {
		const { issueId } = await k.managedQuiet('Done');
		await k.store.transaction((tx) => {
			const execution = executionRepository.getByIssue(tx, issueId)!;
			executionRepository.update(tx, { ...execution, reviewMode: 'independent' });
		});
		const independent = (await k.call('issue/get', { issueId })).controls;
		assert.deepEqual([independent.switchReviewToSelf, independent.stopSource], [true, true]);
		await k.store.transaction((tx) => {
			const execution = executionRepository.getByIssue(tx, issueId)!;
			executionRepository.update(tx, { ...execution, status: 'completed' });
		});
		const completed = (await k.call('issue/list', {})).issues.find((i) => i.issueId === issueId)!;
		assert.deepEqual(completed.controls, { ...noControls, finish: true, followUp: true });
		await k.call('issue/finish', { issueId });
		assert.deepEqual((await k.call('issue/get', { issueId })).controls, noControls);
	});
});
