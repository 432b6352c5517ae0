// Opening a store: create it, or load the snapshot, replay the journal frames it does not hold yet (dropping a torn
// tail, refusing corruption), migrate forward, and hand back the connection and a journal writer to continue with.
// Every refusal leaves the files exactly as they were.
import { randomBytes } from 'node:crypto';
import type { Database, SqlJsStatic } from 'sql.js';
import type { StorePaths } from './database.js';
import { decodeFramePayload, scanJournal } from './journal.js';
import { JournalWriter } from './journalWriter.js';
import type { JournalStatement, ScannedFrame } from './journal.js';
import { assertSchemaNotNewer, migrate, schemaVersionOf } from './migrations.js';
import { checkSnapshotIdentity, readFileIfExists, tuttiApplicationId, writeFileAtomically } from './snapshot.js';
import { SqlRunner } from './sqlRunner.js';
import { StoreError, errorMessage, leftUntouched } from './storeErrors.js';
import type { Row, SqlValue } from './tx.js';

/** The store's own bookkeeping table (outside the migrations): its id and the last sequence a snapshot holds. */
const stateTable = 'tutti_store_state';

interface StoreState {
	readonly storeId: string;
	readonly appliedSeq: number;
}

export interface Recovered {
	readonly runner: SqlRunner;
	readonly journal: JournalWriter;
	readonly storeId: string;
	readonly seq: number;
	readonly replayed: number;
}

function applyConnectionPragmas(db: Database): void {
	db.exec('PRAGMA foreign_keys = ON; PRAGMA journal_mode = MEMORY; PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;');
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

export function writeAppliedSeq(runner: SqlRunner, seq: number): void {
	runner.run(`UPDATE ${stateTable} SET applied_seq = ? WHERE id = 1`, [seq]);
}

/** SQLite's own error for a damaged database image (sql.js throws plain Errors carrying sqlite3_errmsg). */
export function isSqliteCorruption(e: unknown): boolean {
	return e instanceof Error && e.constructor === Error && /^(?:database disk image is malformed|file is not a database)/.test(e.message);
}

export function damagedError(file: string, why: string): StoreError {
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
		throw damagedError(file, `SQLite cannot read it (${errorMessage(e)})`);
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
		throw fail(errorMessage(e));
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
		throw fail(errorMessage(e));
	}
}

async function createStore(SQL: SqlJsStatic, paths: StorePaths, list: readonly string[], beforeCreate: ((storeId: string) => void) | undefined): Promise<Recovered> {
	const storeId = randomBytes(16).toString('hex');
	// Before any file exists: a crash right after leaves a record of an id no store has, never a store unrecorded.
	beforeCreate?.(storeId);
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

export async function recoverStore(
	SQL: SqlJsStatic, paths: StorePaths, list: readonly string[], checkIntegrity: boolean, beforeCreate?: (storeId: string) => void,
): Promise<Recovered> {
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
		return createStore(SQL, paths, list, beforeCreate);
	}
	const loaded = loadExisting(SQL, paths, dbBytes, journalBytes, list, checkIntegrity);
	const { runner, storeId, seq, replayed } = loaded;
	try {
		const migration = migrate(runner.db, paths.database, list);
		if (migration.to === migration.from) {
			return { runner, journal: loaded.continueJournal(), storeId, seq, replayed };
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

/**
 * A running Store reloading itself after a write failure: the same files, already at the latest schema, read
 * synchronously (no reply can see the refused state in between). Rewrites the journal only to drop a torn tail.
 */
export function reloadStore(SQL: SqlJsStatic, paths: StorePaths): Recovered {
	const dbBytes = readFileIfExists(paths.database);
	if (!dbBytes) {
		throw new StoreError('store_corrupt', `The store database ${paths.database} disappeared while the Host was running. ${leftUntouched(paths.journal)}`, paths.database);
	}
	const loaded = loadExisting(SQL, paths, dbBytes, readFileIfExists(paths.journal), [], false);
	try {
		return { runner: loaded.runner, journal: loaded.continueJournal(), storeId: loaded.storeId, seq: loaded.seq, replayed: loaded.replayed };
	} catch (e) {
		loaded.runner.clear();
		loaded.runner.db.close();
		throw e;
	}
}

interface Loaded {
	readonly runner: SqlRunner;
	readonly storeId: string;
	readonly seq: number;
	readonly replayed: number;
	/** Opens the journal to continue after the replayed frames (rewriting it when a torn tail or old frames must go). */
	readonly continueJournal: () => JournalWriter;
}

/** Snapshot + journal replay, synchronously; `list` empty skips the schema-version check (a reload). */
function loadExisting(SQL: SqlJsStatic, paths: StorePaths, dbBytes: Buffer, journalBytes: Buffer | undefined, list: readonly string[], checkIntegrity: boolean): Loaded {
	const runner = openSnapshot(SQL, dbBytes, paths.database, checkIntegrity);
	try {
		if (list.length > 0) {
			assertSchemaNotNewer(schemaVersionOf(runner.db), list, paths.database);
		}
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
		return { runner, storeId, seq, replayed, continueJournal };
	} catch (e) {
		runner.clear();
		runner.db.close();
		throw e;
	}
}
