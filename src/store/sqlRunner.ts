// Statement execution on one sql.js connection: prepared statements cached by SQL text, the read-only view handed
// to store.read(), and the recording view handed to store.transaction() (every write becomes part of the frame).
import type { Database } from 'sql.js';
import type { JournalStatement } from './journal.js';
import type { Reader, Row, SqlValue, Tx } from './tx.js';

const statementCacheLimit = 1_000;

export type StatementKind = 'read' | 'write' | 'control';

const leadingNoise = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/** Whether a statement only reads (never journaled), writes (journaled) or controls transactions (refused). */
export function statementKind(sql: string): StatementKind {
	const text = sql.replace(leadingNoise, '');
	const word = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase();
	switch (word) {
		case 'SELECT':
		case 'VALUES':
		case 'EXPLAIN':
			return 'read';
		case 'WITH':
			return /\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text) ? 'write' : 'read';
		case 'PRAGMA':
			return text.includes('=') ? 'write' : 'read';
		case 'BEGIN':
		case 'COMMIT':
		case 'END':
			return 'control';
		case 'ROLLBACK':
			return /^ROLLBACK\s+(?:TRANSACTION\s+)?TO\b/i.test(text) ? 'write' : 'control';
		default:
			return 'write';
	}
}

interface CachedStatement {
	readonly statement: ReturnType<Database['prepare']>;
	readonly kind: StatementKind;
}

/** Prepared statements by SQL text on one sql.js connection. */
export class SqlRunner {
	readonly #cache = new Map<string, CachedStatement>();

	constructor(readonly db: Database) {}

	entry(sql: string): CachedStatement {
		let entry = this.#cache.get(sql);
		if (!entry) {
			if (this.#cache.size >= statementCacheLimit) {
				const [oldestSql, oldest] = this.#cache.entries().next().value as [string, CachedStatement];
				oldest.statement.free();
				this.#cache.delete(oldestSql);
			}
			entry = { statement: this.db.prepare(sql), kind: statementKind(sql) };
			this.#cache.set(sql, entry);
		}
		return entry;
	}

	run(sql: string, params: readonly SqlValue[]): number {
		this.entry(sql).statement.run(params as SqlValue[]);
		return this.db.getRowsModified();
	}

	get(sql: string, params: readonly SqlValue[]): Row | undefined {
		const { statement } = this.entry(sql);
		try {
			statement.bind(params as SqlValue[]);
			return statement.step() ? (statement.getAsObject() as Row) : undefined;
		} finally {
			statement.reset();
		}
	}

	all(sql: string, params: readonly SqlValue[]): Row[] {
		const { statement } = this.entry(sql);
		const rows: Row[] = [];
		try {
			statement.bind(params as SqlValue[]);
			// Column names once per query, not once per row as getAsObject() does (a third of a 1,000-row read).
			let names: string[] | undefined;
			while (statement.step()) {
				names ??= statement.getColumnNames();
				const values = statement.get();
				const row: Row = {};
				for (let i = 0; i < names.length; i++) {
					row[names[i] as string] = values[i] as SqlValue;
				}
				rows.push(row);
			}
		} finally {
			statement.reset();
		}
		return rows;
	}

	rollbackQuietly(): void {
		try {
			this.run('ROLLBACK', []);
		} catch {
			// the failing statement already ended the transaction
		}
	}

	clear(): void {
		for (const { statement } of this.#cache.values()) {
			statement.free();
		}
		this.#cache.clear();
	}
}

function refuseControl(sql: string): never {
	throw new Error(`Transaction control statements are managed by the Store; use store.transaction() instead of: ${sql}`);
}

export class ReadScope implements Reader {
	#open = true;

	constructor(readonly runner: SqlRunner) {}

	get(sql: string, params: readonly SqlValue[] = []): Row | undefined {
		this.#check(sql);
		return this.runner.get(sql, params);
	}

	all(sql: string, params: readonly SqlValue[] = []): Row[] {
		this.#check(sql);
		return this.runner.all(sql, params);
	}

	close(): void {
		this.#open = false;
	}

	#check(sql: string): void {
		if (!this.#open) {
			throw new Error('This Reader was used after its read() callback returned.');
		}
		if (this.runner.entry(sql).kind !== 'read') {
			throw new Error(`store.read() only runs read statements; write through store.transaction(): ${sql}`);
		}
	}
}

/** A write transaction's view: runs statements and records every write (SQL + params) for the journal frame. */
export class TransactionScope implements Tx {
	readonly statements: JournalStatement[] = [];
	#open = true;

	constructor(readonly runner: SqlRunner) {}

	run(sql: string, params: readonly SqlValue[] = []): number {
		return this.#write(sql, params, () => this.runner.run(sql, params));
	}

	get(sql: string, params: readonly SqlValue[] = []): Row | undefined {
		return this.#maybeWrite(sql, params, () => this.runner.get(sql, params));
	}

	all(sql: string, params: readonly SqlValue[] = []): Row[] {
		return this.#maybeWrite(sql, params, () => this.runner.all(sql, params));
	}

	close(): void {
		this.#open = false;
	}

	#maybeWrite<R>(sql: string, params: readonly SqlValue[], execute: () => R): R {
		this.#checkOpen();
		const kind = this.runner.entry(sql).kind;
		return kind === 'read' ? execute() : this.#write(sql, params, execute);
	}

	#write<R>(sql: string, params: readonly SqlValue[], execute: () => R): R {
		this.#checkOpen();
		if (this.runner.entry(sql).kind === 'control') {
			refuseControl(sql);
		}
		const recorded = params.slice();
		try {
			const result = execute();
			this.statements.push({ sql, params: recorded });
			return result;
		} catch (e) {
			// It may have had partial effects (OR FAIL); replay runs it again and expects it to fail again.
			this.statements.push({ sql, params: recorded, failed: true });
			throw e;
		}
	}

	#checkOpen(): void {
		if (!this.#open) {
			throw new Error('This Tx was used after its transaction() callback returned.');
		}
	}
}
