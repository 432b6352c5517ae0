// A tiny, pure description of DOM to build: render functions return VNodes, and two backends turn them into a
// string (tests, benchmarks) or real nodes (webview/shared/dom.ts). Text is always text and attribute values are
// always values, so a hostile task title can never become markup. No DOM types here: this runs in Node too.

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

/** Our own small components; webview/shared/ui.ts decides which UI kit element draws each one. */
export type UiComponent = 'button' | 'textArea' | 'badge' | 'divider';

export interface ElementNode {
	readonly kind: 'element';
	readonly ns: 'html' | 'svg';
	readonly tag: string;
	readonly attrs: Attrs;
	readonly children: readonly VNode[];
}
export interface TextNode {
	readonly kind: 'text';
	readonly text: string;
}
export interface UiNode {
	readonly kind: 'ui';
	readonly component: UiComponent;
	readonly attrs: Attrs;
	readonly children: readonly VNode[];
}
export type VNode = ElementNode | TextNode | UiNode;
export type Child = VNode | string | null | undefined | false;

const tagName = /^[a-z][a-z0-9-]*$/i;
const attrName = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)?$/i;

/** Names already checked (our code uses a few dozen, thousands of times per 1,000-node graph). */
const safeAttributeNames = new Set<string>();
const safeTags = new Set<string>();

/** Attribute names come from our code, never from data; still, event handlers and inline styles are refused (CSP). */
export function assertSafeAttributeName(name: string): void {
	if (safeAttributeNames.has(name)) { return; }
	if (!attrName.test(name) || /^on/i.test(name) || name.toLowerCase() === 'style') {
		throw new Error(`refused attribute name: ${name}`);
	}
	safeAttributeNames.add(name);
}

function assertSafeTag(tag: string): void {
	if (safeTags.has(tag)) { return; }
	if (!tagName.test(tag) || tag.toLowerCase() === 'script' || tag.toLowerCase() === 'style') {
		throw new Error(`refused tag: ${tag}`);
	}
	safeTags.add(tag);
}

function normalize(children: readonly Child[]): VNode[] {
	const out: VNode[] = [];
	for (const c of children) {
		if (c === null || c === undefined || c === false) { continue; }
		out.push(typeof c === 'string' ? { kind: 'text', text: c } : c);
	}
	return out;
}

/** An HTML element. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): ElementNode {
	assertSafeTag(tag);
	return { kind: 'element', ns: 'html', tag, attrs, children: normalize(children) };
}

/** An SVG element. */
export function svg(tag: string, attrs: Attrs = {}, ...children: Child[]): ElementNode {
	assertSafeTag(tag);
	return { kind: 'element', ns: 'svg', tag, attrs, children: normalize(children) };
}

export function ui(component: UiComponent, attrs: Attrs = {}, ...children: Child[]): UiNode {
	return { kind: 'ui', component, attrs, children: normalize(children) };
}

export function text(value: string): TextNode {
	return { kind: 'text', text: value };
}

/** The attributes to set, in order: null/undefined/false are absent, true is present and empty. */
export function attributeEntries(attrs: Attrs): [string, string][] {
	const out: [string, string][] = [];
	for (const [name, value] of Object.entries(attrs)) {
		assertSafeAttributeName(name);
		if (value === null || value === undefined || value === false) { continue; }
		out.push([name, value === true ? '' : String(value)]);
	}
	return out;
}

export function escapeText(s: string): string {
	return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(s: string): string {
	return escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The string backend. UI components render as `<ui-<component>>` (the kit's tag is a DOM-side choice). */
export function renderToString(node: VNode): string {
	if (node.kind === 'text') { return escapeText(node.text); }
	const tag = node.kind === 'ui' ? `ui-${node.component.toLowerCase()}` : node.tag;
	const attrs = attributeEntries(node.attrs).map(([n, v]) => (v === '' ? ` ${n}` : ` ${n}="${escapeAttribute(v)}"`)).join('');
	let inner = '';
	for (const child of node.children) { inner += renderToString(child); }
	return `<${tag}${attrs}>${inner}</${tag}>`;
}

/** Depth-first search for test assertions and keyboard helpers. */
export function findAll(node: VNode, predicate: (n: ElementNode | UiNode) => boolean): (ElementNode | UiNode)[] {
	const out: (ElementNode | UiNode)[] = [];
	const visit = (n: VNode): void => {
		if (n.kind === 'text') { return; }
		if (predicate(n)) { out.push(n); }
		for (const c of n.children) { visit(c); }
	};
	visit(node);
	return out;
}

/** All text under a node, concatenated (what a screen reader would meet, minus attributes). */
export function textContent(node: VNode): string {
	if (node.kind === 'text') { return node.text; }
	return node.children.map(textContent).join('');
}
