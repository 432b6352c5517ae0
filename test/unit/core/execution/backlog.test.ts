import { strict as assert } from 'node:assert';
import {
	hasLaterPending, nextSequence, oldestPending, promoteOldestPending, settlementKindFor, settlementSuppressed,
	shouldCreateTerminalCheckpoint, staleTerminalCheckpointIds, terminalCheckpointAction,
} from '../../../../src/core/execution/backlog.js';
import { checkpointStatuses, executionStatuses, terminalExecutionStatuses } from '../../../../src/core/model.js';
import { checkpoint, run, task } from '../builders.js';

const cp = (sequence: number, status: 'pending' | 'active' | 'resolved' | 'superseded' | 'canceled', over = {}): ReturnType<typeof checkpoint> =>
	checkpoint({ checkpointId: `c${sequence}`, sequence, status, ...over });

describe('core/execution/backlog', () => {
	it('nextSequence is max + 1 (never reuses a sequence, whatever the statuses)', () => {
		assert.equal(nextSequence([]), 1);
		assert.equal(nextSequence([cp(1, 'resolved'), cp(4, 'superseded'), cp(2, 'pending')]), 5);
	});

	it('oldestPending promotes by lowest sequence, ignoring other statuses', () => {
		assert.equal(oldestPending([cp(5, 'pending'), cp(3, 'pending'), cp(1, 'resolved'), cp(2, 'superseded')])?.checkpointId, 'c3');
		assert.equal(oldestPending([cp(1, 'active'), cp(2, 'resolved')]), null);
	});

	it('hasLaterPending: a pending checkpoint after the active one', () => {
		assert.equal(hasLaterPending([cp(2, 'active'), cp(3, 'pending')], cp(2, 'active')), true);
		assert.equal(hasLaterPending([cp(2, 'active'), cp(3, 'resolved')], cp(2, 'active')), false);
		assert.equal(hasLaterPending([cp(3, 'pending')], null), true);
	});

	it('promoteOldestPending rebinds the promoted checkpoint to the current revision (both promotion paths use it)', () => {
		const promoted = promoteOldestPending([cp(4, 'pending', { graphRevision: 2 }), cp(3, 'pending', { graphRevision: 2 }), cp(2, 'resolved')], 5, 777);
		assert.equal(promoted?.checkpointId, 'c3');
		assert.equal(promoted?.status, 'active');
		assert.equal(promoted?.graphRevision, 5, 'never left on the revision it was queued at');
		assert.equal(promoted?.updatedAtUnixMs, 777);
		assert.equal(promoteOldestPending([cp(1, 'resolved')], 5, 777), null);
	});

	it('settlementKindFor maps run status or outcome to the checkpoint kind', () => {
		assert.equal(settlementKindFor('completed'), 'task_settled');
		assert.equal(settlementKindFor('pending_acceptance'), 'task_settled');
		assert.equal(settlementKindFor('success'), 'task_settled');
		assert.equal(settlementKindFor('failed'), 'task_failed');
		assert.equal(settlementKindFor('failure'), 'task_failed');
		assert.equal(settlementKindFor('canceled'), 'task_canceled');
		assert.equal(settlementKindFor('cancellation'), 'task_canceled');
		assert.equal(settlementKindFor('running'), null);
		assert.equal(settlementKindFor('not_started'), null);
	});

	it('settlement is suppressed exactly in terminal executions', () => {
		for (const status of executionStatuses) { assert.equal(settlementSuppressed(status), terminalExecutionStatuses.includes(status), status); }
	});

	describe('shouldCreateTerminalCheckpoint', () => {
		const settledCp = (runId: string, kind: 'task_settled' | 'task_failed' | 'task_canceled' = 'task_settled'): ReturnType<typeof checkpoint> =>
			checkpoint({ kind, subjectRunId: runId });

		it('holds when no active task is not_started or running and every settled Run has its settlement checkpoint', () => {
			assert.equal(shouldCreateTerminalCheckpoint({
				tasks: [task('a', { status: 'completed' }), task('b', { status: 'failed' }), task('c', { status: 'pending_acceptance' }), task('old', { status: 'running', supersededAtUnixMs: 1 })],
				runs: [run('R1', { status: 'completed' }), run('R2', { status: 'failed' }), run('R3', { status: 'canceled' })],
				checkpoints: [settledCp('R1'), settledCp('R2', 'task_failed'), settledCp('R3', 'task_canceled')],
			}), true);
		});

		it('not while an active task is not_started or running', () => {
			for (const status of ['not_started', 'running'] as const) {
				assert.equal(shouldCreateTerminalCheckpoint({ tasks: [task('a', { status: 'completed' }), task('b', { status })], runs: [], checkpoints: [] }), false, status);
			}
		});

		it('not while a settled Run has no settlement checkpoint yet (parallel settlement in flight)', () => {
			assert.equal(shouldCreateTerminalCheckpoint({
				tasks: [task('a', { status: 'completed' }), task('b', { status: 'failed' })],
				runs: [run('R1', { status: 'completed' }), run('R2', { status: 'failed' })],
				checkpoints: [settledCp('R1')],
			}), false);
			assert.equal(shouldCreateTerminalCheckpoint({
				tasks: [task('a', { status: 'completed' })], runs: [run('R1', { status: 'completed' })],
				checkpoints: [checkpoint({ kind: 'watchdog', subjectRunId: 'R1' })],
			}), false, 'only settlement kinds count');
		});

		it('not for an empty active graph; running Runs do not need a checkpoint', () => {
			assert.equal(shouldCreateTerminalCheckpoint({ tasks: [task('a', { supersededAtUnixMs: 1, status: 'failed' })], runs: [], checkpoints: [] }), false);
			assert.equal(shouldCreateTerminalCheckpoint({ tasks: [task('a', { status: 'failed' })], runs: [run('R9', { status: 'running' })], checkpoints: [] }), true);
		});
	});

	describe('terminalCheckpointAction (the singleton and its rearm)', () => {
		it('creates when none exists', () => {
			assert.equal(terminalCheckpointAction(undefined), 'create');
			assert.equal(terminalCheckpointAction(null), 'create');
		});

		it('rearms a superseded singleton (a rework made it stale) — fix #1918', () => {
			assert.equal(terminalCheckpointAction({ status: 'superseded' }), 'rearm');
		});

		it('rearms a resolved singleton in a live execution (follow-up work was scheduled from Goal Review)', () => {
			assert.equal(terminalCheckpointAction({ status: 'resolved' }, 'awaiting_main'), 'rearm');
		});

		it('leaves a pending/active one (already queued or current) and a canceled one alone', () => {
			assert.equal(terminalCheckpointAction({ status: 'pending' }), 'none');
			assert.equal(terminalCheckpointAction({ status: 'active' }), 'none');
			assert.equal(terminalCheckpointAction({ status: 'canceled' }), 'none');
		});

		it('never acts in a terminal execution', () => {
			for (const status of terminalExecutionStatuses) {
				for (const s of checkpointStatuses) { assert.equal(terminalCheckpointAction({ status: s }, status), 'none'); }
				assert.equal(terminalCheckpointAction(undefined, status), 'none');
			}
		});
	});

	it('staleTerminalCheckpointIds: pending terminal checkpoints on an older revision are superseded by a mutation', () => {
		const list = [
			checkpoint({ checkpointId: 'T', kind: 'all_tasks_terminal', status: 'pending', graphRevision: 3 }),
			checkpoint({ checkpointId: 'A', kind: 'all_tasks_terminal', status: 'active', graphRevision: 3 }),
			checkpoint({ checkpointId: 'S', kind: 'task_settled', status: 'pending', graphRevision: 3 }),
		];
		assert.deepEqual(staleTerminalCheckpointIds(list, 4), ['T']);
		assert.deepEqual(staleTerminalCheckpointIds(list, 3), []);
	});
});
