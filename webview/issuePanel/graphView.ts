// The graph region's DOM. A new graph shape (layout key, zoom, level of detail) rebuilds the SVG; a snapshot that
// only changes statuses, the selection or the highlighting (the common case: the layout is cached) rebuilds just the
// node groups whose signature changed, without building VNodes for the others (a node model that is the same object
// as last time — an unchanged task of a delta — is not even compared), so 1,000-task graphs stay cheap to update. Anything else in the region (the list, an empty state) is replaced when its markup changes. Also owns the
// graph's roving tab stop (one node with tabindex 0).
import { patchDom, toDom } from '../shared/dom.js';
import { type ElementNode, renderToString } from '../shared/vnode.js';
import { type DetailLevel, detailLevel } from './graphOptions.js';
import type { GraphLayout, PositionedNode } from './layout.js';
import { graphNode, graphNodeSignature, renderGraph, rovingFocusTaskId } from './renderGraph.js';
import type { GraphModel, GraphNodeModel } from './graphModel.js';

interface DrawnNode {
	/** The model it was drawn from (models of unchanged tasks are the same objects from one snapshot to the next). */
	readonly node: GraphNodeModel;
	readonly level: DetailLevel;
	readonly tabStop: boolean;
	readonly highlighting: boolean;
	/** `graphNodeSignature` of the above, computed when first compared. */
	signature: string | null;
	readonly el: Element;
}

function signatureOf(d: DrawnNode): string {
	d.signature ??= graphNodeSignature(d.node, d.level, d.tabStop, d.highlighting);
	return d.signature;
}

export class GraphView {
	readonly #doc: Document;
	readonly #container: HTMLElement;
	#shape: string | null = null;
	#nodes = new Map<string, DrawnNode>();
	/** The nodes that may have tabindex 0 (drawn as the tab stop, or made it by `moveRoving`): asking 1,000 nodes costs. */
	#tabStops = new Set<Element>();

	constructor(doc: Document, container: HTMLElement) {
		this.#doc = doc;
		this.#container = container;
	}

	elementFor(taskId: string): Element | undefined {
		return this.#nodes.get(taskId)?.el;
	}

	/** Draws the graph of `model` laid out by `layout` at `zoom`, patching node by node when the shape is unchanged. */
	renderGraph(model: GraphModel, layout: GraphLayout, zoom: number): void {
		const level = detailLevel(zoom);
		const tabStop = rovingFocusTaskId(model);
		const shape = `graph\u0004${layout.key}\u0004${zoom}`;
		const focusedTask = this.#focusedTask();
		const samePlaces = shape === this.#shape && model.nodes.length === this.#nodes.size && model.nodes.every((n) => this.#nodes.has(n.taskId));
		if (samePlaces) {
			let at: Map<string, PositionedNode> | null = null;
			for (const n of model.nodes) {
				const drawn = this.#nodes.get(n.taskId)!;
				const isTabStop = n.taskId === tabStop;
				if (drawn.node === n && drawn.level === level && drawn.tabStop === isTabStop && drawn.highlighting === model.highlighting) { continue; }
				const next: DrawnNode = { node: n, level, tabStop: isTabStop, highlighting: model.highlighting, signature: null, el: drawn.el };
				if (signatureOf(drawn) === signatureOf(next)) {
					this.#nodes.set(n.taskId, next);
					continue;
				}
				at ??= new Map(layout.nodes.map((p) => [p.id, p]));
				const place = at.get(n.taskId);
				if (!place) { continue; }
				const el = patchDom(drawn.el, graphNode(drawn.node, place, drawn.level, drawn.tabStop, drawn.highlighting),
					graphNode(n, place, level, next.tabStop, model.highlighting), this.#doc) as Element;
				this.#nodes.set(n.taskId, { ...next, el });
				if (next.tabStop) { this.#tabStops.add(el); }
			}
		} else {
			this.#container.replaceChildren(toDom(renderGraph(model, layout, { zoom, focusTaskId: tabStop }), this.#doc));
			this.#shape = shape;
			const els = new Map<string, Element>();
			for (const el of this.#container.querySelectorAll('g[data-task-id]')) { els.set(el.getAttribute('data-task-id') ?? '', el); }
			this.#nodes = new Map(model.nodes.flatMap((n) => {
				const el = els.get(n.taskId);
				return el ? [[n.taskId, { node: n, level, tabStop: n.taskId === tabStop, highlighting: model.highlighting, signature: null, el }] as const] : [];
			}));
			const built = tabStop !== null ? this.#nodes.get(tabStop)?.el : undefined;
			this.#tabStops = new Set(built ? [built] : []);
		}
		this.#restoreFocus(focusedTask, tabStop);
	}

	/** Anything but the graph (the list, an empty state): replaced when its markup changes. */
	renderOther(node: ElementNode): void {
		const shape = `other\u0004${renderToString(node)}`;
		if (shape === this.#shape) { return; }
		const active = this.#doc.activeElement;
		const focusKey = active && this.#container.contains(active) ? active.closest('[data-focus-key]')?.getAttribute('data-focus-key') ?? null : null;
		this.#container.replaceChildren(toDom(node, this.#doc));
		this.#shape = shape;
		this.#nodes = new Map();
		this.#tabStops = new Set();
		if (focusKey !== null) {
			this.#container.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
		}
	}

	#focusedTask(): string | null {
		const active = this.#doc.activeElement;
		return active && this.#container.contains(active) ? active.closest('g[data-task-id]')?.getAttribute('data-task-id') ?? null : null;
	}

	#restoreFocus(focusedTask: string | null, tabStop: string | null): void {
		const keep = focusedTask !== null ? this.elementFor(focusedTask) : undefined;
		const next = keep ?? (tabStop !== null ? this.elementFor(tabStop) : undefined);
		if (next) { this.moveRoving(next); }
		if (keep && this.#doc.activeElement !== keep) { (keep as SVGGElement).focus({ preventScroll: true }); }
	}

	/** Makes `el` the graph's one tab stop. */
	moveRoving(el: Element): void {
		for (const other of this.#tabStops) {
			if (other !== el) { other.setAttribute('tabindex', '-1'); }
		}
		this.#tabStops = new Set([el]);
		if (el.getAttribute('tabindex') !== '0') { el.setAttribute('tabindex', '0'); }
	}
}
