import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
	blockerFor, computeReadiness, dependencySatisfied, projectedAcceptedTaskId, readyTaskIds,
} from '../../../../src/core/graph/blockers.js';
import { satisfiesDependency } from '../../../../src/core/graph/readyIndex.js';
import { acceptanceStates, taskStatuses } from '../../../../src/core/model.js';
import type { Task } from '../../../../src/core/model.js';
import { checkpoint, done, task } from '../builders.js';

const blockers = (tasks: Task[], opts = {}): Record<string, string> =>
	Object.fromEntries([...computeReadiness(tasks, opts)].map(([id, r]) => [id, r.blockerReason]));

describe('core/graph/blockers', () => {
	it('a not-started task with a target and no dependencies is ready', () => {
		assert.deepEqual(computeReadiness([task('a')]).get('a'), { ready: true, blockerReason: '' });
	});

	it('checks superseded → not started → target → dependencies, in that order', () => {
		assert.equal(blockerFor(task('a', { supersededAtUnixMs: 5, status: 'failed', agentTargetId: '' }), new Map()), 'task_superseded');
		assert.equal(blockerFor(task('a', { status: 'failed', agentTargetId: '' }), new Map()), 'task_not_started');
		assert.equal(blockerFor(task('a', { agentTargetId: '  ', dependencyTaskIds: ['zz'] }), new Map()), 'missing_agent_target');
		assert.equal(blockerFor(task('a', { dependencyTaskIds: ['zz'] }), new Map()), 'dependency_unsatisfied');
	});

	it('every non-not_started status blocks with task_not_started', () => {
		for (const status of taskStatuses.filter((s) => s !== 'not_started')) {
			assert.equal(blockers([task('a', { status })]).a, 'task_not_started', status);
		}
	});

	describe('a dependency satisfies an edge only when completed and accepted', () => {
		const cases: [string, Partial<Task> | null, boolean][] = [
			['missing', null, false],
			['superseded (even if completed and accepted)', { status: 'completed', acceptanceState: 'user_accepted', supersededAtUnixMs: 9 }, false],
			['not started', { status: 'not_started' }, false],
			['running', { status: 'running' }, false],
			['pending acceptance', { status: 'pending_acceptance', acceptanceState: 'agent_claimed' }, false],
			['failed (failed parents never satisfy an edge)', { status: 'failed' }, false],
			['canceled', { status: 'canceled' }, false],
			['completed but only claimed by the agent', { status: 'completed', acceptanceState: 'agent_claimed' }, false],
			['completed without acceptance', { status: 'completed', acceptanceState: '' }, false],
			['completed and auto-checked (autoAccept task)', { status: 'completed', acceptanceState: 'auto_checked', autoAccept: true }, true],
			['completed and accepted by the user (autoAccept=false task)', { status: 'completed', acceptanceState: 'user_accepted', autoAccept: false }, true],
		];
		for (const [name, dep, satisfied] of cases) {
			it(name, () => {
				const tasks = [task('b', { dependencyTaskIds: ['a'] }), ...(dep ? [task('a', dep)] : [])];
				assert.equal(blockers(tasks).b, satisfied ? '' : 'dependency_unsatisfied');
			});
		}
	});

	it('needs every dependency satisfied', () => {
		assert.equal(blockers([done('a'), task('b', { status: 'failed' }), task('c', { dependencyTaskIds: ['a', 'b'] })]).c, 'dependency_unsatisfied');
		assert.equal(blockers([done('a'), done('b'), task('c', { dependencyTaskIds: ['a', 'b'] })]).c, '');
	});

	it('projects the active task_settled subject (pending_acceptance) as accepted for its dependents only', () => {
		const tasks = [task('a', { status: 'pending_acceptance', acceptanceState: 'agent_claimed' }), task('b', { dependencyTaskIds: ['a'] })];
		assert.equal(blockers(tasks).b, 'dependency_unsatisfied');
		const projected = blockers(tasks, { projectAcceptedTaskId: 'a' });
		assert.equal(projected.b, '');
		assert.equal(projected.a, 'task_not_started', 'the subject itself still reads as not schedulable');
		assert.equal(tasks[0]!.status, 'pending_acceptance', 'nothing is mutated');
		const failedSubject = [task('a', { status: 'failed' }), task('b', { dependencyTaskIds: ['a'] })];
		assert.equal(blockers(failedSubject, { projectAcceptedTaskId: 'a' }).b, 'dependency_unsatisfied', 'only pending_acceptance is projected');
	});

	it('projectedAcceptedTaskId: the subject of an active task_settled checkpoint only', () => {
		assert.equal(projectedAcceptedTaskId(checkpoint({ kind: 'task_settled', subjectTaskId: 'T1' })), 'T1');
		assert.equal(projectedAcceptedTaskId(checkpoint({ kind: 'task_failed', subjectTaskId: 'T1' })), undefined);
		assert.equal(projectedAcceptedTaskId(checkpoint({ kind: 'task_settled', status: 'pending' })), undefined);
		assert.equal(projectedAcceptedTaskId(null), undefined);
	});

	it('readyTaskIds: active ready tasks ordered by sortIndex then taskId', () => {
		const tasks = [
			task('z', { sortIndex: 1 }), task('b', { sortIndex: 2 }), task('a', { sortIndex: 2 }), task('x', { sortIndex: 0, supersededAtUnixMs: 3 }),
			task('y', { sortIndex: 0, status: 'running' }), task('w', { sortIndex: -1, dependencyTaskIds: ['y'] }),
		];
		assert.deepEqual(readyTaskIds(tasks), ['z', 'a', 'b']);
		assert.deepEqual(readyTaskIds([task('a', { sortIndex: 1 }), task('b', { sortIndex: 2 })]), ['a', 'b']);
	});

	it('manual and managed readiness and the incremental ReadyIndex use the same dependency rule', () => {
		for (const status of taskStatuses) {
			for (const acceptanceState of acceptanceStates) {
				for (const supersededAtUnixMs of [0, 1]) {
					const dep = task('a', { status, acceptanceState, supersededAtUnixMs });
					assert.equal(dependencySatisfied(dep), satisfiesDependency(dep), `${status}/${acceptanceState}/${supersededAtUnixMs}`);
				}
			}
		}
	});

	it('agrees with a naive per-task recomputation on random graphs', () => {
		const arbTask = fc.record({
			status: fc.constantFrom(...taskStatuses), acceptance: fc.constantFrom(...acceptanceStates), superseded: fc.boolean(),
			target: fc.boolean(), deps: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }), sortIndex: fc.integer({ min: 0, max: 3 }),
		});
		fc.assert(fc.property(fc.array(arbTask, { maxLength: 10 }), (specs) => {
			const tasks = specs.map((s, i) => task(`t${i}`, {
				status: s.status, acceptanceState: s.acceptance, supersededAtUnixMs: s.superseded ? 1 : 0, agentTargetId: s.target ? 'sh' : '',
				dependencyTaskIds: s.deps.map((d) => `t${d}`), sortIndex: s.sortIndex,
			}));
			const expected = tasks.filter((x) => x.supersededAtUnixMs === 0 && x.status === 'not_started' && x.agentTargetId !== ''
				&& x.dependencyTaskIds.every((d) => {
					const dep = tasks.find((y) => y.taskId === d);
					return dep !== undefined && dep.supersededAtUnixMs === 0 && dep.status === 'completed'
						&& (dep.acceptanceState === 'user_accepted' || dep.acceptanceState === 'auto_checked');
				}))
				.sort((p, q) => p.sortIndex - q.sortIndex || (p.taskId < q.taskId ? -1 : 1)).map((x) => x.taskId);
			assert.deepEqual(readyTaskIds(tasks), expected);
			const readiness = computeReadiness(tasks);
			assert.deepEqual([...readiness].filter(([, r]) => r.ready).map(([id]) => id).sort(), [...expected].sort());
			for (const [, r] of readiness) { assert.equal(r.ready, r.blockerReason === ''); }
		}));
	});
});
