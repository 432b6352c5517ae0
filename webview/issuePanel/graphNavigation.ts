// Arrow-key movement between graph nodes (the graph is one tab stop; arrows move inside it). Pure.
import type { PositionedNode } from './layout.js';

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

export function isNavKey(key: string): key is NavKey {
	return key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End';
}

/**
 * The node to move to from `fromId`: the nearest node in the pressed direction, where distance along the
 * direction counts once and sideways distance counts three times (so Up/Down stay in the column, Left/Right
 * follow the rank). Home/End go to the first/last node in reading order. Null when there is nowhere to go.
 */
export function nextNodeId(nodes: readonly PositionedNode[], fromId: string | null, key: NavKey): string | null {
	if (nodes.length === 0) { return null; }
	const reading = [...nodes].sort((a, b) => a.x - b.x || a.y - b.y);
	if (key === 'Home') { return reading[0]!.id; }
	if (key === 'End') { return reading[reading.length - 1]!.id; }
	const from = nodes.find((n) => n.id === fromId);
	if (!from) { return reading[0]!.id; }
	const cx = from.x + from.width / 2;
	const cy = from.y + from.height / 2;
	let best: string | null = null;
	let bestScore = Infinity;
	for (const n of nodes) {
		if (n.id === from.id) { continue; }
		const dx = n.x + n.width / 2 - cx;
		const dy = n.y + n.height / 2 - cy;
		const [along, across] = key === 'ArrowRight' ? [dx, dy] : key === 'ArrowLeft' ? [-dx, dy] : key === 'ArrowDown' ? [dy, dx] : [-dy, dx];
		if (along <= 0.5) { continue; }
		const score = along + 3 * Math.abs(across);
		if (score < bestScore || (score === bestScore && best !== null && n.id < best)) {
			bestScore = score;
			best = n.id;
		}
	}
	return best;
}
