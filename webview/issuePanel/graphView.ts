// The graph region's DOM. A new graph shape (or zoom) rebuilds the SVG; a snapshot that only changes statuses
// (the common case: the layout is cached) replaces just the node groups whose markup changed, so 1,000-task graphs
// stay cheap to update. Also owns the graph's roving tab stop (one node with tabindex 0).
import { toDom } from '../shared/dom.js';
import { type ElementNode, renderToString } from '../shared/vnode.js';
import { graphNodeVNodes } from './renderGraph.js';

interface DrawnNode {
	markup: string;
	el: Element;
}

export class GraphView {
	readonly #doc: Document;
	readonly #container: HTMLElement;
	#shape: string | null = null;
	#nodes = new Map<string, DrawnNode>();

	constructor(doc: Document, container: HTMLElement) {
		this.#doc = doc;
		this.#container = container;
	}

	elementFor(taskId: string): Element | undefined {
		return this.#nodes.get(taskId)?.el;
	}

	/** `shape` identifies everything but the nodes' own content: layout key, zoom, empty state. */
	render(graph: ElementNode, shape: string): void {
		const nodes = graphNodeVNodes(graph);
		const active = this.#doc.activeElement;
		const focusedTask = active && this.#container.contains(active) ? active.closest('[data-task-id]')?.getAttribute('data-task-id') ?? null : null;
		const samePlaces = shape === this.#shape && nodes.length === this.#nodes.size && nodes.every(([id]) => this.#nodes.has(id));
		if (samePlaces) {
			for (const [id, v] of nodes) {
				const markup = renderToString(v);
				const drawn = this.#nodes.get(id)!;
				if (drawn.markup === markup) { continue; }
				const el = toDom(v, this.#doc) as Element;
				drawn.el.replaceWith(el);
				this.#nodes.set(id, { markup, el });
			}
		} else {
			this.#container.replaceChildren(toDom(graph, this.#doc));
			this.#shape = shape;
			const els = new Map<string, Element>();
			for (const el of this.#container.querySelectorAll('g[data-task-id]')) { els.set(el.getAttribute('data-task-id') ?? '', el); }
			this.#nodes = new Map(nodes.flatMap(([id, v]) => {
				const el = els.get(id);
				return el ? [[id, { markup: renderToString(v), el }] as const] : [];
			}));
		}
		const tabbable = nodes.find(([, v]) => v.kind === 'element' && v.attrs['tabindex'] === 0)?.[0] ?? null;
		const keep = focusedTask !== null ? this.elementFor(focusedTask) : undefined;
		const next = keep ?? (tabbable !== null ? this.elementFor(tabbable) : undefined);
		if (next) { this.moveRoving(next); }
		if (keep && this.#doc.activeElement !== keep) { (keep as SVGGElement).focus({ preventScroll: true }); }
	}

	/** Makes `el` the graph's one tab stop. */
	moveRoving(el: Element): void {
		for (const drawn of this.#nodes.values()) {
			if (drawn.el !== el && drawn.el.getAttribute('tabindex') === '0') { drawn.el.setAttribute('tabindex', '-1'); }
		}
		el.setAttribute('tabindex', '0');
	}
}
