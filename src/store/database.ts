// The durable store: sql.js in memory, every committed write transaction appended to a checksummed journal and
// fsynced before the commit resolves, periodic atomic snapshots that truncate the journal (SPEC §3).
//
// Visibility note: a transaction's writes are visible to later reads as soon as its body returns, while its fsync
// may still be in flight (at most one group commit old). Any later write transaction is journaled after it, so it
// can never become durable without it; callers reply only after their own transaction (or `read` after
// `transaction`) resolves.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Emitter, type Event } from '../core/events.js';
import { encodeFrame, encodeFramePayload } from './journal.js';
import type { JournalWriter } from './journalWriter.js';
import { acquireLease, leasePath } from './lease.js';
import type { Lease } from './lease.js';
import { migrations as shippedMigrations, schemaVersionOf } from './migrations.js';
import { damagedError, isSqliteCorruption, recoverStore, writeAppliedSeq } from './recovery.js';
import type { Recovered } from './recovery.js';
import { removeStaleTemporary, writeFileAtomically } from './snapshot.js';
import { loadSqlJs } from './sqlJsLoader.js';
import { ReadScope, TransactionScope } from './sqlRunner.js';
import type { SqlRunner } from './sqlRunner.js';
import { StoreError, errorMessage } from './storeErrors.js';
import type { Reader, Tx } from './tx.js';

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

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
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
	/** Counts durable write transactions since open; observers compare it to notice any change. */
	#version = 0;
	readonly #onDidCommit = new Emitter<{ version: number }>();
	/** Fires after a write transaction is durable (from any caller: CLI, agents, UI). */
	readonly onDidCommit: Event<{ version: number }> = this.#onDidCommit.event;

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
			this.#onDidCommit.fire({ version: ++this.#version });
			return result;
		});
	}

	/** Number of durable write transactions since this Store was opened. */
	get version(): number {
		return this.#version;
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
		this.#onDidCommit.dispose();
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
		if (this.#snapshotScheduled || this.#closed || this.#journal.bytes < this.#snapshotEveryBytes || Date.now() < this.#snapshotRetryAt) {
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
					this.#lastSnapshotError = errorMessage(e);
					this.#snapshotRetryAt = Date.now() + snapshotRetryDelayMs;
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
		if (!this.#corruption && isSqliteCorruption(e)) {
			this.#corruption = damagedError(this.paths.database, `SQLite reported ${errorMessage(e)} while the store was open; no further writes or snapshots`);
		}
	}

	#closedError(): StoreError {
		return new StoreError('store_closed', `The store ${this.paths.database} is closed.`, this.paths.database);
	}
}
