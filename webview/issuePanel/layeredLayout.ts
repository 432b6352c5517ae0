// A layered (Sugiyama-style) left-to-right layout in linear time per pass, for graphs too big for dagre to lay out
// quickly: rank = longest path from a root, a few barycenter sweeps to order each column, then each node placed at
// the mean height of its neighbours without overlapping the one above it. Edges are drawn from a node's right side
// to the dependent's left side with two bends. Pure and deterministic; cycles (malformed data) still get finite
// positions.
import { cleanInput, type GraphLayout, type LayoutInput, layoutKey, layoutSpacing, nodeHeight, nodeWidth, type Point, type PositionedEdge, type PositionedNode } from './layout.js';

const sweeps = 4;

export function layeredLayout(input: LayoutInput): GraphLayout {
	const key = layoutKey(input);
	const { ids, edges } = cleanInput(input);
	if (ids.length === 0) { return { key, nodes: [], edges: [], width: 0, height: 0 }; }
	const { margin, nodesep, ranksep } = layoutSpacing;
	const index = new Map(ids.map((id, i) => [id, i]));
	const preds: number[][] = ids.map(() => []);
	const succs: number[][] = ids.map(() => []);
	for (const e of edges) {
		const from = index.get(e.from)!;
		const to = index.get(e.to)!;
		succs[from]!.push(to);
		preds[to]!.push(from);
	}

	// Ranks by Kahn's algorithm (longest path); nodes left in a cycle rank after their ranked predecessors.
	const rank = new Array<number>(ids.length).fill(0);
	const indegree = preds.map((p) => p.length);
	const queue: number[] = [];
	for (let i = 0; i < ids.length; i++) { if (indegree[i] === 0) { queue.push(i); } }
	const done = new Array<boolean>(ids.length).fill(false);
	for (let q = 0; q < queue.length; q++) {
		const v = queue[q]!;
		done[v] = true;
		for (const w of succs[v]!) {
			rank[w] = Math.max(rank[w]!, rank[v]! + 1);
			if (--indegree[w]! === 0) { queue.push(w); }
		}
	}
	for (let i = 0; i < ids.length; i++) {
		if (!done[i]) { rank[i] = 1 + Math.max(0, ...preds[i]!.filter((p) => done[p]).map((p) => rank[p]!)); }
	}
	const layers: number[][] = [];
	for (let i = 0; i < ids.length; i++) { (layers[rank[i]!] ??= []).push(i); }
	for (let r = 0; r < layers.length; r++) { layers[r] ??= []; }

	// Order each column by the barycenter of its neighbours' positions, sweeping right then left.
	const pos = new Array<number>(ids.length).fill(0);
	const setPositions = (layer: readonly number[]): void => { layer.forEach((v, i) => { pos[v] = i; }); };
	layers.forEach(setPositions);
	const reorder = (layer: number[], neighbours: readonly (readonly number[])[]): void => {
		const key = new Map<number, number>();
		for (const v of layer) {
			const ns = neighbours[v]!;
			key.set(v, ns.length === 0 ? pos[v]! : ns.reduce((sum, n) => sum + pos[n]!, 0) / ns.length);
		}
		layer.sort((a, b) => key.get(a)! - key.get(b)! || pos[a]! - pos[b]!);
		setPositions(layer);
	};
	for (let s = 0; s < sweeps; s++) {
		if (s % 2 === 0) { for (let r = 1; r < layers.length; r++) { reorder(layers[r]!, preds); } }
		else { for (let r = layers.length - 2; r >= 0; r--) { reorder(layers[r]!, succs); } }
	}

	// Heights: each node at the mean centre of its placed predecessors, pushed down to clear the one above it.
	const step = nodeHeight + nodesep;
	const y = new Array<number>(ids.length).fill(0);
	for (const layer of layers) {
		let floor = margin;
		for (const v of layer) {
			const placed = preds[v]!.filter((p) => rank[p]! < rank[v]!);
			const wanted = placed.length === 0 ? floor : placed.reduce((sum, p) => sum + y[p]!, 0) / placed.length;
			y[v] = Math.max(floor, wanted);
			floor = y[v]! + step;
		}
	}
	const nodes: PositionedNode[] = ids.map((id, i) => ({ id, x: margin + rank[i]! * (nodeWidth + ranksep), y: y[i]!, width: nodeWidth, height: nodeHeight }));
	const positioned: PositionedEdge[] = edges.map((e) => {
		const a = nodes[index.get(e.from)!]!;
		const b = nodes[index.get(e.to)!]!;
		const start: Point = { x: a.x + a.width, y: a.y + a.height / 2 };
		const end: Point = { x: b.x, y: b.y + b.height / 2 };
		const bend = Math.min(ranksep / 2, Math.abs(end.x - start.x) / 2);
		return { from: e.from, to: e.to, points: [start, { x: start.x + bend, y: start.y }, { x: end.x - bend, y: end.y }, end] };
	});
	const width = Math.max(...nodes.map((n) => n.x + n.width)) + margin;
	const height = Math.max(...nodes.map((n) => n.y + n.height)) + margin;
	return { key, nodes, edges: positioned, width: Math.ceil(width), height: Math.ceil(height) };
}
