import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Task } from '../../../../src/core/model.js';
import { ReadyIndex, satisfiesDependency } from '../../../../src/core/graph/readyIndex.js';

function task(taskId: string, over: Partial<Task> = {}): Task {
	return {
		issueId: 'i', taskId, title: taskId, content: '', status: 'not_started', sortIndex: Number(taskId.slice(1)) || 0,
		agentTargetId: 'sh', modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '',
		dependencyTaskIds: [], parallelizable: true, autoAccept: true, acceptanceState: '', latestRunId: '',
		supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: 0, updatedAtUnixMs: 0, ...over,
	};
}

/** The obvious full recomputation the index must always agree with. */
function recompute(tasks: Map<string, Task>): string[] {
	return [...tasks.values()]
		.filter((t) => t.supersededAtUnixMs === 0 && t.status === 'not_started' && t.agentTargetId !== ''
			&& t.dependencyTaskIds.every((d) => satisfiesDependency(tasks.get(d))))
		.sort((a, b) => a.sortIndex - b.sortIndex || (a.taskId < b.taskId ? -1 : 1))
		.map((t) => t.taskId);
}

describe('ReadyIndex', () => {
	it('orders ready tasks by sortIndex and unblocks dependents only once the dependency is accepted', () => {
		const idx = new ReadyIndex([task('t1'), task('t2', { dependencyTaskIds: ['t1'] }), task('t3')]);
		assert.deepEqual(idx.next(10), ['t1', 't3']);
		idx.upsert(task('t1', { status: 'completed', acceptanceState: 'agent_claimed' }));
		assert.deepEqual(idx.next(10), ['t3'], 'claimed but not accepted does not satisfy the edge');
		idx.upsert(task('t1', { status: 'completed', acceptanceState: 'user_accepted' }));
		assert.deepEqual(idx.next(10), ['t2', 't3']);
	});

	it('failed parents never satisfy an edge; tasks without a target are not ready', () => {
		const idx = new ReadyIndex([task('t1', { status: 'failed' }), task('t2', { dependencyTaskIds: ['t1'] }), task('t3', { agentTargetId: '' })]);
		assert.deepEqual(idx.next(10), []);
	});

	it('agrees with a full recomputation under random updates', () => {
		const statuses = ['not_started', 'running', 'completed', 'failed'] as const;
		fc.assert(fc.property(
			fc.array(fc.record({ id: fc.integer({ min: 0, max: 14 }), status: fc.constantFrom(...statuses), accepted: fc.boolean(), dep: fc.integer({ min: -1, max: 14 }), superseded: fc.boolean() }), { maxLength: 60 }),
			(updates) => {
				const tasks = new Map<string, Task>();
				for (let i = 0; i < 15; i++) { tasks.set(`t${i}`, task(`t${i}`, { dependencyTaskIds: i > 0 ? [`t${i - 1}`] : [] })); }
				const idx = new ReadyIndex([...tasks.values()]);
				for (const u of updates) {
					const deps = u.dep >= 0 && u.dep < u.id ? [`t${u.dep}`] : [];
					const next = task(`t${u.id}`, { status: u.status, acceptanceState: u.accepted ? 'user_accepted' : 'agent_claimed', dependencyTaskIds: deps, supersededAtUnixMs: u.superseded ? 1 : 0 });
					tasks.set(next.taskId, next);
					idx.upsert(next);
					assert.deepEqual(idx.next(100), recompute(tasks));
				}
			},
		), { numRuns: 200 });
	});
});
