// Our own small components (button, text area, badge, divider) as pure VNodes. Render code uses only these;
// webview/shared/ui.ts maps each to a UI kit element in one place, so swapping the kit touches one file.
import { type Attrs, type ElementNode, h, type UiNode, ui } from './vnode.js';

export interface ButtonProps {
	readonly label: string;
	/** `data-action`: what the click means (the panel's single delegated listener reads it). */
	readonly action: string;
	readonly ariaLabel?: string;
	readonly appearance?: 'primary' | 'secondary';
	readonly disabled?: boolean;
	readonly id?: string;
	/** Extra `data-*` attributes (ids the action needs), e.g. `{ 'task-id': 't1' }`. */
	readonly data?: Readonly<Record<string, string>>;
	readonly title?: string;
}

function dataAttrs(data: Readonly<Record<string, string>> | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(data ?? {})) { out[`data-${k}`] = v; }
	return out;
}

export function button(p: ButtonProps): UiNode {
	const attrs: Attrs = {
		id: p.id,
		appearance: p.appearance ?? 'secondary',
		'data-action': p.action,
		'data-focus-key': `action:${p.action}:${Object.values(p.data ?? {}).join(':')}`,
		'aria-label': p.ariaLabel ?? p.label,
		title: p.title,
		disabled: p.disabled === true,
		...dataAttrs(p.data),
	};
	return ui('button', attrs, p.label);
}

export interface TextAreaProps {
	readonly id: string;
	readonly label: string;
	readonly placeholder?: string;
	readonly maxLength: number;
	/** The key under which the panel keeps the draft (the DOM glue fills the value after rendering). */
	readonly draftKey: string;
	readonly rows?: number;
	/** What the field holds before the developer types (no draft yet), e.g. the text being edited. */
	readonly initialValue?: string;
	/** The id of the button Ctrl+Enter (Cmd+Enter) presses from this field. */
	readonly submitButtonId?: string;
}

export function textArea(p: TextAreaProps): UiNode {
	return ui('textArea', {
		id: p.id,
		placeholder: p.placeholder,
		maxlength: p.maxLength,
		rows: p.rows ?? 3,
		resize: 'vertical',
		'aria-label': p.label,
		'data-draft-key': p.draftKey,
		'data-focus-key': `draft:${p.draftKey}`,
		'data-initial': p.initialValue,
		'data-submit': p.submitButtonId,
		'aria-keyshortcuts': p.submitButtonId !== undefined ? 'Control+Enter' : undefined,
	}, p.label);
}

export function badge(label: string, ariaLabel?: string): UiNode {
	return ui('badge', { 'aria-label': ariaLabel }, label);
}

export function divider(): UiNode {
	return ui('divider', { role: 'separator' });
}

/** A native button styled as a link (navigation inside the panel, e.g. to another task). */
export function linkButton(label: string, action: string, data: Readonly<Record<string, string>>, ariaLabel?: string): ElementNode {
	return h('button', {
		type: 'button',
		class: 'link',
		'data-action': action,
		'data-focus-key': `link:${action}:${Object.values(data).join(':')}`,
		'aria-label': ariaLabel ?? label,
		...dataAttrs(data),
	}, label);
}

export interface IconButtonProps {
	/** A codicon name (`zoom-in`, `filter`, …): the icon is decoration, `label` is the accessible name and tooltip. */
	readonly icon: string;
	readonly label: string;
	readonly action: string;
	readonly id?: string;
	/** A toggle's state (`aria-pressed`); omit for a plain command. */
	readonly pressed?: boolean;
	readonly disabled?: boolean;
	readonly data?: Readonly<Record<string, string>>;
	/** The keyboard shortcut, shown in the tooltip ("Zoom in (+)"). */
	readonly shortcut?: string;
}

/** A toolbar button that shows only a codicon; its name is in aria-label and its tooltip. */
export function iconButton(p: IconButtonProps): UiNode {
	return ui('button', {
		id: p.id,
		appearance: 'icon',
		'data-action': p.action,
		'data-focus-key': `action:${p.action}:${Object.values(p.data ?? {}).join(':')}`,
		'aria-label': p.label,
		'aria-pressed': p.pressed === undefined ? null : String(p.pressed),
		title: p.shortcut ? `${p.label} (${p.shortcut})` : p.label,
		disabled: p.disabled === true,
		...dataAttrs(p.data),
	}, h('span', { class: `codicon codicon-${p.icon}`, 'aria-hidden': 'true' }));
}
