// Building real DOM nodes from VNodes, and patching nodes drawn from one VNode to draw another, without knowing the
// UI kit (the caller says how a UI component's element is created): dom.ts binds it to ui.ts; tests run it on a
// small fake document. createElement / createElementNS, setAttribute and text nodes only (never innerHTML), so data
// is never parsed as markup.
import { attributeEntries, type UiComponent, type VNode } from './vnode.js';

const svgNs = 'http://www.w3.org/2000/svg';

/** The DOM calls made here, named structurally (real nodes have them; this module also type-checks without the DOM lib). */
export interface DomNode {
	readonly parentNode: { replaceChild(fresh: DomNode, old: DomNode): unknown } | null;
}
export interface DomText extends DomNode {
	data: string;
}
export interface DomElement extends DomNode {
	readonly childNodes: ArrayLike<DomNode>;
	textContent: string | null;
	setAttribute(name: string, value: string): void;
	removeAttribute(name: string): void;
	appendChild(child: DomNode): unknown;
	replaceChildren(...nodes: DomNode[]): void;
}
export interface DomDocument {
	createTextNode(text: string): DomText;
	createElement(tag: string): DomElement;
	createElementNS(ns: string, tag: string): DomElement;
	createDocumentFragment(): DomNode & { appendChild(child: DomNode): unknown };
}

export type CreateUiElement = (doc: DomDocument, component: UiComponent) => DomElement;

export function buildDom(node: VNode, doc: DomDocument, createUi: CreateUiElement): DomNode {
	if (node.kind === 'text') { return doc.createTextNode(node.text); }
	const el = node.kind === 'ui'
		? createUi(doc, node.component)
		: node.ns === 'svg' ? doc.createElementNS(svgNs, node.tag) : doc.createElement(node.tag);
	for (const [name, value] of attributeEntries(node.attrs)) {
		if (name === 'xmlns') { continue; }
		el.setAttribute(name, value);
	}
	if (node.children.length === 1 && node.children[0]!.kind === 'text') {
		el.textContent = node.children[0]!.text;
	} else if (node.children.length > 0) {
		const frag = doc.createDocumentFragment();
		for (const c of node.children) { frag.appendChild(buildDom(c, doc, createUi)); }
		el.appendChild(frag);
	}
	return el;
}

function sameElement(a: VNode, b: VNode): boolean {
	if (a.kind === 'text' || b.kind === 'text') { return a.kind === b.kind; }
	if (a.kind === 'ui' || b.kind === 'ui') { return a.kind === 'ui' && b.kind === 'ui' && a.component === b.component; }
	return a.ns === b.ns && a.tag === b.tag;
}

/**
 * Makes `el` — drawn from `from` by `toDom` — draw `to`, touching only what differs: changed attributes and texts
 * are set in place, and a child is rebuilt only where its element changes or the children's count does. (Replacing
 * a node of a 1,000-node SVG makes the browser lay out and repaint far more than changing its class and text.)
 * Returns the node that draws `to`.
 */
export function patchDom(el: DomNode, from: VNode, to: VNode, doc: DomDocument, createUi: CreateUiElement): DomNode {
	if (!sameElement(from, to)) {
		const fresh = buildDom(to, doc, createUi);
		el.parentNode?.replaceChild(fresh, el);
		return fresh;
	}
	if (to.kind === 'text') {
		if (from.kind === 'text' && from.text !== to.text) { (el as DomText).data = to.text; }
		return el;
	}
	if (from.kind === 'text') { return el; }
	const element = el as DomElement;
	const before = new Map(attributeEntries(from.attrs));
	for (const [name, value] of attributeEntries(to.attrs)) {
		if (name !== 'xmlns' && before.get(name) !== value) { element.setAttribute(name, value); }
		before.delete(name);
	}
	for (const name of before.keys()) { element.removeAttribute(name); }
	if (from.children.length === to.children.length) {
		for (let i = 0; i < to.children.length; i++) { patchDom(element.childNodes[i]!, from.children[i]!, to.children[i]!, doc, createUi); }
	} else {
		element.replaceChildren(...to.children.map((c) => buildDom(c, doc, createUi)));
	}
	return el;
}
