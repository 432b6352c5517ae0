// What the outside implements for the domain. Every rule reads time through Clock (injectable in tests).
export interface Clock {
	now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** Random identifiers for new rows (runs, sessions, stop events). Deterministic ids come from core/ids.ts. */
export interface IdSource {
	next(prefix: string): string;
}
