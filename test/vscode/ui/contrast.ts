// WCAG 2 contrast of every visible text in a webview, measured from computed styles (issue 12: text meets 4.5:1 in
// Light+, Dark+ and High Contrast). Evaluated inside the webview: walks the text nodes of the document and of every
// open shadow root (the UI kit's buttons), takes the text's colour (SVG text: its fill) with the opacity of its
// ancestors, resolves the effective background by compositing the background colours of its ancestors (across
// shadow boundaries; SVG text: the fill of the shape it sits on) over the editor background, and returns the worst.
import type { WebviewFrame } from './webviewFrame.js';

export interface ContrastSample {
	readonly ratio: number;
	readonly text: string;
	/** A short CSS path of the text's element. */
	readonly where: string;
	readonly color: string;
	readonly background: string;
}

export const minimumContrast = 4.5;

const measure = `(() => {
	const parse = (value) => {
		const v = (value || '').trim();
		if (v === '' || v === 'none' || v === 'transparent') { return null; }
		let m = /^#([0-9a-f]{3,8})$/i.exec(v);
		if (m) {
			let h = m[1];
			if (h.length <= 4) { h = h.split('').map((c) => c + c).join(''); }
			const n = (i) => parseInt(h.slice(i, i + 2), 16);
			return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
		}
		m = /^rgba?\\(([^)]*)\\)$/.exec(v);
		if (!m) { return null; }
		const p = m[1].split(/[\\s,\\/]+/).filter((s) => s !== '').map((s) => s.endsWith('%') ? parseFloat(s) / 100 : parseFloat(s));
		return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
	};
	const over = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
	const channel = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); };
	const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
	const ratioOf = (a, b) => { const x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const css = (c) => 'rgb(' + [c.r, c.g, c.b].map((n) => Math.round(n)).join(', ') + ')';
	const up = (e) => e.parentElement || (e.getRootNode() && e.getRootNode().host) || null;
	const root = document.documentElement;
	const page = parse(getComputedStyle(root).getPropertyValue('--vscode-editor-background')) || { r: 255, g: 255, b: 255, a: 1 };
	const backgroundOf = (el) => {
		const layers = [];
		for (let e = el; e; e = up(e)) {
			if (e instanceof SVGElement && e.matches('g.node, g.node *')) {
				const g = e.closest('g.node');
				const shape = g && g.querySelector(':scope > rect');
				const fill = shape ? parse(getComputedStyle(shape).fill) : null;
				if (fill && fill.a > 0) { layers.push(fill); if (fill.a >= 1) { break; } }
			}
			const bg = parse(getComputedStyle(e).backgroundColor);
			if (bg && bg.a > 0) { layers.push(bg); if (bg.a >= 1) { break; } }
		}
		return layers.reverse().reduce((below, layer) => over(layer, below), page);
	};
	const opacityOf = (el) => { let o = 1; for (let e = el; e; e = up(e)) { o *= parseFloat(getComputedStyle(e).opacity || '1'); } return o; };
	const where = (el) => {
		const parts = [];
		for (let e = el; e && parts.length < 4; e = up(e)) {
			parts.unshift(e.localName + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : ''));
		}
		return parts.join(' > ');
	};
	const roots = [document];
	for (let i = 0; i < roots.length; i++) {
		for (const el of roots[i].querySelectorAll('*')) { if (el.shadowRoot) { roots.push(el.shadowRoot); } }
	}
	const samples = [];
	for (const r of roots) {
		const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
		for (let n = walker.nextNode(); n; n = walker.nextNode()) {
			const text = n.textContent.trim();
			const el = n.parentElement;
			if (text === '' || !el || el.closest('style, script, title, .visually-hidden, [hidden], [aria-hidden="true"] .visually-hidden')) { continue; }
			if (el.closest('[disabled], [aria-disabled="true"]')) { continue; }
			const box = el.getBoundingClientRect();
			const style = getComputedStyle(el);
			if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0) { continue; }
			const fg = parse(el instanceof SVGElement ? style.fill : style.color);
			if (!fg) { continue; }
			const bg = backgroundOf(el);
			const shown = over({ ...fg, a: fg.a * opacityOf(el) }, bg);
			samples.push({ ratio: Math.round(ratioOf(shown, bg) * 100) / 100, text: text.slice(0, 60), where: where(el), color: css(shown), background: css(bg) });
		}
	}
	samples.sort((a, b) => a.ratio - b.ratio);
	return { count: samples.length, worst: samples.slice(0, 5) };
})()`;

/** Every visible text's contrast in the webview: how many were measured and the five worst. */
export function measureContrast(frame: WebviewFrame): Promise<{ count: number; worst: ContrastSample[] }> {
	return frame.evaluate(measure);
}

/** Throws naming the worst text when any is below 4.5:1; returns "N texts, worst R:1 (text)". */
export async function checkContrast(frame: WebviewFrame, what: string): Promise<string> {
	const { count, worst } = await measureContrast(frame);
	if (count === 0) { throw new Error(`no visible text measured in ${what}`); }
	const below = worst.filter((s) => s.ratio < minimumContrast);
	if (below.length > 0) {
		throw new Error(`${what}: ${below.length === 5 ? '5 or more' : below.length} text(s) below ${minimumContrast}:1, worst ${below.map((s) => `${s.ratio}:1 "${s.text}" (${s.where}; ${s.color} on ${s.background})`).join('; ')}`);
	}
	return `${count} texts, worst ${worst[0]!.ratio}:1 ("${worst[0]!.text}")`;
}
