// When the developer's review is the only step owed on a managed execution (src/core/execution/reviewOwed.ts): the
// rule behind "what next" for the source agent, the watchdog's skip and the decision's immediate wake.
import { strict as assert } from 'node:assert';
import { type ReviewOwedInput, reviewOnlyOwed, reviewToAwait } from '../../../../src/core/execution/reviewOwed.js';

type T = ReviewOwedInput['tasks'][number];
const t = (taskId: string, status: T['status'], dependencyTaskIds: string[] = [], superseded = false): T => ({ taskId, status, dependencyTaskIds, superseded });

function input(extra: Partial<ReviewOwedInput> = {}): ReviewOwedInput {
	return {
		executionStatus: 'awaiting_main',
		activeCheckpoint: { kind: 'task_settled', subjectTaskId: 'a' },
		hasPendingCheckpoint: false,
		tasks: [t('a', 'pending_acceptance'), t('b', 'not_started', ['a'])],
		...extra,
	};
}

describe('the developer\'s review is the only step owed', () => {
	it('holds at the settled checkpoint of a task in review whose dependent waits on it', () => {
		assert.deepEqual(reviewOnlyOwed(input()), ['a']);
		assert.equal(reviewToAwait(input(), ['a']), 'a');
	});

	it('holds transitively, with no checkpoint active, at a watchdog or a task_accepted checkpoint', () => {
		const tasks = [t('a', 'pending_acceptance'), t('b', 'not_started', ['a']), t('c', 'not_started', ['b']), t('d', 'completed')];
		assert.deepEqual(reviewOnlyOwed(input({ tasks, activeCheckpoint: null, executionStatus: 'running' })), ['a']);
		assert.deepEqual(reviewOnlyOwed(input({ tasks, activeCheckpoint: { kind: 'watchdog', subjectTaskId: '' } })), ['a']);
		assert.deepEqual(reviewOnlyOwed(input({ tasks, activeCheckpoint: { kind: 'task_accepted', subjectTaskId: 'd' } })), ['a']);
	});

	it('names every task in review; the task to await is the checkpoint\'s subject, else the only one, else none', () => {
		const tasks = [t('a', 'pending_acceptance'), t('x', 'pending_acceptance'), t('b', 'not_started', ['a', 'x'])];
		const both = input({ tasks, activeCheckpoint: { kind: 'task_settled', subjectTaskId: 'x' } });
		assert.deepEqual(reviewOnlyOwed(both), ['a', 'x']);
		assert.equal(reviewToAwait(both, ['a', 'x']), 'x');
		assert.equal(reviewToAwait({ ...both, activeCheckpoint: null }, ['a', 'x']), undefined);
		assert.equal(reviewToAwait({ ...both, activeCheckpoint: null }, ['a']), 'a');
	});

	it('does not hold while the source agent or a Run can still move', () => {
		const cases: [string, ReviewOwedInput][] = [
			['a task is ready to schedule', input({ tasks: [t('a', 'pending_acceptance'), t('c', 'not_started')] })],
			['a dependent waits on a failed task (a rework is the agent\'s)', input({ tasks: [t('a', 'pending_acceptance'), t('f', 'failed'), t('b', 'not_started', ['f'])] })],
			['a dependent names a task that does not exist', input({ tasks: [t('a', 'pending_acceptance'), t('b', 'not_started', ['gone'])] })],
			['a Run is running', input({ tasks: [t('a', 'pending_acceptance'), t('r', 'running'), t('b', 'not_started', ['a'])] })],
			['a later checkpoint is pending', input({ hasPendingCheckpoint: true })],
			['the active checkpoint asks for a rework', input({ activeCheckpoint: { kind: 'task_failed', subjectTaskId: 'f' } })],
			['the active checkpoint carries a request for changes', input({ activeCheckpoint: { kind: 'changes_requested', subjectTaskId: 'a' } })],
			['Goal Review', input({ activeCheckpoint: { kind: 'all_tasks_terminal', subjectTaskId: '' }, executionStatus: 'pending_goal_review' })],
			['initial scheduling', input({ activeCheckpoint: { kind: 'initial_schedule', subjectTaskId: '' }, executionStatus: 'awaiting_schedule' })],
			['the execution was archived', input({ executionStatus: 'archived' })],
			['no task is in review', input({ tasks: [t('a', 'completed'), t('b', 'running', ['a'])] })],
			['the only task in review is superseded', input({ tasks: [t('a', 'pending_acceptance', [], true), t('b', 'not_started', ['a'])] })],
		];
		for (const [why, c] of cases) { assert.deepEqual(reviewOnlyOwed(c), [], why); }
	});

	it('a superseded dependent, a failed leaf and completed tasks do not keep the agent owing', () => {
		const tasks = [t('a', 'pending_acceptance'), t('old', 'not_started', ['f'], true), t('f', 'failed'), t('done', 'completed'), t('b', 'not_started', ['a', 'done'])];
		assert.deepEqual(reviewOnlyOwed(input({ tasks })), ['a']);
	});
});
