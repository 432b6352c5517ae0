// The task graph's layout, left to right (dependencies flow rightwards; siblings stack in a column, which scrolls
// naturally): dagre up to `bigGraph` nodes; above it our linear-time layered layout (layeredLayout.ts), because
// dagre's ordering and positioning take seconds at 1,000 tasks (bench/RESULTS.md). Pure and deterministic; the panel
// caches it by graph shape so status changes skip it.
import { graphlib, layout } from '@dagrejs/dagre';
import { layeredLayout } from './layeredLayout.js';

export const nodeWidth = 200;
export const nodeHeight = 40;
const margin = 16;
/** Above this many nodes the layered layout replaces dagre. */
export const bigGraph = 300;
export const layoutSpacing = { margin, nodesep: 12, ranksep: 56 } as const;

export interface LayoutInput {
	readonly nodes: readonly { readonly id: string }[];
	readonly edges: readonly { readonly from: string; readonly to: string }[];
}

export interface Point {
	readonly x: number;
	readonly y: number;
}

export interface PositionedNode {
	readonly id: string;
	/** Top-left corner. */
	readonly x: number;
	readonly y: number;
	readonly width: number;
	readonly height: number;
}

export interface PositionedEdge {
	readonly from: string;
	readonly to: string;
	readonly points: readonly Point[];
}

export interface GraphLayout {
	readonly key: string;
	readonly nodes: readonly PositionedNode[];
	readonly edges: readonly PositionedEdge[];
	readonly width: number;
	readonly height: number;
}

/** Identifies the graph's shape: same key, same layout. */
export function layoutKey(input: LayoutInput): string {
	return `${input.nodes.map((n) => n.id).join('\u0001')}\u0002${input.edges.map((e) => `${e.from}\u0003${e.to}`).join('\u0001')}`;
}

function finite(n: number | undefined): number {
	return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** The nodes once each and the edges once each, without self edges or edges to unknown nodes. */
export function cleanInput(input: LayoutInput): { ids: string[]; edges: { from: string; to: string }[] } {
	const ids = [...new Set(input.nodes.map((n) => n.id))];
	const known = new Set(ids);
	const seen = new Set<string>();
	const edges: { from: string; to: string }[] = [];
	for (const e of input.edges) {
		const k = `${e.from}\u0003${e.to}`;
		if (e.from === e.to || !known.has(e.from) || !known.has(e.to) || seen.has(k)) { continue; }
		seen.add(k);
		edges.push({ from: e.from, to: e.to });
	}
	return { ids, edges };
}

export function layoutGraph(input: LayoutInput): GraphLayout {
	if (new Set(input.nodes.map((n) => n.id)).size > bigGraph) { return layeredLayout(input); }
	return dagreLayout(input);
}

export function dagreLayout(input: LayoutInput): GraphLayout {
	const key = layoutKey(input);
	if (input.nodes.length === 0) {
		return { key, nodes: [], edges: [], width: 0, height: 0 };
	}
	const g = new graphlib.Graph({ multigraph: false });
	g.setGraph({ rankdir: 'LR', nodesep: 12, ranksep: 56, edgesep: 8, marginx: margin, marginy: margin, ranker: 'tight-tree' });
	g.setDefaultEdgeLabel(() => ({}));
	const ids = new Set<string>();
	for (const n of input.nodes) {
		if (ids.has(n.id)) { continue; }
		ids.add(n.id);
		g.setNode(n.id, { width: nodeWidth, height: nodeHeight });
	}
	const edges: { from: string; to: string }[] = [];
	const seen = new Set<string>();
	for (const e of input.edges) {
		const k = `${e.from}\u0003${e.to}`;
		if (e.from === e.to || !ids.has(e.from) || !ids.has(e.to) || seen.has(k)) { continue; }
		seen.add(k);
		edges.push(e);
		g.setEdge(e.from, e.to);
	}
	layout(g);
	const nodes: PositionedNode[] = [];
	let width = 0;
	let height = 0;
	for (const id of ids) {
		const n = g.node(id) as { x?: number; y?: number } | undefined;
		const x = finite(n?.x) - nodeWidth / 2;
		const y = finite(n?.y) - nodeHeight / 2;
		nodes.push({ id, x, y, width: nodeWidth, height: nodeHeight });
		width = Math.max(width, x + nodeWidth + margin);
		height = Math.max(height, y + nodeHeight + margin);
	}
	const positioned: PositionedEdge[] = edges.map((e) => {
		const label = g.edge(e.from, e.to) as { points?: { x: number; y: number }[] } | undefined;
		const points = (label?.points ?? []).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ x: p.x, y: p.y }));
		for (const p of points) {
			width = Math.max(width, p.x + margin);
			height = Math.max(height, p.y + margin);
		}
		return { from: e.from, to: e.to, points };
	});
	return { key, nodes, edges: positioned, width: Math.ceil(width), height: Math.ceil(height) };
}
