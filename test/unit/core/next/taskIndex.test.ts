// The index the attention and "owed next" rules read an issue's tasks through: live tasks by status in backlog order,
// every task by id, the tasks whose latest Run the rule may show, kept per tasks array (the Host keeps an issue's array
// while none of its tasks changes, so the board's reads do not walk the graph).
import assert from 'node:assert/strict';
import { type AttentionInput, type AttentionRun, issueAttention } from '../../../../src/core/attention/attention.js';
import type { TaskFacts } from '../../../../src/core/next/facts.js';
import { taskIndex } from '../../../../src/core/next/taskIndex.js';
import type { TaskStatus } from '../../../../src/core/model.js';

function task(taskId: string, status: TaskStatus, more: Partial<TaskFacts> = {}): TaskFacts {
	return { taskId, title: `Task ${taskId}`, status, acceptanceState: '', superseded: false, updatedAtUnixMs: 10, ...more };
}

describe('the task index of an issue\'s facts', () => {
	const tasks: readonly TaskFacts[] = [
		task('a', 'completed', { latestRunId: 'run-a', updatedAtUnixMs: 40 }),
		task('b', 'failed', { latestRunId: 'run-b' }),
		task('c', 'failed', { superseded: true, latestRunId: 'run-c', updatedAtUnixMs: 90 }),
		task('d', 'not_started'),
		task('e', 'not_started', { latestRunId: 'run-e', pendingRework: 'retry' }),
		task('f', 'failed'),
		task('g', 'pending_acceptance', { latestRunId: 'run-g' }),
	];

	it('lists the live tasks of a status in backlog order, every task by id, and where each stands', () => {
		const index = taskIndex(tasks);
		assert.deepEqual(index.withStatus('failed').map((t) => t.taskId), ['b', 'f']);
		assert.deepEqual(index.withStatus('not_started').map((t) => t.taskId), ['d', 'e']);
		assert.deepEqual(index.withStatus('running'), []);
		assert.deepEqual(index.live.map((t) => t.taskId), ['a', 'b', 'd', 'e', 'f', 'g']);
		assert.equal(index.byId.get('c')?.superseded, true, 'history stays findable by id');
		assert.deepEqual(['g', 'a', 'zz'].map((id) => index.position(id)), [6, 0, -1]);
		assert.equal(index.lastUpdatedAtUnixMs, 90);
	});

	it('names the tasks whose latest Run can be shown: one that ran and did not complete, superseded ones too', () => {
		assert.deepEqual(taskIndex(tasks).withRunShown.map((t) => t.taskId), ['b', 'c', 'e', 'g']);
	});

	it('is built once per tasks array', () => {
		assert.equal(taskIndex(tasks), taskIndex(tasks));
		assert.notEqual(taskIndex([...tasks]), taskIndex(tasks));
	});

	it('answers whether a not-started task can move without the developer\'s review, through chains of waiting tasks', () => {
		const waiting = [task('r', 'pending_acceptance'), task('x', 'not_started', { dependencyTaskIds: ['r'] }), task('y', 'not_started', { dependencyTaskIds: ['x'] })];
		assert.equal(taskIndex(waiting).notStartedCanMove(), false);
		assert.equal(taskIndex([...waiting, task('z', 'not_started', { dependencyTaskIds: ['a-done'] })]).notStartedCanMove(), true);
	});
});

describe('the attention rule reads Runs through the index', () => {
	function run(runId: string, more: Partial<AttentionRun> = {}): AttentionRun {
		return { runId, status: 'failed', outcome: 'failure', mergeConflict: false, activity: '', exitCode: 1, ...more };
	}

	it('lists the Runs that need attention in backlog order, whatever order the Host read them in, and skips superseded tasks', () => {
		const tasks = [task('t1', 'failed'), task('t2', 'not_started'), task('t3', 'pending_acceptance'), task('t4', 'failed', { superseded: true })];
		const input: AttentionInput = {
			facts: {
				issueId: 'i', issueStatus: 'open', execution: null, activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
				tasks, changeRequests: [], finishedAtUnixMs: 0, lastChangeUnixMs: 1,
			},
			dispatchPaused: false,
			latestRuns: new Map([
				['t4', run('r4')], ['t3', run('r3', { status: 'completed', outcome: 'success', exitCode: 0 })],
				['t2', run('r2', { status: 'canceled', outcome: 'cancellation', exitCode: null })], ['t1', run('r1')],
			]),
			source: null, nowUnixMs: 5,
		};
		assert.deepEqual(issueAttention(input).runs.map((r) => [r.taskId, r.kind]), [['t1', 'failed'], ['t2', 'stopped'], ['t3', 'waiting']]);
	});
});
