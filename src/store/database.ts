// The durable store: sql.js in memory, every committed write transaction appended to a checksummed journal and
// fsynced before the commit resolves, periodic atomic snapshots that truncate the journal.
//
// Visibility note: a transaction's writes are visible to later reads as soon as its body returns, while its fsync
// may still be in flight (at most one group commit old). Any later write transaction is journaled after it, so it
// can never become durable without it; callers reply only after their own transaction (or `read` after
// `transaction`) resolves.
//
// Write failures (full disk, read-only store, I/O error): the failing transaction and every one batched with it are
// rejected, the journal is cut back to its last synced byte, and the Store reloads itself from disk at once (so reads
// never show a write that was refused) and refuses writes with `store_io` until a whole snapshot can be written again;
// it retries every few seconds and then accepts writes as before. No restart needed, nothing acknowledged lost.
// Those states and when each one changes are in writeHealth.ts; this class carries out what a change asks for.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Emitter, type Event } from '../core/events.js';
import { systemClock } from '../core/ports.js';
import { encodeFrame, encodeFramePayload } from './journal.js';
import type { JournalWriter } from './journalWriter.js';
import { acquireLease, leasePath } from './lease.js';
import type { Lease } from './lease.js';
import { migrations as shippedMigrations, schemaVersionOf } from './migrations.js';
import { damagedError, isSqliteCorruption, recoverStore, reloadStore, writeAppliedSeq } from './recovery.js';
import type { Recovered } from './recovery.js';
import { privateDirectoryMode, privateFileMode, tightenMode } from './privateModes.js';
import { removeStaleTemporary, writeFileAtomically } from './snapshot.js';
import { loadSqlJs } from './sqlJsLoader.js';
import type { SqlJsStatic } from 'sql.js';
import { ReadCache } from './readCache.js';
import { type IssueTaskView, TaskCache } from './taskCache.js';
import { ReadScope, TransactionScope } from './sqlRunner.js';
import type { SqlRunner } from './sqlRunner.js';
import { StoreError, errorMessage, leftUntouched } from './storeErrors.js';
import type { Reader, Tx } from './tx.js';
import { initialWriteHealth, stepWriteHealth, writeRefusal } from './writeHealth.js';
import type { WriteHealth, WriteHealthEffect, WriteHealthEvent } from './writeHealth.js';

export interface StoreOptions {
	/** The `.tutti` directory; created (with a `.gitignore` of `*`) if missing. */
	readonly dir: string;
	/** Default `tutti.sqlite`. The journal sits beside it as `<name>.journal`. */
	readonly fileName?: string;
	/** Journal size that triggers an automatic snapshot; default 8 MiB. */
	readonly snapshotEveryBytes?: number;
	/**
	 * A journal replayed at open at least this big is snapshotted right after (off the open path); default 1 MiB.
	 * Otherwise a Host killed again and again replays the same journal at every start, up to snapshotEveryBytes.
	 */
	readonly snapshotAfterOpenBytes?: number;
	/** Take `.tutti/host.lease` (one Host per store); default true. */
	readonly lease?: boolean;
	/** The migration list; default the shipped one. Tests pass their own. */
	readonly migrations?: readonly string[];
	/** Unix-ms clock for snapshot times and the automatic snapshot's back-off (the lease always uses wall-clock time); default the system clock. */
	readonly now?: () => number;
	/** Run PRAGMA quick_check on the snapshot at open (about 0.3 s at 100k tasks); default false. */
	readonly checkIntegrity?: boolean;
	/** After a write failure, how long to wait between attempts to resume writing; default 2000 ms. */
	readonly recoveryRetryMs?: number;
	/** Called with the new store's id before a new store's first file is written (the Host records it as this machine's). */
	readonly beforeCreate?: (storeId: string) => void;
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
	/** Why writes are refused right now (a journal write failed and has not been recovered from yet). */
	readonly unavailable: string | undefined;
	/** Times the Store resumed writing in place after a write failure. */
	readonly recoveries: number;
	/** The last failed attempt to resume writing, cleared once writes resume. */
	readonly lastRecoveryError: string | undefined;
}

