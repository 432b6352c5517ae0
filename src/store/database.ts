// The durable store: sql.js in memory, every committed write transaction appended to a checksummed journal and
// fsynced before the commit resolves, periodic atomic snapshots that truncate the journal (SPEC §3).
//
// Visibility note: a transaction's writes are visible to later reads as soon as its body returns, while its fsync
// may still be in flight (at most one group commit old). Any later write transaction is journaled after it, so it
// can never become durable without it; callers reply only after their own transaction (or `read` after
// `transaction`) resolves.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { JournalWriter, decodeFramePayload, encodeFrame, encodeFramePayload, scanJournal } from './journal.js';
import type { JournalStatement, ScannedFrame } from './journal.js';
import { Lease, acquireLease, leasePath } from './lease.js';
import { assertSchemaNotNewer, migrate, migrations as shippedMigrations, schemaVersionOf } from './migrations.js';
import { checkSnapshotIdentity, readFileIfExists, removeStaleTemporary, tuttiApplicationId, writeFileAtomically } from './snapshot.js';
import { loadSqlJs } from './sqlJsLoader.js';
import { StoreError, leftUntouched } from './storeErrors.js';
import type { Reader, Row, SqlValue, Tx } from './tx.js';

export interface StoreOptions {
	/** The `.tutti` directory; created (with a `.gitignore` of `*`) if missing. */
	readonly dir: string;
	/** Default `tutti.sqlite`. The journal sits beside it as `<name>.journal`. */
	readonly fileName?: string;
	/** Journal size that triggers an automatic snapshot; default 8 MiB. */
	readonly snapshotEveryBytes?: number;
	/** Take `.tutti/host.lease` (one Host per store); default true. */
	readonly lease?: boolean;
	/** The migration list; default the shipped one. Tests pass their own. */
	readonly migrations?: readonly string[];
	/** Unix-ms clock for stats (the lease always uses wall-clock time); default Date.now. */
	readonly now?: () => number;
	/** Run PRAGMA quick_check on the snapshot at open (about 0.3 s at 100k tasks); default false. */
	readonly checkIntegrity?: boolean;
}

export interface StorePaths {
	readonly dir: string;
	readonly database: string;
	readonly journal: string;
	readonly lease: string;
	readonly gitignore: string;
}

export interface StoreStats {
	/** Sequence number of the last committed write transaction. */
	readonly seq: number;
	/** Frames in the current journal (since the last snapshot). */
	readonly frames: number;
	readonly journalBytes: number;
	/** Journal fsyncs since open (group commit makes this smaller than the number of commits). */
	readonly syncs: number;
	readonly snapshots: number;
	/** Unix ms of the last snapshot taken by this Store, undefined if none yet. */
	readonly lastSnapshotAt: number | undefined;
	readonly lastSnapshotError: string | undefined;
	readonly schemaVersion: number;
	/** Frames replayed from the journal when the store was opened. */
	readonly replayedOnOpen: number;
}

const defaultFileName = 'tutti.sqlite';
const defaultSnapshotEveryBytes = 8 * 1024 * 1024;
const snapshotRetryDelayMs = 5_000;
const statementCacheLimit = 1_000;
const stateTable = 'tutti_store_state';

export function storePaths(dir: string, fileName = defaultFileName): StorePaths {
	const stem = extname(fileName) ? fileName.slice(0, -extname(fileName).length) : fileName;
	return {
		dir,
		database: join(dir, fileName),
		journal: join(dir, `${stem}.journal`),
		lease: leasePath(dir),
		gitignore: join(dir, '.gitignore'),
	};
}

// ---- statements ----

