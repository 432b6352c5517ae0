// The task graph as SVG VNodes (pure), plus its toolbar. Colours come from CSS classes that read VS Code theme
// variables (issuePanel.css); labels are truncated and the full title is in <title> and aria-label. Below the zoom
// at which text is readable, nodes draw as status-coloured blocks (same places, same <title> on hover).
import { button, iconButton } from '../shared/components.js';
import { type ElementNode, findAll, h, svg, type VNode } from '../shared/vnode.js';
import { detailLevel } from './graphOptions.js';
import type { GraphLayout, Point } from './layout.js';
import { middleTruncate, truncate } from './format.js';
import { type GraphModel, type GraphNodeModel, nodeLabelMax } from './graphModel.js';

export interface GraphRenderOptions {
	readonly zoom: number;
	/** The one node in the tab order (roving tabindex): the selection, else the first node. */
	readonly focusTaskId: string | null;
	/** What an empty graph offers (the Host's controls): Add Task, and Start on a manual issue not started yet. */
	readonly empty?: { readonly addTask: boolean; readonly start: boolean };
}

/** Above this many nodes, running nodes do not pulse (the animation would repaint the whole graph every frame). */
export const animatedNodesMax = 100;

const round = (n: number): string => (Math.round(n * 10) / 10).toString();

function pathFor(points: readonly Point[]): string {
	return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ');
}

/**
 * Everything `graphNode` draws from, as one string: equal signatures draw equal nodes (at the same place, which the
 * layout fixes), so the DOM can skip building a node whose signature did not change.
 */
export function graphNodeSignature(n: GraphNodeModel, level: 'full' | 'blocks', tabStop: boolean, highlighting: boolean): string {
	return `${level}\u0001${tabStop ? 1 : 0}\u0001${highlighting ? 1 : 0}\u0001${JSON.stringify(n)}`;
}

export function rovingFocusTaskId(model: GraphModel): string | null {
	const selected = model.nodes.find((n) => n.selected);
	return selected?.taskId ?? model.nodes[0]?.taskId ?? null;
}

export function renderGraph(model: GraphModel, layout: GraphLayout, opts: GraphRenderOptions): ElementNode {
	if (model.nodes.length === 0) {
		if (model.hiddenHistoryCount === 0 && opts.empty?.addTask) {
			return h('div', { id: 'graph-empty', class: 'empty' },
				h('p', {}, opts.empty.start ? 'No tasks yet. Add the tasks, then Start: nothing runs before.' : 'No tasks yet. Add the first task: it runs as soon as it is ready.'),
				h('div', { class: 'empty-actions' },
					button({ label: 'Add task', action: 'task/add', appearance: 'primary', id: 'empty-add-task' }),
					opts.empty.start ? button({ label: 'Start', action: 'issue/start', id: 'empty-start', title: 'Start running the tasks as they become ready' }) : null));
		}
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
	const level = detailLevel(opts.zoom);
	const nodes: VNode[] = [];
	for (const n of model.nodes) {
		const at = byId.get(n.taskId);
		if (!at) { continue; }
		nodes.push(graphNode(n, at, level, n.taskId === opts.focusTaskId, model.highlighting));
	}
	return svg('svg', {
		id: 'task-graph',
		class: model.nodes.length > animatedNodesMax ? 'big' : null,
		xmlns: 'http://www.w3.org/2000/svg',
		width: Math.ceil(layout.width * opts.zoom),
		height: Math.ceil(layout.height * opts.zoom),
		viewBox: `0 0 ${layout.width} ${layout.height}`,
		role: 'group',
		'aria-roledescription': 'task graph',
		'aria-label': 'Task graph',
		'aria-describedby': 'graph-summary',
		'data-node-count': model.nodes.length,
		'data-detail': level,
	},
	svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 8 8', refX: 8, refY: 4, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' },
		svg('path', { class: 'arrow-head', d: 'M0,0 L8,4 L0,8 z' }))),
	svg('g', { class: 'edges', 'aria-hidden': 'true' }, ...edges),
	svg('g', { class: 'nodes' }, ...nodes));
}