const defaultFileName = 'tutti.sqlite';
const defaultSnapshotEveryBytes = 8 * 1024 * 1024;
const defaultSnapshotAfterOpenBytes = 1024 * 1024;
const defaultRecoveryRetryMs = 2_000;

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
	mkdirSync(paths.dir, { recursive: true, mode: privateDirectoryMode });
	tightenMode(paths.dir, privateDirectoryMode);
	if (!existsSync(paths.gitignore)) {
		writeFileSync(paths.gitignore, '*\n');
	}
}

/** An existing store made by an older Tutti (0644 files in a 0755 directory), or copied in, is made private. */
function tightenStoreFiles(paths: StorePaths): void {
	for (const file of [paths.database, paths.journal, paths.lease]) {
		tightenMode(file, privateFileMode);
	}
}

// ---- the Store ----

export class Store {
	readonly paths: StorePaths;
	readonly storeId: string;
	#runner: SqlRunner;
	#journal: JournalWriter;
	readonly #lease: Lease | undefined;
	readonly #sql: SqlJsStatic;
	readonly #recoveryRetryMs: number;
	readonly #snapshotEveryBytes: number;
	readonly #now: () => number;
	readonly #replayed: number;
	readonly #schemaVersion: number;
	#seq: number;
	#inTransaction = false;
	/** Closed, damaged, unavailable, recovering, snapshotting: changed only by #dispatch (writeHealth.ts). */
	#health: WriteHealth = initialWriteHealth;
	/** Snapshots run one at a time, in the order they were asked for. */
	#snapshotChain: Promise<void> = Promise.resolve();
	#recoveryTimer: NodeJS.Timeout | undefined;
	/** The recovery attempt in flight, for close() to wait for. */
	#recovery: Promise<void> | undefined;
	/** Counts durable write transactions since open; observers compare it to notice any change. */
	#version = 0;
	/** Bumped whenever the data may have changed (a commit that wrote, a reload from disk): readCached() starts over. */
	#generation = 0;
	readonly #readCache = new ReadCache();
	/** Bumped when the in-memory image is replaced from disk: every cached task view is read again. */
	#epoch = 0;
	readonly #taskCache = new TaskCache();
	readonly #onDidCommit = new Emitter<{ version: number }>();
	/** Fires after a write transaction is durable (from any caller: CLI, agents, UI). */
	readonly onDidCommit: Event<{ version: number }> = this.#onDidCommit.event;
	readonly #onDidResumeWrites = new Emitter<{ seq: number }>();
	/**
	 * Fires when the Store accepts writes again after a write failure. It reloaded itself from disk meanwhile, so
	 * whatever a refused write was meant to record is not there: services redo what they could not save (e.g. settle
	 * the Runs whose settlement was refused). The reload itself counts as a commit for `onDidCommit` observers.
	 */
	readonly onDidResumeWrites: Event<{ seq: number }> = this.#onDidResumeWrites.event;

