// The DOM backend for VNodes: createElement / createElementNS, setAttribute and text nodes only (never innerHTML),
// so data is never parsed as markup. UI components are created by ui.ts.
import { createUiElement } from './ui.js';
import { attributeEntries, type VNode } from './vnode.js';

const svgNs = 'http://www.w3.org/2000/svg';

export function toDom(node: VNode, doc: Document): Node {
	if (node.kind === 'text') { return doc.createTextNode(node.text); }
	const el = node.kind === 'ui'
		? createUiElement(doc, node.component)
		: node.ns === 'svg' ? doc.createElementNS(svgNs, node.tag) : doc.createElement(node.tag);
	for (const [name, value] of attributeEntries(node.attrs)) {
		if (name === 'xmlns') { continue; }
		el.setAttribute(name, value);
	}
	if (node.children.length === 1 && node.children[0]!.kind === 'text') {
		el.textContent = node.children[0]!.text;
	} else if (node.children.length > 0) {
		const frag = doc.createDocumentFragment();
		for (const c of node.children) { frag.appendChild(toDom(c, doc)); }
		el.appendChild(frag);
	}
	return el;
}