type StatementKind = 'read' | 'write' | 'control';

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
class SqlRunner {
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
			while (statement.step()) {
				rows.push(statement.getAsObject() as Row);
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

class ReadScope implements Reader {
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
class TransactionScope implements Tx {
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

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function messageOf(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}

// ---- opening and recovery ----

interface StoreState {
	readonly storeId: string;
	readonly appliedSeq: number;
}

interface Recovered {
	readonly runner: SqlRunner;
	readonly journal: JournalWriter;
	readonly storeId: string;
	readonly seq: number;
	readonly replayed: number;
}

function applyConnectionPragmas(db: Database): void {
	db.exec('PRAGMA foreign_keys = ON; PRAGMA journal_mode = MEMORY; PRAGMA temp_store = MEMORY;');
}

function readState(runner: SqlRunner, file: string): StoreState {
	let row: Row | undefined;
	try {
		row = runner.get(`SELECT store_id, applied_seq FROM ${stateTable} WHERE id = 1`, []);
	} catch {
		row = undefined;
	}
	if (!row || typeof row.store_id !== 'string' || typeof row.applied_seq !== 'number') {
		throw new StoreError('store_corrupt', `${file} carries Tutti's application id but not its store state table. ${leftUntouched(file)}`, file);
	}
	return { storeId: row.store_id, appliedSeq: row.applied_seq };
}

function writeAppliedSeq(runner: SqlRunner, seq: number): void {
	runner.run(`UPDATE ${stateTable} SET applied_seq = ? WHERE id = 1`, [seq]);
}

/** SQLite's words for a damaged database image. */
export function isCorruptionMessage(message: string): boolean {
	return /malformed|SQLITE_CORRUPT|file is not a database|disk image/i.test(message);
}

function damagedError(file: string, why: string): StoreError {
	return new StoreError('store_corrupt', `${file} is damaged: ${why}. ${leftUntouched(file)}`, file);
}

function openSnapshot(SQL: SqlJsStatic, bytes: Buffer, file: string, checkIntegrity: boolean): SqlRunner {
	checkSnapshotIdentity(bytes, file);
	let db: Database | undefined;
	let verdict: unknown = 'ok';
	try {
		db = new SQL.Database(bytes);
		db.exec('SELECT count(*) FROM sqlite_master');
		if (checkIntegrity) {
			verdict = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
		}
		applyConnectionPragmas(db);
	} catch (e) {
		db?.close();
		throw damagedError(file, `SQLite cannot read it (${messageOf(e)})`);
	}
	if (verdict !== 'ok') {
		db.close();
		throw damagedError(file, `PRAGMA quick_check reports ${String(verdict)}`);
	}
	return new SqlRunner(db);
}

/**
 * Re-runs one frame's statements as one (nested) transaction: a SAVEPOINT inside the single transaction that wraps
 * the whole replay (about twice as fast as BEGIN/COMMIT per frame). Any failure aborts the open.
 */
function replayFrame(runner: SqlRunner, frame: ScannedFrame, file: string): void {
	const fail = (why: string): StoreError =>
		new StoreError('store_corrupt', `Replaying frame ${frame.seq} (byte ${frame.start}) of ${file} failed: ${why}. ${leftUntouched(file)}`, file, { seq: frame.seq });
	let statements: JournalStatement[];
	try {
		statements = decodeFramePayload(frame.payload);
	} catch (e) {
		throw fail(messageOf(e));
	}
	runner.run('SAVEPOINT frame', []);
	try {
		for (const s of statements) {
			let threw = false;
			try {
				runner.entry(s.sql).statement.run(s.params as SqlValue[]);
			} catch (e) {
				if (!s.failed) {
					throw e;
				}
				threw = true;
			}
			if (s.failed && !threw) {
				throw new Error(`a statement that failed when committed succeeded on replay (non-deterministic SQL?): ${s.sql}`);
			}
		}
		runner.run('RELEASE frame', []);
	} catch (e) {
		runner.rollbackQuietly();
		throw fail(messageOf(e));
	}
}

async function createStore(SQL: SqlJsStatic, paths: StorePaths, list: readonly string[]): Promise<Recovered> {
	const storeId = randomBytes(16).toString('hex');
	const runner = new SqlRunner(new SQL.Database());
	try {
		applyConnectionPragmas(runner.db);
		runner.db.exec(`PRAGMA application_id = ${tuttiApplicationId};
			CREATE TABLE ${stateTable} (id INTEGER PRIMARY KEY CHECK (id = 1), store_id TEXT NOT NULL, applied_seq INTEGER NOT NULL);`);
		runner.run(`INSERT INTO ${stateTable} (id, store_id, applied_seq) VALUES (1, ?, 0)`, [storeId]);
		migrate(runner.db, paths.database, list);
		await writeFileAtomically(paths.database, runner.db.export());
		const journal = JournalWriter.create(paths.journal, storeId, 0);
		return { runner, journal, storeId, seq: 0, replayed: 0 };
	} catch (e) {
		runner.clear();
		runner.db.close();
		throw e;
	}
}

async function recoverStore(SQL: SqlJsStatic, paths: StorePaths, list: readonly string[], checkIntegrity: boolean): Promise<Recovered> {
	const dbBytes = readFileIfExists(paths.database);
	const journalBytes = readFileIfExists(paths.journal);
	if (!dbBytes) {
		if (journalBytes) {
			throw new StoreError(
				'store_corrupt',
				`The store journal ${paths.journal} exists but its database ${paths.database} does not. ${leftUntouched(paths.journal)}`,
				paths.journal,
			);
		}
		return createStore(SQL, paths, list);
	}
	const runner = openSnapshot(SQL, dbBytes, paths.database, checkIntegrity);
	try {
		assertSchemaNotNewer(schemaVersionOf(runner.db), list, paths.database);
		const { storeId, appliedSeq } = readState(runner, paths.database);
		let seq = appliedSeq;
		let replayed = 0;
		/** How to continue the journal when no migration forces a fresh one. */
		let continueJournal: () => JournalWriter;
		if (!journalBytes) {
			if (appliedSeq !== 0) {
				throw new StoreError(
					'store_corrupt',
					`The store journal ${paths.journal} is missing although ${paths.database} has committed transactions. ${leftUntouched(paths.database)}`,
					paths.journal,
				);
			}
			continueJournal = () => JournalWriter.create(paths.journal, storeId, appliedSeq);
		} else {
			const scan = scanJournal(journalBytes, paths.journal);
			if (scan.storeId !== storeId) {
				throw new StoreError(
					'store_foreign',
					`The store journal ${paths.journal} belongs to another store than ${paths.database}. ${leftUntouched(paths.journal)}`,
					paths.journal,
				);
			}
			if (scan.baseSeq > appliedSeq) {
				throw new StoreError(
					'store_corrupt',
					`The store journal ${paths.journal} continues from transaction ${scan.baseSeq}, but ${paths.database} only holds ` +
						`transactions up to ${appliedSeq}; the ones in between are missing. ${leftUntouched(paths.database)}`,
					paths.journal,
				);
			}
			const pending = scan.frames.filter((f) => f.seq > appliedSeq);
			runner.run('BEGIN', []);
			for (const frame of pending) {
				replayFrame(runner, frame, paths.journal); // rolls the whole replay back when it throws
			}
			runner.run('COMMIT', []);
			replayed = pending.length;
			seq = pending.length > 0 ? (pending[pending.length - 1] as ScannedFrame).seq : appliedSeq;
			if (scan.tornBytes > 0 || scan.baseSeq !== appliedSeq) {
				// Drop the torn tail and the frames the snapshot already holds: rewrite atomically.
				const tail = pending.length > 0 ? journalBytes.subarray((pending[0] as ScannedFrame).start, scan.goodEnd) : Buffer.alloc(0);
				continueJournal = () => JournalWriter.create(paths.journal, storeId, appliedSeq, tail, pending.length);
			} else {
				continueJournal = () => JournalWriter.openExisting(paths.journal, storeId, journalBytes.length, scan.frames.length);
			}
		}
		const migration = migrate(runner.db, paths.database, list);
		if (migration.to === migration.from) {
			return { runner, journal: continueJournal(), storeId, seq, replayed };
		}
		// Migrations are not journaled: make them durable as a snapshot before any new frame.
		writeAppliedSeq(runner, seq);
		await writeFileAtomically(paths.database, runner.db.export());
		return { runner, journal: JournalWriter.create(paths.journal, storeId, seq), storeId, seq, replayed };
	} catch (e) {
		runner.clear();
		runner.db.close();
		throw e;
	}
}

function ensureStoreDirectory(paths: StorePaths): void {
	mkdirSync(paths.dir, { recursive: true });
	if (!existsSync(paths.gitignore)) {
		writeFileSync(paths.gitignore, '*\n');
	}
}

// ---- the Store ----

export class Store {
	readonly paths: StorePaths;
	readonly storeId: string;
	readonly #runner: SqlRunner;
	readonly #journal: JournalWriter;
	readonly #lease: Lease | undefined;
	readonly #snapshotEveryBytes: number;
	readonly #now: () => number;
	readonly #replayed: number;
	readonly #schemaVersion: number;
	#seq: number;
	#inTransaction = false;
	#closed = false;
	#snapshotChain: Promise<void> = Promise.resolve();
	#snapshotScheduled = false;
	#snapshotRetryAt = 0;
	#snapshots = 0;
	#lastSnapshotAt: number | undefined;
	#lastSnapshotError: string | undefined;
	/** Set when SQLite reports the in-memory image damaged: no more writes or snapshots (never overwrite). */
	#corruption: StoreError | undefined;

	private constructor(paths: StorePaths, recovered: Recovered, lease: Lease | undefined, options: StoreOptions) {
		this.paths = paths;
		this.storeId = recovered.storeId;
		this.#runner = recovered.runner;
		this.#journal = recovered.journal;
		this.#lease = lease;
		this.#seq = recovered.seq;
		this.#schemaVersion = schemaVersionOf(recovered.runner.db);
		this.#replayed = recovered.replayed;
		this.#snapshotEveryBytes = options.snapshotEveryBytes ?? defaultSnapshotEveryBytes;
		this.#now = options.now ?? Date.now;
	}

	/** Opens (or creates) the store in `options.dir`: lease, snapshot, journal replay, migrations. */
	static async open(options: StoreOptions): Promise<Store> {
		const paths = storePaths(options.dir, options.fileName);
		ensureStoreDirectory(paths);
		const lease = options.lease === false ? undefined : acquireLease(paths.dir);
		try {
			if (lease) {
				removeStaleTemporary(paths.database);
				removeStaleTemporary(paths.journal);
			}
			const SQL = await loadSqlJs();
			const recovered = await recoverStore(SQL, paths, options.migrations ?? shippedMigrations, options.checkIntegrity ?? false);
			return new Store(paths, recovered, lease, options);
		} catch (e) {
			lease?.release();
			throw e;
		}
	}

	/**
	 * Runs `fn` synchronously inside BEGIN/COMMIT. If it throws, the transaction is rolled back, nothing is
	 * journaled and the promise rejects with that error. Otherwise its writes are appended to the journal as one
	 * frame and the promise resolves with fn's result once that frame is fsynced.
	 */
	transaction<T>(fn: (tx: Tx) => T): Promise<T> {
		const refusal = this.#writeRefusal();
		if (refusal) {
			return Promise.reject(refusal);
		}
		if (this.#inTransaction) {
			return Promise.reject(new Error('Store.transaction() cannot be nested; use the Tx you were given.'));
		}
		const scope = new TransactionScope(this.#runner);
		let result!: T;
		let payload: Buffer | undefined;
		this.#inTransaction = true;
		try {
			this.#runner.run('BEGIN', []);
			result = fn(scope);
			if (isThenable(result)) {
				result.then(undefined, () => undefined);
				throw new TypeError('A Store transaction body must be synchronous; it returned a promise (rolled back).');
			}
			if (scope.statements.length > 0) {
				payload = encodeFramePayload(scope.statements);
			}
			this.#runner.run('COMMIT', []);
		} catch (e) {
			this.#runner.rollbackQuietly();
			this.#noticeCorruption(e);
			return Promise.reject(e);
		} finally {
			scope.close();
			this.#inTransaction = false;
		}
		if (!payload) {
			// Nothing to journal, but what it read may still be on its way to disk.
			return this.#journal.whenDurable().then(() => result);
		}
		this.#seq++;
		return this.#journal.append(encodeFrame(this.#seq, payload)).then(() => {
			this.#scheduleSnapshotIfDue();
			return result;
		});
	}

	/** Synchronous reads (statements cached by SQL text). Write statements are refused. */
	read<T>(fn: (r: Reader) => T): T {
		if (this.#closed) {
			throw this.#closedError();
		}
		const scope = new ReadScope(this.#runner);
		try {
			return fn(scope);
		} catch (e) {
			this.#noticeCorruption(e);
			throw e;
		} finally {
			scope.close();
		}
	}

	/** Writes the whole database atomically and truncates the journal. Snapshots run one at a time. */
	snapshot(): Promise<void> {
		if (this.#closed) {
			return Promise.reject(this.#closedError());
		}
		const run = this.#snapshotChain.then(() => this.#takeSnapshot());
		this.#snapshotChain = run.catch(() => undefined);
		return run;
	}

	/** Takes a final snapshot, closes the journal and releases the lease. Further calls are refused. */
	async close(): Promise<void> {
		if (this.#closed) {
			return;
		}
		this.#closed = true;
		let failure: unknown;
		try {
			await this.#journal.whenDurable().catch(() => undefined);
			await this.#snapshotChain;
			if (!this.#journal.failure && !this.#corruption) {
				await this.#takeSnapshot();
			}
		} catch (e) {
			failure = e;
		}
		await this.#journal.close();
		this.#runner.clear();
		this.#runner.db.close();
		this.#lease?.release();
		if (failure) {
			throw failure;
		}
	}

	stats(): StoreStats {
		return {
			seq: this.#seq,
			frames: this.#journal.frames,
			journalBytes: this.#journal.bytes,
			syncs: this.#journal.syncs,
			snapshots: this.#snapshots,
			lastSnapshotAt: this.#lastSnapshotAt,
			lastSnapshotError: this.#lastSnapshotError,
			schemaVersion: this.#schemaVersion,
			replayedOnOpen: this.#replayed,
		};
	}

	async #takeSnapshot(): Promise<void> {
		const refusal = this.#journal.failure ?? this.#corruption;
		if (refusal) {
			throw refusal;
		}
		if (this.#journal.frames === 0) {
			return; // the snapshot on disk already holds everything
		}
		const seq = this.#seq;
		writeAppliedSeq(this.#runner, seq);
		const image = this.#runner.db.export();
		const mark = this.#journal.mark();
		await writeFileAtomically(this.paths.database, image);
		await this.#journal.rotate(mark, seq);
		this.#snapshots++;
		this.#lastSnapshotAt = this.#now();
		this.#lastSnapshotError = undefined;
	}

	#scheduleSnapshotIfDue(): void {
		if (this.#snapshotScheduled || this.#closed || this.#journal.bytes < this.#snapshotEveryBytes || this.#now() < this.#snapshotRetryAt) {
			return;
		}
		this.#snapshotScheduled = true;
		// After the reply path: the commit's continuations run first.
		setImmediate(() => {
			if (this.#closed) {
				this.#snapshotScheduled = false;
				return;
			}
			this.snapshot()
				.catch((e: unknown) => {
					this.#lastSnapshotError = messageOf(e);
					this.#snapshotRetryAt = this.#now() + snapshotRetryDelayMs;
				})
				.finally(() => {
					this.#snapshotScheduled = false;
					// Commits made while it ran may already have filled the journal again.
					this.#scheduleSnapshotIfDue();
				});
		});
	}

	#writeRefusal(): StoreError | undefined {
		return this.#closed ? this.#closedError() : (this.#journal.failure ?? this.#corruption);
	}

	#noticeCorruption(e: unknown): void {
		if (!this.#corruption && isCorruptionMessage(messageOf(e))) {
			this.#corruption = damagedError(this.paths.database, `SQLite reported ${messageOf(e)} while the store was open; no further writes or snapshots`);
		}
	}

	#closedError(): StoreError {
		return new StoreError('store_closed', `The store ${this.paths.database} is closed.`, this.paths.database);
	}
}
