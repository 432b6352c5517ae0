import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { detectCycle } from '../../../../src/core/graph/cycles.js';

const t = (taskId: string, ...dependencyTaskIds: string[]): { taskId: string; dependencyTaskIds: string[] } => ({ taskId, dependencyTaskIds });

/** Naive reference: a graph is cyclic iff repeatedly removing tasks with no remaining in-graph deps leaves some. */
function cyclicByPeeling(tasks: { taskId: string; dependencyTaskIds: string[] }[]): boolean {
	const ids = new Set(tasks.map((x) => x.taskId));
	let left = tasks.map((x) => ({ id: x.taskId, deps: x.dependencyTaskIds.filter((d) => ids.has(d)) }));
	for (;;) {
		const remaining = new Set(left.map((x) => x.id));
		const next = left.filter((x) => x.deps.some((d) => remaining.has(d)));
		if (next.length === left.length) { return next.length > 0; }
		left = next;
	}
}

describe('core/graph/cycles', () => {
	it('returns null for an acyclic graph (diamonds included) and ignores edges to unknown ids', () => {
		assert.equal(detectCycle([t('a'), t('b', 'a'), t('c', 'a'), t('d', 'b', 'c', 'zz')]), null);
		assert.equal(detectCycle([]), null);
	});

	it('reports a self-dependency as [a, a]', () => {
		assert.deepEqual(detectCycle([t('a', 'a')]), ['a', 'a']);
	});

	it('reports the closing path of a longer cycle', () => {
		assert.deepEqual(detectCycle([t('a', 'c'), t('b', 'a'), t('c', 'b')]), ['a', 'c', 'b', 'a']);
	});

	it('handles a 100k-long chain without recursion', () => {
		const tasks = Array.from({ length: 100_000 }, (_, i) => t(`t${i}`, ...(i > 0 ? [`t${i - 1}`] : [])));
		assert.equal(detectCycle(tasks), null);
		tasks[0] = t('t0', 't99999');
		assert.equal(detectCycle(tasks)?.length, 100_001);
	});

	it('agrees with a naive reference on random graphs, and every reported path is a real cycle', () => {
		fc.assert(fc.property(
			fc.array(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }), { minLength: 1, maxLength: 8 }),
			(edges) => {
				const tasks = edges.map((deps, i) => t(`n${i}`, ...deps.map((d) => `n${d}`)));
				const cycle = detectCycle(tasks);
				assert.equal(cycle !== null, cyclicByPeeling(tasks));
				if (cycle) {
					assert.equal(cycle[0], cycle[cycle.length - 1]);
					const byId = new Map(tasks.map((x) => [x.taskId, x]));
					for (let i = 0; i + 1 < cycle.length; i++) { assert.ok(byId.get(cycle[i]!)!.dependencyTaskIds.includes(cycle[i + 1]!)); }
				}
			},
		));
	});
});