export function graphNode(n: GraphNodeModel, at: { x: number; y: number; width: number; height: number }, level: 'full' | 'blocks', tabStop: boolean, highlighting: boolean): ElementNode {
	const classes = [
		'node', n.rework ? 'status-rework' : `status-${n.status}`, level === 'blocks' ? 'block' : '', n.superseded ? 'superseded' : '', n.selected ? 'selected' : '',
		n.ready ? 'ready' : '', highlighting ? (n.match ? 'match' : 'dim') : '',
	].filter((c) => c !== '');
	const statusLine = n.activity !== ''
		? truncate(`${n.statusLabel} · ${n.activity}`, nodeLabelMax + 4)
		: truncate(`${n.statusLabel}${n.ready ? ' · ready' : ''}`, nodeLabelMax + 4);
	// "attempt 2 of 2" as a tag at the title row's end ("2 of 2"): the status line keeps its whole width.
	const attempt = n.attemptLabel.replace(/^attempt /, '');
	const body: VNode[] = level === 'blocks'
		? [svg('rect', { class: 'node-box', width: at.width, height: at.height, rx: 6, ry: 6 })]
		: [
			svg('rect', { class: 'node-box', width: at.width, height: at.height, rx: 4, ry: 4 }),
			svg('rect', { class: 'node-bar', width: 4, height: at.height, rx: 2, ry: 2 }),
			svg('text', { class: 'node-title', x: 12, y: 17 }, attempt !== '' ? middleTruncate(n.title, nodeLabelMax - 6) : n.label),
			...(attempt !== '' ? [svg('text', { class: 'node-attempt', x: at.width - 8, y: 17, 'text-anchor': 'end' }, attempt)] : []),
			svg('text', { class: 'node-status', x: 12, y: 32 }, statusLine),
		];
	return svg('g', {
		class: classes.join(' '),
		transform: `translate(${round(at.x)},${round(at.y)})`,
		'data-task-id': n.taskId,
		'data-action': 'task/select',
		'data-focus-key': `task:${n.taskId}`,
		role: 'button',
		tabindex: tabStop ? 0 : -1,
		'aria-label': n.ariaLabel,
		'aria-current': n.selected ? 'true' : null,
	},
	svg('title', {}, `${n.title} (${n.statusLabel}${n.attemptLabel !== '' ? `, ${n.attemptLabel}` : ''})${n.activity !== '' ? `\n${n.activity}` : ''}`),
	...body);
}

/**
 * The view switch, search, scope (focus, hide completed, history) and zoom. Every button has an
 * accessible name; toggles say their state with aria-pressed.
 */
