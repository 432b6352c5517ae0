import { strict as assert } from 'node:assert';
import { allowedActions, canAcknowledge, type AllowedActionsInput } from '../../../../src/core/execution/allowedActions.js';
import { checkpointKinds, executionStatuses, terminalExecutionStatuses } from '../../../../src/core/model.js';
import type { CheckpointKind, ExecutionStatus } from '../../../../src/core/model.js';

function input(kind: CheckpointKind | null, over: Partial<AllowedActionsInput> & { status?: ExecutionStatus } = {}): AllowedActionsInput {
	const { status, ...rest } = over;
	return {
		execution: { status: status ?? (kind === 'initial_schedule' ? 'awaiting_schedule' : kind === 'all_tasks_terminal' ? 'pending_goal_review' : 'awaiting_main') },
		activeCheckpoint: kind ? { kind, status: 'active' } : null,
		hasRunningRun: false, hasPendingCheckpoint: false, anyTaskReady: true, dispatchPaused: false, ...rest,
	};
}

describe('core/execution/allowedActions', () => {
	it('initial_schedule: mutate, schedule (only if some task is ready), stop — never acknowledge', () => {
		assert.deepEqual(allowedActions(input('initial_schedule')), ['mutate', 'schedule', 'stop']);
		assert.deepEqual(allowedActions(input('initial_schedule', { anyTaskReady: false })), ['mutate', 'stop']);
		assert.deepEqual(allowedActions(input('initial_schedule', { hasRunningRun: true, hasPendingCheckpoint: true })), ['mutate', 'schedule', 'stop']);
	});

	for (const kind of ['task_settled', 'task_failed', 'task_canceled', 'watchdog'] as const) {
		it(`${kind}: work actions, plus acknowledge only with a running Run or a later pending checkpoint`, () => {
			assert.deepEqual(allowedActions(input(kind)), ['mutate', 'schedule', 'stop']);
			assert.deepEqual(allowedActions(input(kind, { hasRunningRun: true })), ['mutate', 'schedule', 'stop', 'acknowledge']);
			assert.deepEqual(allowedActions(input(kind, { hasPendingCheckpoint: true, anyTaskReady: false })), ['mutate', 'stop', 'acknowledge']);
		});
	}

	it('all_tasks_terminal at Goal Review: complete, mutate, stop — never acknowledge', () => {
		assert.deepEqual(allowedActions(input('all_tasks_terminal', { hasRunningRun: true, hasPendingCheckpoint: true, anyTaskReady: false })), ['complete', 'mutate', 'stop']);
		assert.deepEqual(allowedActions(input('all_tasks_terminal', { anyTaskReady: true })), ['complete', 'mutate', 'stop'], 'schedule does not pass its fence in pending_goal_review');
	});

	it('all_tasks_terminal after a mutation at Goal Review (awaiting_main) also offers schedule for the new ready work', () => {
		assert.deepEqual(allowedActions(input('all_tasks_terminal', { status: 'awaiting_main' })), ['complete', 'mutate', 'schedule', 'stop']);
	});

	it('terminal execution statuses allow nothing, paused or not', () => {
		for (const status of terminalExecutionStatuses) {
			for (const kind of checkpointKinds) {
				assert.deepEqual(allowedActions(input(kind, { status, dispatchPaused: true, hasRunningRun: true })), [], `${status}/${kind}`);
			}
		}
	});

	it('no active checkpoint (Runs in progress) allows nothing', () => {
		assert.deepEqual(allowedActions(input(null, { status: 'running', hasRunningRun: true })), []);
		assert.deepEqual(allowedActions({ ...input('task_settled'), activeCheckpoint: { kind: 'task_settled', status: 'pending' } }), []);
	});

	it('paused: schedule is removed and resume appended, for every live state (also without an active checkpoint)', () => {
		assert.deepEqual(allowedActions(input('initial_schedule', { dispatchPaused: true })), ['mutate', 'stop', 'resume']);
		assert.deepEqual(allowedActions(input('task_settled', { dispatchPaused: true, hasRunningRun: true })), ['mutate', 'stop', 'acknowledge', 'resume']);
		assert.deepEqual(allowedActions(input('all_tasks_terminal', { dispatchPaused: true })), ['complete', 'mutate', 'stop', 'resume']);
		assert.deepEqual(allowedActions(input(null, { status: 'running', dispatchPaused: true })), ['resume']);
		for (const status of executionStatuses.filter((s) => !terminalExecutionStatuses.includes(s))) {
			for (const kind of checkpointKinds) {
				const actions = allowedActions(input(kind, { status, dispatchPaused: true }));
				assert.ok(!actions.includes('schedule') && actions.at(-1) === 'resume', `${status}/${kind}: ${actions.join(',')}`);
			}
		}
	});

	it('canAcknowledge: only active settlement/watchdog checkpoints, never at Goal Review or in a terminal execution', () => {
		const base = { hasRunningRun: true, hasPendingCheckpoint: false };
		assert.equal(canAcknowledge({ ...base, execution: { status: 'awaiting_main' }, activeCheckpoint: { kind: 'task_failed', status: 'active' } }), true);
		assert.equal(canAcknowledge({ ...base, execution: { status: 'pending_goal_review' }, activeCheckpoint: { kind: 'task_settled', status: 'active' } }), false);
		assert.equal(canAcknowledge({ ...base, execution: { status: 'archived' }, activeCheckpoint: { kind: 'task_settled', status: 'active' } }), false);
		assert.equal(canAcknowledge({ ...base, execution: { status: 'awaiting_main' }, activeCheckpoint: { kind: 'initial_schedule', status: 'active' } }), false);
		assert.equal(canAcknowledge({ ...base, execution: { status: 'awaiting_main' }, activeCheckpoint: { kind: 'all_tasks_terminal', status: 'active' } }), false);
		assert.equal(canAcknowledge({ ...base, execution: { status: 'awaiting_main' }, activeCheckpoint: null }), false);
		assert.equal(canAcknowledge({ hasRunningRun: false, hasPendingCheckpoint: false, execution: { status: 'awaiting_main' }, activeCheckpoint: { kind: 'task_settled', status: 'active' } }), false,
			'the stranded state of the troubleshooting doc: no running work and no later checkpoint');
	});
});
