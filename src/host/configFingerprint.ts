// What this machine remembers of the `.tutti/config.json` a Host of a known store last started with: the SHA-256
// of its bytes, and one SHA-256 per top-level setting and per agent target (so a changed config can be named by
// what changed, without keeping the config itself: its env values may hold secrets). A missing file has its own
// value. Pure over the bytes; the record it goes into is knownStores.ts.
import { createHash } from 'node:crypto';

export interface ConfigFingerprint {
	/** SHA-256 (hex) of the file's bytes, or `absent` when there is no file. */
	readonly sha256: string;
	/** SHA-256 of each top-level setting's value (canonical JSON), by setting name. */
	readonly settings: Readonly<Record<string, string>>;
	/** SHA-256 of each agent target (canonical JSON), by target id. */
	readonly agentTargets: Readonly<Record<string, string>>;
}

export const absentConfigSha256 = 'absent';

function sha256(data: string | Uint8Array): string {
	return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys in a fixed order, so equal values hash alike whatever order the file wrote them in. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) { return `[${value.map(canonical).join(',')}]`; }
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** The fingerprint of the config file's bytes (undefined: no file). Bytes that are not a JSON object have no settings. */
export function fingerprintConfig(bytes: Uint8Array | undefined): ConfigFingerprint {
	if (bytes === undefined) { return { sha256: absentConfigSha256, settings: {}, agentTargets: {} }; }
	let value: unknown;
	try {
		value = JSON.parse(Buffer.from(bytes).toString('utf8'));
	} catch {
		value = undefined;
	}
	const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
	const settings = Object.fromEntries(Object.entries(object).map(([key, v]) => [key, sha256(canonical(v))]));
	const targets = Array.isArray(object['agentTargets']) ? object['agentTargets'] as unknown[] : [];
	const agentTargets = Object.fromEntries(targets.map((t, index) => {
		const id = typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'string' ? (t as { id: string }).id : `#${index}`;
		return [id, sha256(canonical(t))];
	}));
	return { sha256: sha256(bytes), settings, agentTargets };
}

/** The names that differ between two fingerprints (`key` maps), sorted: added, removed or changed. */
function differing(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
	return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();
}

/**
 * What changed from `before` to `after`, in words (`agentTargets (mark), worktreeSetup`); `undefined` when the
 * settings are the same (the bytes may still differ: spacing, key order). `before` undefined: nothing is known.
 */
export function configChange(before: ConfigFingerprint | undefined, after: ConfigFingerprint): string | undefined {
	if (before === undefined) { return after.sha256 === absentConfigSha256 ? undefined : 'no record of the config.json it last ran with'; }
	if (before.sha256 === after.sha256) { return undefined; }
	if ((before.sha256 === absentConfigSha256) !== (after.sha256 === absentConfigSha256)) {
		return after.sha256 === absentConfigSha256 ? 'the file was removed' : `the file was added (${Object.keys(after.settings).sort().join(', ') || 'no settings'})`;
	}
	const keys = differing(before.settings, after.settings);
	if (keys.length === 0) { return undefined; }
	return keys.map((key) => {
		if (key !== 'agentTargets') { return key; }
		const targets = differing(before.agentTargets, after.agentTargets);
		return targets.length > 0 ? `agentTargets (${targets.join(', ')})` : key;
	}).join(', ');
}
