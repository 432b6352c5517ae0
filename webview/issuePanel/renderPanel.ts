// One snapshot + UI state → the panel's regions as VNodes (pure). The DOM glue replaces only regions that changed.
import { h, type ElementNode } from '../shared/vnode.js';
import { type GraphLayout, layoutGraph, layoutKey, type LayoutInput } from './layout.js';
import { detailToggle, renderDetail } from './renderDetail.js';
import { renderTaskForm } from './renderTaskForm.js';
import { renderGraph, renderGraphStatus, renderGraphToolbar, rovingFocusTaskId } from './renderGraph.js';
import { renderHeader } from './renderHeader.js';
import { renderTaskList } from './renderTaskList.js';
import type { PanelSnapshot } from './snapshotTypes.js';
import type { GraphModel } from './graphModel.js';
import { derivePanelModel, type PanelModel, type PanelUi } from './panelModel.js';

export interface PanelRegions {
	readonly header: ElementNode;
	readonly toolbar: ElementNode;
	readonly graphStatus: ElementNode;
	readonly graph: ElementNode;
	readonly detail: ElementNode;
}

export type RegionName = keyof PanelRegions;

export function layoutInputOf(graph: GraphModel): LayoutInput {
	return { nodes: graph.nodes.map((n) => ({ id: n.taskId })), edges: graph.edges };
}

/** Keeps the last layout: a snapshot that only changes statuses (the common case) reuses it. */
export class LayoutCache {
	#last: GraphLayout | null = null;
	layout(input: LayoutInput): GraphLayout {
		const key = layoutKey(input);
		if (this.#last?.key !== key) { this.#last = layoutGraph(input); }
		return this.#last;
	}
}

const emptyLayout: GraphLayout = { key: 'list', nodes: [], edges: [], width: 0, height: 0 };

export interface RenderedPanel {
	readonly model: PanelModel;
	readonly layout: GraphLayout;
	readonly regions: PanelRegions;
	/** The detail pane: `hidden` with nothing to show (the graph takes the width), `collapsed` by the developer, or `open`. */
	readonly detailPane: 'hidden' | 'collapsed' | 'open';
}

export function renderPanel(snapshot: PanelSnapshot, ui: PanelUi, zoom: number, cache: LayoutCache): RenderedPanel {
	const model = derivePanelModel(snapshot, ui);
	const list = model.graph.options.mode === 'list';
	// The list needs no layout: the cached one stays for when the graph comes back.
	const layout = list ? emptyLayout : cache.layout(layoutInputOf(model.graph));
	let graph: ElementNode | null = null;
	const detailPane = model.detail === null && model.form === null ? 'hidden' : ui.detailCollapsed === true ? 'collapsed' : 'open';
	return {
		model,
		layout,
		detailPane,
		regions: {
			header: renderHeader(model.header, model.controls),
			toolbar: renderGraphToolbar(model.graph, zoom, ui.selectedTaskId),
			graphStatus: renderGraphStatus(model.graph),
			// Built on first read: the webview patches the graph from the model and reads this only for the list or
			// an empty graph (building 1,000 node VNodes per snapshot is what a status change must not cost).
			get graph(): ElementNode {
				graph ??= list ? renderTaskList(model.graph) : renderGraph(model.graph, layout, { zoom, focusTaskId: rovingFocusTaskId(model.graph), empty: { addTask: model.controls.addTask, start: model.controls.start } });
				return graph;
			},
			detail: h('div', { id: 'detail-pane', 'data-pane': detailPane },
				detailPane === 'hidden' ? null : detailToggle(detailPane === 'open'),
				model.form !== null
					? renderTaskForm(model.form, model.form.taskId !== null && ui.confirmDeleteTaskId === model.form.taskId)
					: renderDetail(model.detail, { confirmDeleteTaskId: ui.confirmDeleteTaskId ?? null })),
		},
	};
}

/** The whole panel as one tree (tests, benchmarks). */
export function panelTree(r: RenderedPanel): ElementNode {
	return h('div', { id: 'app' }, r.regions.header, r.regions.toolbar, r.regions.graphStatus, r.regions.graph, r.regions.detail);
}
