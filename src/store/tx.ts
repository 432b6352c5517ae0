// The contract between the store (src/store/database.ts) and everything that reads or writes through it.
export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, SqlValue>;

/** Read access. Statements are cached by SQL text. */
export interface Reader {
	get(sql: string, params?: readonly SqlValue[]): Row | undefined;
	all(sql: string, params?: readonly SqlValue[]): Row[];
}

/**
 * A write transaction. The body runs synchronously between BEGIN and COMMIT; every `run` is recorded
 * (SQL + bound parameters) into the journal frame of this transaction. Never call SQL functions that
 * are not deterministic (random(), datetime('now')): bind every id and time as a parameter.
 */
export interface Tx extends Reader {
	/** Returns the number of changed rows. */
	run(sql: string, params?: readonly SqlValue[]): number;
}
