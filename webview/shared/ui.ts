// The ONE place that knows the UI kit. @vscode/webview-ui-toolkit (archived upstream; @vscode-elements/elements is
// its successor) is registered here once, and our own components (button, text area, badge, divider; see
// components.ts) map to its elements here. Swapping the kit means editing this file only. DOM-only module.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDivider, vsCodeTextArea } from '@vscode/webview-ui-toolkit';
import type { UiComponent } from './vnode.js';

/**
 * The element behind each component. The badge is a plain `<span class="ui-badge">` styled by issuePanel.css: the
 * kit's <vscode-badge> template binds an inline `style` attribute, which our CSP (no 'unsafe-inline') refuses.
 */
const kitTags: Readonly<Record<UiComponent, { readonly tag: string; readonly className?: string }>> = {
	button: { tag: 'vscode-button' },
	textArea: { tag: 'vscode-text-area' },
	badge: { tag: 'span', className: 'ui-badge' },
	divider: { tag: 'vscode-divider' },
};

/** Registers the kit's elements (idempotent: a second call finds them defined and does nothing). */
export function registerUiKit(): void {
	if (customElements.get(kitTags.button.tag) !== undefined) { return; }
	provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeTextArea(), vsCodeDivider());
}

export function createUiElement(doc: Document, component: UiComponent): HTMLElement {
	const { tag, className } = kitTags[component];
	const el = doc.createElement(tag);
	if (className) { el.className = className; }
	return el;
}

/** The text a text-area component holds. */
export function uiValue(el: Element): string {
	const v = (el as Element & { value?: unknown }).value;
	return typeof v === 'string' ? v : '';
}

export function setUiValue(el: Element, value: string): void {
	el.setAttribute('value', value);
	if (customElements.get(el.localName) !== undefined) {
		(el as Element & { value: string }).value = value;
	}
}

/** Whether a component is disabled (kit elements reflect `disabled` as an attribute). */
export function uiDisabled(el: Element): boolean {
	return el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true';
}

/** Moves keyboard focus into a component (the kit forwards focus to its inner control). */
export function focusUi(el: Element): void {
	(el as HTMLElement).focus({ preventScroll: false });
}
