import { strict as assert } from 'node:assert';
import { bigGraph, dagreLayout, type GraphLayout, layoutGraph, type LayoutInput, layoutKey, type PositionedNode } from '../../../webview/issuePanel/layout.js';
import { layeredLayout } from '../../../webview/issuePanel/layeredLayout.js';
import { LayoutCache } from '../../../webview/issuePanel/renderPanel.js';
import { aLayeredGraph } from './builders.js';

function inputFor(n: number): LayoutInput {
	const tasks = aLayeredGraph(n);
	return {
		nodes: tasks.map((t) => ({ id: t.taskId })),
		edges: tasks.flatMap((t) => t.dependencyTaskIds.map((d) => ({ from: d, to: t.taskId }))),
	};
}

function overlaps(a: PositionedNode, b: PositionedNode): boolean {
	return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function checkLayout(input: LayoutInput, l: GraphLayout): void {
	assert.equal(l.nodes.length, new Set(input.nodes.map((n) => n.id)).size, 'one position per node');
	const byId = new Map(l.nodes.map((n) => [n.id, n]));
	for (const n of l.nodes) {
		for (const v of [n.x, n.y, n.width, n.height]) { assert.ok(Number.isFinite(v), `finite position for ${n.id}`); }
		assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= l.width && n.y + n.height <= l.height, `${n.id} inside the drawing`);
	}
	// Nodes of one rank share a column (left-to-right layout): no two boxes in a column may overlap. Sorting by y
	// within each column makes this linear; a full pairwise check across columns follows for smaller graphs.
	const columns = new Map<number, PositionedNode[]>();
	for (const n of l.nodes) { columns.set(Math.round(n.x), [...(columns.get(Math.round(n.x)) ?? []), n]); }
	for (const col of columns.values()) {
		col.sort((a, b) => a.y - b.y);
		for (let i = 1; i < col.length; i++) {
			assert.ok(col[i]!.y >= col[i - 1]!.y + col[i - 1]!.height, `${col[i - 1]!.id} and ${col[i]!.id} overlap in their rank`);
		}
	}
	if (l.nodes.length <= 200) {
		for (let i = 0; i < l.nodes.length; i++) {
			for (let j = i + 1; j < l.nodes.length; j++) { assert.ok(!overlaps(l.nodes[i]!, l.nodes[j]!), `${l.nodes[i]!.id} overlaps ${l.nodes[j]!.id}`); }
		}
	}
	for (const e of l.edges) {
		assert.ok(e.points.length >= 2, `edge ${e.from}→${e.to} has a path`);
		for (const p of e.points) { assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y)); }
		assert.ok(byId.get(e.from)!.x < byId.get(e.to)!.x, `dependency ${e.from} is left of ${e.to}`);
	}
}

describe('panel graph layout (dagre up to a few hundred tasks, the layered layout above)', () => {
	for (const [name, lay, sizes] of [['dagre', dagreLayout, [1, 50, 200]], ['layered', layeredLayout, [1, 50, 200, 1000, 3000]]] as const) {
		for (const n of sizes) {
			it(`${name}: lays out ${n} task${n === 1 ? '' : 's'}: finite positions, no overlaps in a rank, dependencies left to right`, function () {
				this.timeout(120_000);
				const input = inputFor(n);
				const l = lay(input);
				checkLayout(input, l);
				assert.equal(l.edges.length, new Set(input.edges.map((e) => `${e.from}>${e.to}`)).size);
			});
		}
	}

	it('uses dagre up to the big-graph size and the layered layout above it', () => {
		const small = inputFor(bigGraph);
		const big = inputFor(bigGraph + 1);
		assert.deepEqual(layoutGraph(small), dagreLayout(small));
		assert.deepEqual(layoutGraph(big), layeredLayout(big));
		assert.notDeepEqual(layeredLayout(small).nodes, dagreLayout(small).nodes, 'the two layouts differ, so the check above can fail');
	});

	it('layered: puts every edge\'s ends on the facing sides of its nodes', () => {
		const input = inputFor(120);
		const l = layeredLayout(input);
		const byId = new Map(l.nodes.map((n) => [n.id, n]));
		for (const e of l.edges) {
			const a = byId.get(e.from)!;
			const b = byId.get(e.to)!;
			assert.deepEqual(e.points[0], { x: a.x + a.width, y: a.y + a.height / 2 });
			assert.deepEqual(e.points[e.points.length - 1], { x: b.x, y: b.y + b.height / 2 });
		}
	});

	it('is deterministic', () => {
		const input = inputFor(60);
		assert.deepEqual(layoutGraph(input), layoutGraph(input));
		assert.deepEqual(layeredLayout(input), layeredLayout(input));
	});

	it('lays out an empty graph as nothing', () => {
		const l = layoutGraph({ nodes: [], edges: [] });
		assert.deepEqual([l.nodes.length, l.edges.length, l.width, l.height], [0, 0, 0, 0]);
	});

	it('ignores self edges, duplicate edges and edges to unknown nodes', () => {
		const l = layoutGraph({
			nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a' }],
			edges: [{ from: 'a', to: 'a' }, { from: 'a', to: 'b' }, { from: 'a', to: 'b' }, { from: 'ghost', to: 'b' }],
		});
		assert.equal(l.nodes.length, 2);
		assert.deepEqual(l.edges.map((e) => `${e.from}>${e.to}`), ['a>b']);
	});

	it('survives a cycle (history edges can close one) with finite positions', () => {
		const input = { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'b' }, { from: 'c', to: 'd' }] };
		for (const l of [dagreLayout(input), layeredLayout(input)]) {
			assert.equal(l.nodes.length, 4);
			for (const n of l.nodes) { assert.ok(Number.isFinite(n.x) && Number.isFinite(n.y)); }
			for (const e of l.edges) { for (const p of e.points) { assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y)); } }
		}
	});

	it('layered: ignores self edges, duplicate edges and edges to unknown nodes', () => {
		const l = layeredLayout({
			nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a' }],
			edges: [{ from: 'a', to: 'a' }, { from: 'a', to: 'b' }, { from: 'a', to: 'b' }, { from: 'ghost', to: 'b' }],
		});
		assert.deepEqual(l.nodes.map((n) => n.id), ['a', 'b']);
		assert.deepEqual(l.edges.map((e) => `${e.from}>${e.to}`), ['a>b']);
	});

	it('keys layouts by shape, and the cache reuses a layout while the shape is unchanged', () => {
		const a = inputFor(20);
		const b = { ...a, edges: a.edges.slice(1) };
		assert.notEqual(layoutKey(a), layoutKey(b));
		const cache = new LayoutCache();
		const first = cache.layout(a);
		assert.equal(cache.layout({ nodes: [...a.nodes], edges: [...a.edges] }), first);
		assert.notEqual(cache.layout(b), first);
	});
});
