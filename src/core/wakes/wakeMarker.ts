// The agent-inert first line of every checkpoint-wake prompt. UIs render a compact card from it instead of the
// whole prompt. Field names are a wire contract: `{"v":1,"kind","issueId","checkpointId","graphRevision"}`.
import type { CheckpointKind } from '../model.js';
import { checkpointKinds } from '../model.js';

export const wakeMarkerPrefix = '<!-- TUTTI_MODE_CHECKPOINT_WAKE ';
export const wakeMarkerSuffix = ' -->';

export interface WakeMarker {
	v: 1;
	kind: CheckpointKind;
	issueId: string;
	checkpointId: string;
	graphRevision: number;
}

export function wakeMarkerLine(marker: Omit<WakeMarker, 'v'>): string {
	const payload: WakeMarker = { v: 1, kind: marker.kind, issueId: marker.issueId, checkpointId: marker.checkpointId, graphRevision: marker.graphRevision };
	// JSON.stringify escapes nothing that could close the comment except a literal "-->" inside a string value.
	return wakeMarkerPrefix + JSON.stringify(payload).replace(/-->/g, '--\\u003e') + wakeMarkerSuffix;
}

/**
 * The marker of a wake prompt and the body after it, or null when the first line is not a well-formed marker
 * (older or foreign messages render as plain text).
 */
export function parseWakeMarker(prompt: string): { marker: WakeMarker; body: string } | null {
	const end = prompt.indexOf('\n');
	const first = end < 0 ? prompt : prompt.slice(0, end);
	if (!first.startsWith(wakeMarkerPrefix) || !first.endsWith(wakeMarkerSuffix)) { return null; }
	let parsed: unknown;
	try { parsed = JSON.parse(first.slice(wakeMarkerPrefix.length, first.length - wakeMarkerSuffix.length)); } catch { return null; }
	if (parsed === null || typeof parsed !== 'object') { return null; }
	const m = parsed as Record<string, unknown>;
	if (m.v !== 1 || typeof m.issueId !== 'string' || typeof m.checkpointId !== 'string'
		|| typeof m.graphRevision !== 'number' || !checkpointKinds.includes(m.kind as CheckpointKind)) { return null; }
	const marker: WakeMarker = { v: 1, kind: m.kind as CheckpointKind, issueId: m.issueId, checkpointId: m.checkpointId, graphRevision: m.graphRevision };
	return { marker, body: end < 0 ? '' : prompt.slice(end + 1).replace(/^\n/, '') };
}
