// One snapshot + UI state → the panel's regions as VNodes (pure). The DOM glue replaces only regions that changed.
import { h, type ElementNode } from '../shared/vnode.js';
import { type GraphLayout, layoutGraph, layoutKey, type LayoutInput } from './layout.js';
import { renderDetail } from './renderDetail.js';
import { renderGraph, renderGraphToolbar, rovingFocusTaskId } from './renderGraph.js';
import { renderHeader } from './renderHeader.js';
import type { PanelSnapshot } from './snapshotTypes.js';
import { derivePanelModel, type GraphModel, type PanelModel, type PanelUi } from './viewModel.js';

export interface PanelRegions {
	readonly header: ElementNode;
	readonly toolbar: ElementNode;
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

export interface RenderedPanel {
	readonly model: PanelModel;
	readonly layout: GraphLayout;
	readonly regions: PanelRegions;
}

export function renderPanel(snapshot: PanelSnapshot, ui: PanelUi, zoom: number, cache: LayoutCache): RenderedPanel {
	const model = derivePanelModel(snapshot, ui);
	const layout = cache.layout(layoutInputOf(model.graph));
	return {
		model,
		layout,
		regions: {
			header: renderHeader(model.header, model.controls),
			toolbar: renderGraphToolbar(model.graph, zoom),
			graph: renderGraph(model.graph, layout, { zoom, focusTaskId: rovingFocusTaskId(model.graph) }),
			detail: renderDetail(model.detail),
		},
	};
}

/** The whole panel as one tree (tests, benchmarks). */
export function panelTree(r: RenderedPanel): ElementNode {
	return h('div', { id: 'app' }, r.regions.header, r.regions.toolbar, r.regions.graph, r.regions.detail);
}
