// Results of read statements kept until the data changes: a hot read that runs the same statements again and again
// with nothing committed in between (a UI or an agent polling `issue list`) answers from memory instead of stepping
// SQLite (sql.js) for each of them. The Store bumps its data generation at every commit that wrote something and at
// every reload from disk; a lookup at another generation starts from empty. Cached rows are frozen: a caller that
// tried to change one would throw instead of changing what the next reader sees.
import type { Reader, Row, SqlValue } from './tx.js';

/** Entries kept before the cache starts over (bounds memory on a workspace with very many issues). */
const maxEntries = 20_000;

export class ReadCache {
	#generation = -1;
	readonly #entries = new Map<string, Row | undefined | readonly Row[]>();

	/** A Reader over `inner` that answers each (statement, params) once per data generation. */
	reader(inner: Reader, generation: number): Reader {
		if (generation !== this.#generation) {
			this.#entries.clear();
			this.#generation = generation;
		}
		const entries = this.#entries;
		const remember = <T extends Row | undefined | readonly Row[]>(key: string, value: T): T => {
			if (entries.size >= maxEntries) { entries.clear(); }
			entries.set(key, value);
			return value;
		};
		return {
			get: (sql: string, params: readonly SqlValue[] = []): Row | undefined => {
				const key = cacheKey('g', sql, params);
				if (entries.has(key)) { return entries.get(key) as Row | undefined; }
				const row = inner.get(sql, params);
				return remember(key, row === undefined ? undefined : Object.freeze(row));
			},
			all: (sql: string, params: readonly SqlValue[] = []): Row[] => {
				const key = cacheKey('a', sql, params);
				const hit = entries.get(key);
				if (hit !== undefined) { return hit as Row[]; }
				const rows = inner.all(sql, params);
				for (const row of rows) { Object.freeze(row); }
				return remember(key, Object.freeze(rows)) as Row[];
			},
		};
	}
}

function cacheKey(kind: 'g' | 'a', sql: string, params: readonly SqlValue[]): string {
	let key = `${kind}\u0000${sql}`;
	for (const p of params) {
		key += p instanceof Uint8Array ? `\u0000b${Buffer.from(p).toString('base64')}` : `\u0000${typeof p === 'number' ? 'n' : p === null ? 'z' : 's'}${String(p)}`;
	}
	return key;
}
