// The few DOM calls webview/shared/domPatch.ts makes (create, attributes, text, children), as a tiny tree that
// serializes to markup, so unit tests can check what it builds and what a patch leaves without a browser.
import type { DomDocument } from '../../../webview/shared/domPatch.js';

export class FakeNode {
	parentNode: FakeElement | null = null;
	/** How many times this node's own attributes or text were written (a patch should touch only what changed). */
	writes = 0;
}

export class FakeText extends FakeNode {
	#data: string;
	constructor(data: string) { super(); this.#data = data; }
	get data(): string { return this.#data; }
	set data(v: string) { this.#data = v; this.writes++; }
	markup(): string { return this.#data.replace(/&/g, '&amp;').replace(/</g, '&lt;'); }
}

export class FakeElement extends FakeNode {
	readonly attributes = new Map<string, string>();
	childNodes: FakeNode[] = [];
	constructor(readonly tagName: string, readonly ns: string | null) { super(); }
	setAttribute(name: string, value: string): void { this.attributes.set(name, value); this.writes++; }
	removeAttribute(name: string): void { this.attributes.delete(name); this.writes++; }
	getAttribute(name: string): string | null { return this.attributes.get(name) ?? null; }
	set textContent(text: string) { this.replaceChildren(new FakeText(text)); }
	appendChild(child: FakeNode): FakeNode {
		const kids = child instanceof FakeFragment ? child.childNodes.splice(0) : [child];
		for (const k of kids) { k.parentNode = this; this.childNodes.push(k); }
		return child;
	}
	replaceChildren(...nodes: FakeNode[]): void {
		for (const c of this.childNodes) { c.parentNode = null; }
		this.childNodes = [];
		for (const n of nodes) { this.appendChild(n); }
	}
	replaceChild(fresh: FakeNode, old: FakeNode): FakeNode {
		const i = this.childNodes.indexOf(old);
		if (i < 0) { throw new Error('not a child'); }
		this.childNodes[i] = fresh;
		fresh.parentNode = this;
		old.parentNode = null;
		return old;
	}
	markup(): string {
		const attrs = [...this.attributes].map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`).join('');
		return `<${this.tagName}${attrs}>${this.childNodes.map((c) => (c as FakeElement | FakeText).markup()).join('')}</${this.tagName}>`;
	}
}

export class FakeFragment extends FakeElement {
	constructor() { super('#fragment', null); }
}

export const fakeDocument = {
	createTextNode: (text: string): FakeText => new FakeText(text),
	createElement: (tag: string): FakeElement => new FakeElement(tag, null),
	createElementNS: (ns: string, tag: string): FakeElement => new FakeElement(tag, ns),
	createDocumentFragment: (): FakeFragment => new FakeFragment(),
};

/** The fake, typed as the document the DOM backend takes. */
export const fakeDoc = fakeDocument as unknown as DomDocument;
