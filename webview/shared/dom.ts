// The DOM backend for VNodes, with the UI kit's elements (ui.ts): build (`toDom`) and patch in place (`patchDom`).
// The work itself is domPatch.ts, written against the few DOM calls it makes; real nodes are those, structurally.
import { buildDom, type CreateUiElement, type DomDocument, type DomNode, patchDom as patchWith } from './domPatch.js';
import { createUiElement } from './ui.js';
import type { VNode } from './vnode.js';

const kit = createUiElement as unknown as CreateUiElement;
const dom = (doc: Document): DomDocument => doc as unknown as DomDocument;

export function toDom(node: VNode, doc: Document): Node {
	return buildDom(node, dom(doc), kit) as unknown as Node;
}

/** Makes `el`, drawn from `from`, draw `to`, touching only what differs (see domPatch.ts). */
export function patchDom(el: Node, from: VNode, to: VNode, doc: Document): Node {
	return patchWith(el as unknown as DomNode, from, to, dom(doc), kit) as unknown as Node;
}
