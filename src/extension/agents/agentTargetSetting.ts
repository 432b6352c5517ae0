// The `tutti.agentTargets` setting as Tutti: Add Agent writes it: a new target appended to the existing ones (kept
// verbatim), its id unique, checked by the Host's own config schema before anything is written. vscode-free.
import { z } from 'zod';
import { hostConfigFile } from '../../host/config.js';
import type { AgentAdapter } from './agentDiscovery.js';

export interface NewAgentTarget {
	readonly adapter: AgentAdapter;
	/** The executable; omitted from the setting when empty (the Host then looks the adapter's name up on PATH). */
	readonly path: string;
	/** Default: the adapter's name, made unique. */
	readonly id?: string;
	readonly model?: string;
	/** Claude Code only: `--allowedTools` entries ("Read", "Bash(npm test:*)"). */
	readonly allowedTools?: readonly string[];
	/** Claude Code only: a tool call outside allowedTools asks the developer (`ask`) or is denied silently. */
	readonly approvals?: 'ask' | 'allowed-tools-only';
}

export type AgentTargetsUpdate =
	| { readonly ok: true; readonly id: string; readonly targets: readonly Record<string, unknown>[] }
	| { readonly ok: false; readonly error: string };

/** The ids already taken in the current setting value (anything that is not a list counts as empty). */
export function existingTargetIds(current: unknown): string[] {
	if (!Array.isArray(current)) { return []; }
	return current.flatMap((t: unknown) => (typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'string' ? [(t as { id: string }).id] : []));
}

/** `base`, or `base-2`, `base-3`, … the first one not taken. */
export function uniqueTargetId(base: string, taken: readonly string[]): string {
	const set = new Set(taken);
	if (!set.has(base)) { return base; }
	for (let n = 2; ; n++) {
		if (!set.has(`${base}-${n}`)) { return `${base}-${n}`; }
	}
}

/** Splits "Read, Edit,Bash(npm test:*)" into entries; commas inside parentheses stay. */
export function parseAllowedTools(text: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let current = '';
	for (const ch of text) {
		if (ch === '(') { depth++; }
		if (ch === ')') { depth = Math.max(0, depth - 1); }
		if ((ch === ',' || ch === '\n') && depth === 0) {
			if (current.trim() !== '') { out.push(current.trim()); }
			current = '';
			continue;
		}
		current += ch;
	}
	if (current.trim() !== '') { out.push(current.trim()); }
	return out;
}

/** The setting's new value with `target` appended, or why it cannot be written (the Host would refuse it). */
export function withAgentTarget(current: unknown, target: NewAgentTarget): AgentTargetsUpdate {
	const existing: Record<string, unknown>[] = Array.isArray(current) ? current.filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null) : [];
	const taken = existingTargetIds(existing);
	const requested = target.id?.trim();
	if (requested !== undefined && requested !== '' && taken.includes(requested)) {
		return { ok: false, error: `An agent target named "${requested}" already exists; choose another name.` };
	}
	const id = requested !== undefined && requested !== '' ? requested : uniqueTargetId(target.adapter, taken);
	const entry: Record<string, unknown> = { id, adapter: target.adapter };
	if (target.path.trim() !== '') { entry['path'] = target.path.trim(); }
	if (target.model !== undefined && target.model.trim() !== '') { entry['model'] = target.model.trim(); }
	if (target.adapter === 'claude' && target.allowedTools !== undefined && target.allowedTools.length > 0) { entry['allowedTools'] = [...target.allowedTools]; }
	if (target.adapter === 'claude' && target.approvals !== undefined) { entry['approvals'] = target.approvals; }
	const targets = [...existing, entry];
	const checked = hostConfigFile.safeParse({ agentTargets: targets });
	if (!checked.success) {
		return { ok: false, error: `tutti.agentTargets would be invalid: ${z.prettifyError(checked.error).replace(/\s*\n\s*/g, ' ')}` };
	}
	return { ok: true, id, targets };
}
