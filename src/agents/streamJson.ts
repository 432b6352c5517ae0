// Shared reading helpers for the agents' JSON-lines streams (Claude Code stream-json, Codex exec --json). Pure;
// nothing here throws on garbage.

export type Json = Record<string, unknown>;

/** Bounds so a runaway stream cannot grow a Turn's facts without limit. */
export const turnFactLimits = { assistantTextChars: 16_000, toolCalls: 200, errors: 20, errorChars: 2_000 } as const;

export function isObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
	return typeof v === 'string' ? v : undefined;
}

/** A non-negative whole token count, 0 for anything else. */
export function count(v: unknown): number {
	return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

/** One stream line as a JSON object, or undefined for partial, garbage or non-object lines. */
export function parseLine(line: string): Json | undefined {
	const trimmed = line.trim();
	if (!trimmed.startsWith('{')) { return undefined; }
	try {
		const v: unknown = JSON.parse(trimmed);
		return isObject(v) ? v : undefined;
	} catch {
		return undefined;
	}
}