	private constructor(sql: SqlJsStatic, paths: StorePaths, recovered: Recovered, lease: Lease | undefined, options: StoreOptions) {
		this.#sql = sql;
		this.paths = paths;
		this.storeId = recovered.storeId;
		this.#runner = recovered.runner;
		this.#journal = recovered.journal;
		this.#lease = lease;
		this.#seq = recovered.seq;
		this.#schemaVersion = schemaVersionOf(recovered.runner.db);
		this.#replayed = recovered.replayed;
		this.#snapshotEveryBytes = options.snapshotEveryBytes ?? defaultSnapshotEveryBytes;
		this.#now = options.now ?? (() => systemClock.now());
		this.#recoveryRetryMs = options.recoveryRetryMs ?? defaultRecoveryRetryMs;
		this.#checkJournalSize(options.snapshotAfterOpenBytes ?? defaultSnapshotAfterOpenBytes);
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
				tightenStoreFiles(paths);
			}
			const SQL = await loadSqlJs();
			const recovered = await recoverStore(SQL, paths, options.migrations ?? shippedMigrations, options.checkIntegrity ?? false, options.beforeCreate);
			return new Store(SQL, paths, recovered, lease, options);
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
			if (payload) { this.#generation++; }
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
		return this.#journal.append(encodeFrame(this.#seq, payload)).then(
			() => {
				this.#checkJournalSize();
				this.#onDidCommit.fire({ version: ++this.#version });
				return result;
			},
			(e: unknown) => {
				this.#noticeJournalFailure();
				throw e;
			},
		);
	}

	/** Number of durable write transactions since this Store was opened. */
	get version(): number {
		return this.#version;
	}

	/**
	 * Like read(), but each statement's result is kept until the data next changes (readCache.ts), for hot reads
	 * repeated with nothing committed in between. The rows it returns are frozen.
	 */
	readCached<T>(fn: (r: Reader, tasks: (issueId: string) => IssueTaskView) => T): T {
		return this.read((r) => fn(this.#readCache.reader(r, this.#generation), this.#tasksOf(r)));
	}

	/**
	 * Like read(), with `tasks(issueId)`: the issue's tasks and ready set kept in memory (taskCache.ts), brought up to
	 * date with what was committed since the last such read, so a read that shows a few tasks costs the same at any size.
	 */
	readWithTasks<T>(fn: (r: Reader, tasks: (issueId: string) => IssueTaskView) => T): T {
		return this.read((r) => fn(r, this.#tasksOf(r)));
	}

	#tasksOf(r: Reader): (issueId: string) => IssueTaskView {
		return (issueId) => (this.#inTransaction ? TaskCache.uncached(r, issueId) : this.#taskCache.view(r, issueId, this.#epoch));
	}

	/** Synchronous reads (statements cached by SQL text). Write statements are refused. */
	read<T>(fn: (r: Reader) => T): T {
		if (this.#health.closed) {
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
		if (this.#health.closed) {
			return Promise.reject(this.#closedError());
		}
		const run = this.#snapshotChain.then(() => this.#takeSnapshot());
		this.#snapshotChain = run.catch(() => undefined);
		return run;
	}

	/** Takes a final snapshot, closes the journal and releases the lease. Further calls are refused. */
	async close(): Promise<void> {
		if (this.#health.closed) {
			return;
		}
		this.#dispatch({ type: 'closed' });
		this.#onDidCommit.dispose();
		this.#onDidResumeWrites.dispose();
		let failure: unknown;
		try {
			await this.#recovery;
			await this.#journal.whenDurable().catch(() => undefined);
			await this.#snapshotChain;
			if (!writeRefusal(this.#health) && !this.#journal.failure) {
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
			snapshots: this.#health.snapshots,
			lastSnapshotAt: this.#health.lastSnapshotAt,
			lastSnapshotError: this.#health.lastSnapshotError,
			schemaVersion: this.#schemaVersion,
			replayedOnOpen: this.#replayed,
			unavailable: this.#health.unavailable?.message,
			recoveries: this.#health.recoveries,
			lastRecoveryError: this.#health.lastRecoveryError,
		};
	}

	/** `force`: write even when the journal is empty (recovery uses it to prove the disk takes a snapshot). */
	async #takeSnapshot(force = false): Promise<void> {
		const refusal = this.#journal.failure ?? this.#health.damaged;
		if (refusal) {
			throw refusal;
		}
		if (this.#journal.frames === 0 && !force) {
			return; // the snapshot on disk already holds everything
		}
		const journal = this.#journal;
		const seq = this.#seq;
		writeAppliedSeq(this.#runner, seq);
		const image = this.#runner.db.export();
		const mark = journal.mark();
		const framesInImageDurable = journal.whenDurable();
		this.#dispatch({ type: 'snapshotWriting' });
		try {
			// Never put on disk an image holding a write the journal then refused.
			await framesInImageDurable;
			await writeFileAtomically(this.paths.database, image);
			await journal.rotate(mark, seq);
		} catch (e) {
			this.#dispatch({ type: 'snapshotNotWritten' });
			throw e;
		}
		this.#dispatch({ type: 'snapshotWritten', now: this.#now() });
	}

	/** `threshold`: the journal size that makes a snapshot due (default snapshotEveryBytes). */
	#checkJournalSize(threshold = this.#snapshotEveryBytes): void {
		this.#dispatch({ type: 'journalGrew', journalBytes: this.#journal.bytes, threshold, now: this.#now() });
	}

	#writeRefusal(): StoreError | undefined {
		if (this.#health.closed) {
			return this.#closedError();
		}
		this.#noticeJournalFailure();
		return writeRefusal(this.#health);
	}

	#noticeJournalFailure(): void {
		const failure = this.#journal.failure;
		if (failure) {
			this.#dispatch({ type: 'journalFailed', failure });
		}
	}

	#noticeCorruption(e: unknown): void {
		if (!this.#health.damaged && isSqliteCorruption(e)) {
			this.#dispatch({ type: 'damageNoticed', damage: damagedError(this.paths.database, `SQLite reported ${errorMessage(e)} while the store was open; no further writes or snapshots`) });
		}
	}

	// ---- write health: the transitions are in writeHealth.ts, their effects here ----

	#dispatch(event: WriteHealthEvent): void {
		const { health, effects } = stepWriteHealth(this.#health, event);
		this.#health = health;
		for (const effect of effects) {
			this.#perform(effect);
		}
	}

	#perform(effect: WriteHealthEffect): void {
		switch (effect.type) {
			case 'reloadFromDisk':
				try {
					this.#reloadFromDisk();
				} catch (e) {
					this.#dispatch({ type: 'reloadFailed', error: e });
					return;
				}
				this.#dispatch({ type: 'reloaded' });
				return;
			case 'startRecoveryTimer':
				this.#recoveryTimer = setTimeout(() => {
					this.#recoveryTimer = undefined;
					this.#dispatch({ type: 'recoveryDue' });
				}, effect.delay === 'retry' ? this.#recoveryRetryMs : 0);
				this.#recoveryTimer.unref();
				return;
			case 'cancelRecoveryTimer':
				clearTimeout(this.#recoveryTimer);
				this.#recoveryTimer = undefined;
				return;
			case 'attemptRecovery':
				this.#recovery = this.#attemptRecovery().then((outcome) => {
					this.#recovery = undefined;
					this.#dispatch(outcome);
				});
				return;
			case 'announceResumed':
				this.#onDidResumeWrites.fire({ seq: this.#seq });
				return;
			case 'scheduleAutoSnapshot':
				// After the reply path: the commit's continuations run first.
				setImmediate(() => this.#dispatch({ type: 'autoSnapshotTurn' }));
				return;
			case 'takeAutoSnapshot':
				this.snapshot()
					.catch((e: unknown) => this.#dispatch({ type: 'autoSnapshotFailed', error: e, now: this.#now() }))
					.finally(() => this.#dispatch({ type: 'autoSnapshotSettled' }));
				return;
			case 'checkJournalSize':
				this.#checkJournalSize();
				return;
		}
	}

	/**
	 * One attempt: reload from disk if the journal failed (the in-memory image holds refused writes), then write a
	 * whole snapshot and a fresh journal. Only when both succeed may writes be accepted again.
	 */
	async #attemptRecovery(): Promise<WriteHealthEvent> {
		try {
			await this.#snapshotChain;
			if (this.#journal.failure) {
				this.#reloadFromDisk();
			}
			if (this.#health.closed) {
				return { type: 'recoveryStopped' };
			}
			const proof = this.#snapshotChain.then(() => this.#takeSnapshot(true));
			this.#snapshotChain = proof.catch(() => undefined);
			await proof;
			return { type: 'recoveryProved' };
		} catch (e) {
			return { type: 'recoveryFailed', error: e };
		}
	}

	/** Replaces the in-memory image and the journal writer with what the files on disk hold (synchronously). */
	#reloadFromDisk(): void {
		const recovered = reloadStore(this.#sql, this.paths);
		if (recovered.storeId !== this.storeId) {
			void recovered.journal.close();
			recovered.runner.clear();
			recovered.runner.db.close();
			throw new StoreError('store_foreign', `${this.paths.database} was replaced by another store while the Host was running. ${leftUntouched(this.paths.database)}`, this.paths.database);
		}
		const previous = { runner: this.#runner, journal: this.#journal };
		this.#runner = recovered.runner;
		this.#journal = recovered.journal;
		this.#seq = recovered.seq;
		void previous.journal.close();
		previous.runner.clear();
		previous.runner.db.close();
		this.#generation++;
		this.#epoch++;
		this.#onDidCommit.fire({ version: ++this.#version });
	}

	#closedError(): StoreError {
		return new StoreError('store_closed', `The store ${this.paths.database} is closed.`, this.paths.database);
	}
}