export function renderGraphToolbar(model: GraphModel, zoom: number, selectedTaskId: string | null): ElementNode {
	const o = model.options;
	const list = o.mode === 'list';
	const historyLabel = model.showHistory ? 'Hide superseded tasks' : `Show superseded tasks${model.hiddenHistoryCount ? ` (${model.hiddenHistoryCount} hidden)` : ''}`;
	const modeSwitch = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Show tasks as' },
		modeButton('graph', 'Graph', !list), modeButton('list', 'List', list));
	const search = h('input', {
		id: 'graph-search', type: 'search', class: 'graph-search', placeholder: 'Search title or id', value: o.search,
		'aria-label': 'Search tasks by title or id (Enter: next match)', 'data-focus-key': 'graph-search', spellcheck: 'false',
		'aria-describedby': 'graph-summary',
	});
	const focusButton = model.focus
		? iconButton({ icon: 'clear-all', label: `Show all tasks (now focused on ${model.focus.title})`, action: 'focus/clear', id: 'focus-clear', pressed: true })
		: iconButton({
			icon: 'target', label: 'Focus on the selected task: its ancestors and descendants only', action: 'focus/set', id: 'focus-set',
			disabled: selectedTaskId === null, data: selectedTaskId ? { 'task-id': selectedTaskId } : {}, shortcut: '.',
		});
	const scope = h('div', { class: 'toolbar-group', role: 'group', 'aria-label': 'Which tasks' },
		focusButton,
		iconButton({
			icon: 'check-all', label: o.hideCompleted ? `Show completed tasks (${model.hiddenCompletedCount} hidden)` : 'Hide completed tasks',
			action: 'completed/toggle', id: 'completed-toggle', pressed: o.hideCompleted,
		}),
		iconButton({
			icon: 'history', label: historyLabel, action: 'history/toggle', id: 'history-toggle', pressed: model.showHistory,
			data: { show: model.showHistory ? 'false' : 'true' },
		}));
	const zoomGroup = list ? null : h('div', { class: 'toolbar-group', role: 'group', 'aria-label': 'Zoom' },
		iconButton({ icon: 'zoom-out', label: 'Zoom out', action: 'zoom/out', shortcut: '-' }),
		h('span', { class: 'zoom-level', 'aria-live': 'polite', 'aria-label': `Zoom ${Math.round(zoom * 100)}%` }, `${Math.round(zoom * 100)}%`),
		iconButton({ icon: 'zoom-in', label: 'Zoom in', action: 'zoom/in', shortcut: '+' }),
		iconButton({ icon: 'screen-full', label: 'Zoom to fit the graph', action: 'zoom/fit', shortcut: 'f' }),
		iconButton({ icon: 'screen-normal', label: 'Reset zoom to 100%', action: 'zoom/reset', shortcut: '0' }));
	return h('div', { id: 'graph-toolbar', role: 'toolbar', 'aria-label': 'Task graph tools' }, modeSwitch, search, scope, zoomGroup);
}

/**
 * The status chips (counts that change with every status change), the focus note and the summary: a region of its
 * own, so a status change redraws these plain buttons and not the toolbar's UI-kit buttons.
 */
export function renderGraphStatus(model: GraphModel): ElementNode {
	const list = model.options.mode === 'list';
	const chips = h('div', { class: 'chips', role: 'group', 'aria-label': list ? 'Show only tasks with status' : 'Highlight tasks with status' },
		...model.chips.map((c) => h('button', {
			type: 'button', class: `chip status-${c.colour}`, 'data-action': 'filter/status', 'data-status': c.status,
			'data-focus-key': `chip:${c.status}`, 'aria-pressed': String(c.active), title: `${c.label}: ${c.count}`,
			'aria-label': `${c.label}, ${c.count} ${c.count === 1 ? 'task' : 'tasks'}`,
		}, h('span', { class: 'chip-dot', 'aria-hidden': 'true' }), `${c.label} `, h('span', { class: 'chip-count' }, String(c.count)))));
	const focusNote = model.focus ? h('span', { class: 'focus-note' }, `Focused on ${model.focus.title}`) : null;
	return h('div', { id: 'graph-status' },
		h('div', { class: 'toolbar-row' }, chips, focusNote),
		h('p', { id: 'graph-summary', class: 'graph-summary' }, model.summary));
}

function modeButton(mode: 'graph' | 'list', label: string, pressed: boolean): ElementNode {
	return h('button', {
		type: 'button', class: 'segment', 'data-action': 'mode/set', 'data-mode': mode, 'data-focus-key': `mode:${mode}`,
		'aria-pressed': String(pressed), 'aria-label': `Show the tasks as a ${mode}`,
	}, h('span', { class: `codicon codicon-${mode === 'graph' ? 'type-hierarchy' : 'list-flat'}`, 'aria-hidden': 'true' }), ` ${label}`);
}

/** The graph's node groups by task id, in drawing order: the DOM patches status changes node by node. */
export function graphNodeVNodes(graph: VNode): [string, VNode][] {
	return findAll(graph, (n) => n.kind === 'element' && n.tag === 'g' && typeof n.attrs['data-task-id'] === 'string')
		.map((n) => [String(n.attrs['data-task-id']), n]);
}
