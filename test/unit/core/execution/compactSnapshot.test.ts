// Which tasks the compact snapshot shows and how much of each: precedence, each task once, the caps.
import * as assert from 'node:assert/strict';
import { clipDependencies, clipTitle, selectCompactTasks } from '../../../../src/core/execution/compactSnapshot.js';

describe('compact snapshot selection', () => {
	it('puts the subject first, then running, changed and ready tasks, each once', () => {
		const selection = selectCompactTasks({ subjectTaskId: 's', runningTaskIds: ['r1', 's'], changedTaskIds: ['c1', 'r1'], readyTaskIds: ['a', 'c1', 'b'] });
		assert.deepEqual(selection, { taskIds: ['s', 'r1', 'c1', 'a', 'b'], omittedTaskCount: 0 });
	});

	it('keeps at most the limit and counts what it left out', () => {
		const selection = selectCompactTasks({ subjectTaskId: '', runningTaskIds: ['r1', 'r2'], changedTaskIds: ['c1'], readyTaskIds: ['a', 'b', 'r1'], limit: 3 });
		assert.deepEqual(selection, { taskIds: ['r1', 'r2', 'c1'], omittedTaskCount: 2 });
	});

	it('caps 50 tasks by default', () => {
		const ready = Array.from({ length: 70 }, (_, i) => `t${i}`);
		const selection = selectCompactTasks({ subjectTaskId: '', runningTaskIds: [], changedTaskIds: [], readyTaskIds: ready });
		assert.equal(selection.taskIds.length, 50);
		assert.equal(selection.taskIds[49], 't49');
		assert.equal(selection.omittedTaskCount, 20);
	});

	it('cuts titles past 160 characters with … and dependency lists past 20 ids', () => {
		assert.equal(clipTitle('short'), 'short');
		const long = clipTitle('x'.repeat(300));
		assert.equal(long.length, 160);
		assert.ok(long.endsWith('x…'));
		assert.equal(clipTitle('y'.repeat(160)), 'y'.repeat(160));
		const deps = Array.from({ length: 25 }, (_, i) => `d${i}`);
		assert.deepEqual(clipDependencies(deps), { dependencyTaskIds: deps.slice(0, 20), more: 5 });
		assert.deepEqual(clipDependencies(['a']), { dependencyTaskIds: ['a'], more: 0 });
	});
});
