// The task graph as SVG VNodes (pure), plus its toolbar. Colours come from CSS classes that read VS Code theme
// variables (issuePanel.css); labels are truncated and the full title is in <title> and aria-label.
import { button } from '../shared/components.js';
import { type ElementNode, findAll, h, svg, type VNode } from '../shared/vnode.js';
import type { GraphLayout, Point } from './layout.js';
import type { GraphModel } from './viewModel.js';

export interface GraphRenderOptions {
	readonly zoom: number;
	/** The one node in the tab order (roving tabindex): the selection, else the first node. */
	readonly focusTaskId: string | null;
}

const round = (n: number): string => (Math.round(n * 10) / 10).toString();

function pathFor(points: readonly Point[]): string {
	return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ');
}

export function rovingFocusTaskId(model: GraphModel): string | null {
	const selected = model.nodes.find((n) => n.selected);
	return selected?.taskId ?? model.nodes[0]?.taskId ?? null;
}

export function renderGraph(model: GraphModel, layout: GraphLayout, opts: GraphRenderOptions): ElementNode {
	if (model.nodes.length === 0) {
		return h('p', { id: 'graph-empty', class: 'empty' }, model.hiddenHistoryCount > 0
			? 'Every task is superseded history. Use "Show history" to see them.'
			: 'No tasks yet. The plan appears here as soon as it has tasks.');
	}
	const byId = new Map(layout.nodes.map((n) => [n.id, n]));
	const edgeKinds = new Map(model.edges.map((e) => [`${e.from}\u0003${e.to}`, e.kind]));
	const edges: VNode[] = layout.edges.map((e) => svg('path', {
		class: `edge edge-${edgeKinds.get(`${e.from}\u0003${e.to}`) ?? 'dependency'}`,
		d: pathFor(e.points),
		'marker-end': 'url(#arrow)',
		'data-from': e.from,
		'data-to': e.to,
	}));
	const nodes: VNode[] = [];
	for (const n of model.nodes) {
		const at = byId.get(n.taskId);
		if (!at) { continue; }
		const classes = ['node', `status-${n.status}`, n.superseded ? 'superseded' : '', n.selected ? 'selected' : '', n.ready ? 'ready' : ''].filter((c) => c !== '');
		nodes.push(svg('g', {
			class: classes.join(' '),
			transform: `translate(${round(at.x)},${round(at.y)})`,
			'data-task-id': n.taskId,
			'data-action': 'task/select',
			'data-focus-key': `task:${n.taskId}`,
			role: 'button',
			tabindex: n.taskId === opts.focusTaskId ? 0 : -1,
			'aria-label': n.ariaLabel,
			'aria-current': n.selected ? 'true' : null,
		},
		svg('title', {}, `${n.title} (${n.statusLabel})`),
		svg('rect', { class: 'node-box', width: at.width, height: at.height, rx: 4, ry: 4 }),
		svg('rect', { class: 'node-bar', width: 4, height: at.height, rx: 2, ry: 2 }),
		svg('text', { class: 'node-title', x: 12, y: 17 }, n.label),
		svg('text', { class: 'node-status', x: 12, y: 32 }, `${n.statusLabel}${n.ready ? ' · ready' : ''}${n.superseded ? ' · superseded' : ''}`)));
	}
	return svg('svg', {
		id: 'task-graph',
		xmlns: 'http://www.w3.org/2000/svg',
		width: Math.ceil(layout.width * opts.zoom),
		height: Math.ceil(layout.height * opts.zoom),
		viewBox: `0 0 ${layout.width} ${layout.height}`,
		role: 'group',
		'aria-roledescription': 'task graph',
		'aria-label': 'Task graph',
		'aria-describedby': 'graph-summary',
		'data-node-count': model.nodes.length,
	},
	svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 8 8', refX: 8, refY: 4, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' },
		svg('path', { class: 'arrow-head', d: 'M0,0 L8,4 L0,8 z' }))),
	svg('g', { class: 'edges', 'aria-hidden': 'true' }, ...edges),
	svg('g', { class: 'nodes' }, ...nodes));
}

export function renderGraphToolbar(model: GraphModel, zoom: number): ElementNode {
	const historyLabel = model.showHistory ? 'Hide history' : `Show history${model.hiddenHistoryCount ? ` (${model.hiddenHistoryCount})` : ''}`;
	return h('div', { id: 'graph-toolbar', role: 'toolbar', 'aria-label': 'Graph view' },
		button({
			label: historyLabel, action: 'history/toggle', id: 'history-toggle',
			ariaLabel: model.showHistory ? 'Hide superseded tasks' : `Show superseded tasks (${model.hiddenHistoryCount} hidden)`,
			data: { show: model.showHistory ? 'false' : 'true' },
		}),
		button({ label: '−', action: 'zoom/out', ariaLabel: 'Zoom out', title: 'Zoom out (-)' }),
		h('span', { class: 'zoom-level', 'aria-live': 'polite' }, `${Math.round(zoom * 100)}%`),
		button({ label: '+', action: 'zoom/in', ariaLabel: 'Zoom in', title: 'Zoom in (+)' }),
		button({ label: 'Fit', action: 'zoom/fit', ariaLabel: 'Zoom to fit the graph', title: 'Fit (f)' }),
		button({ label: '100%', action: 'zoom/reset', ariaLabel: 'Reset zoom to 100%', title: 'Reset zoom (0)' }),
		h('p', { id: 'graph-summary', class: 'graph-summary' }, model.summary));
}

/** The graph's node groups by task id, in drawing order: the DOM patches status changes node by node. */
export function graphNodeVNodes(graph: VNode): [string, VNode][] {
	return findAll(graph, (n) => n.kind === 'element' && n.tag === 'g' && typeof n.attrs['data-task-id'] === 'string')
		.map((n) => [String(n.attrs['data-task-id']), n]);
}
