// Recovery and file safety: foreign and corrupt files are reported and never touched; crash windows never lose or
// double-apply a transaction.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Store } from '../../../src/store/database.js';
import { migrations } from '../../../src/store/migrations.js';
import { encodeFrame, encodeFramePayload, scanJournal } from '../../../src/store/journal.js';
import { loadSqlJs } from '../../../src/store/sqlJsLoader.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import type { StoreErrorCode } from '../../../src/store/storeErrors.js';
import { dumpTables, insertIssue, issueIds, tempStoreDir } from './storeTestKit.js';
import type { TempStoreDir } from './storeTestKit.js';

type FileImage = Record<string, string>;

function imageOf(dir: string): FileImage {
	const image: FileImage = {};
	for (const name of readdirSync(dir).sort()) {
		image[name] = createHash('sha256').update(readFileSync(`${dir}/${name}`)).digest('hex');
	}
	return image;
}

describe('store files and recovery', () => {
	let tmp: TempStoreDir;
	const open: Store[] = [];
	const openStore = async (options: Partial<Parameters<typeof Store.open>[0]> = {}): Promise<Store> => {
		const store = await Store.open({ dir: tmp.dir, ...options });
		open.push(store);
		return store;
	};
	const reopenAfterCrash = (options: Partial<Parameters<typeof Store.open>[0]> = {}): Promise<Store> => openStore({ lease: false, ...options });

	/** Opening must fail with `code`, name `file`, and leave every file in the directory byte-identical. */
	async function expectRefusal(code: StoreErrorCode, file: string, pattern?: RegExp, options: Partial<Parameters<typeof Store.open>[0]> = {}): Promise<StoreError> {
		const before = imageOf(tmp.dir);
		let error: unknown;
		try {
			open.push(await Store.open({ dir: tmp.dir, ...options }));
		} catch (e) {
			error = e;
		}
		assert.ok(error instanceof StoreError, `expected a StoreError ${code}, got ${String(error)}`);
		assert.equal(error.code, code, error.message);
		assert.ok(error.message.includes(file), `message should name ${file}: ${error.message}`);
		assert.match(error.message, /left untouched/);
		if (pattern) {
			assert.match(error.message, pattern);
		}
		const after = imageOf(tmp.dir);
		delete after['.gitignore']; // the only file opening may add
		delete before['.gitignore'];
		assert.deepEqual(after, before, 'the files must be left untouched');
		return error;
	}

	async function seed(count: number): Promise<Store> {
		const store = await openStore();
		for (let i = 0; i < count; i++) {
			await store.transaction((tx) => {
				insertIssue(tx, `i${i}`);
				tx.run('UPDATE issues SET updated_at = updated_at + 1');
			});
		}
		return store;
	}

	beforeEach(() => { tmp = tempStoreDir(); });
	afterEach(async () => {
		for (const store of open.splice(0)) {
			await store.close().catch(() => undefined);
		}
		tmp.cleanup();
	});

	it('refuses a file that is not SQLite and leaves it untouched', async () => {
		mkdirSync(tmp.dir, { recursive: true });
		writeFileSync(`${tmp.dir}/tutti.sqlite`, 'these are my notes, not a database\n');
		await expectRefusal('store_foreign', `${tmp.dir}/tutti.sqlite`, /not a SQLite database/);
		assert.equal(existsSync(`${tmp.dir}/host.lease`), false, 'the lease is released after a refusal');
	});

	it('refuses a SQLite database of another application and leaves it untouched', async () => {
		const SQL = await loadSqlJs();
		const other = new SQL.Database();
		other.run('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (\'mine\')');
		mkdirSync(tmp.dir, { recursive: true });
		writeFileSync(`${tmp.dir}/tutti.sqlite`, other.export());
		other.close();
		await expectRefusal('store_foreign', `${tmp.dir}/tutti.sqlite`, /another application/);
	});

	it('reports a damaged Tutti database as corrupt and leaves it untouched', async () => {
		const store = await seed(2);
		await store.close();
		const bytes = readFileSync(store.paths.database);
		bytes.fill(0x5a, 100, Math.min(bytes.length, 4096));
		writeFileSync(store.paths.database, bytes);
		await expectRefusal('store_corrupt', store.paths.database, /damaged/);
	});

	it('reports an unreadable journal header as corrupt and leaves both files untouched', async () => {
		const store = await seed(2);
		const journal = readFileSync(store.paths.journal);
		journal.write('GARBAGE!', 0, 'latin1');
		writeFileSync(store.paths.journal, journal);
		await expectRefusal('store_corrupt', store.paths.journal, /header is unreadable/, { lease: false });
	});

	it('drops a torn tail frame, truncating the journal to the last whole frame', async () => {
		const store = await seed(3);
		const journal = readFileSync(store.paths.journal);
		const lastFrame = scanJournal(journal, 'j').frames[2] ?? assert.fail();
		writeFileSync(store.paths.journal, journal.subarray(0, lastFrame.start + 7));
		const reopened = await reopenAfterCrash();
		assert.deepEqual(reopened.read(issueIds), ['i0', 'i1']);
		assert.equal(readFileSync(store.paths.journal).length, lastFrame.start);
		await reopened.transaction((tx) => insertIssue(tx, 'next'));
		const again = await reopenAfterCrash();
		assert.deepEqual(again.read(issueIds), ['i0', 'i1', 'next']);
	});

	it('reports corruption in the middle of the journal and leaves it untouched', async () => {
		const store = await seed(4);
		const journal = readFileSync(store.paths.journal);
		const second = scanJournal(journal, 'j').frames[1] ?? assert.fail();
		journal.writeUInt8(journal.readUInt8(second.start + 30) ^ 0x10, second.start + 30);
		writeFileSync(store.paths.journal, journal);
		await expectRefusal('store_corrupt', store.paths.journal, /damaged but a whole frame follows/, { lease: false });
	});

	it('reports a frame that cannot be replayed as corrupt and leaves the files untouched', async () => {
		const store = await seed(2);
		const journal = readFileSync(store.paths.journal);
		const bad = encodeFrame(3, encodeFramePayload([{ sql: 'INSERT INTO no_such_table VALUES (?)', params: [1] }]));
		writeFileSync(store.paths.journal, Buffer.concat([journal, bad]));
		await expectRefusal('store_corrupt', store.paths.journal, /Replaying frame 3 .*no such table/, { lease: false });
	});

	it('never double-applies frames when a crash falls between the snapshot rename and the journal reset', async () => {
		const store = await seed(3);
		const oldJournal = readFileSync(store.paths.journal);
		const live = dumpTables(store);
		await store.snapshot();
		writeFileSync(store.paths.journal, oldJournal); // as if the process died right after the snapshot rename
		const reopened = await reopenAfterCrash();
		assert.equal(reopened.stats().replayedOnOpen, 0);
		assert.equal(dumpTables(reopened), live);
		await reopened.transaction((tx) => insertIssue(tx, 'later'));
		const again = await reopenAfterCrash();
		assert.deepEqual(again.read(issueIds), ['i0', 'i1', 'i2', 'later']);
	});

	it('accepts a snapshot that is ahead of the journal (its last frames still in flight) and keeps sequences consecutive', async () => {
		const store = await seed(2);
		const oldJournal = readFileSync(store.paths.journal);
		await store.transaction((tx) => insertIssue(tx, 'i2'));
		await store.snapshot();
		writeFileSync(store.paths.journal, oldJournal);
		const reopened = await reopenAfterCrash();
		assert.deepEqual(reopened.read(issueIds), ['i0', 'i1', 'i2']);
		await reopened.transaction((tx) => insertIssue(tx, 'i3'));
		const again = await reopenAfterCrash();
		assert.deepEqual(again.read(issueIds), ['i0', 'i1', 'i2', 'i3']);
	});

	it('refuses a snapshot older than the journal it is paired with', async () => {
		const store = await seed(1);
		await store.snapshot();
		const olderDatabase = readFileSync(store.paths.database);
		await store.transaction((tx) => insertIssue(tx, 'i1'));
		await store.snapshot();
		await store.close();
		writeFileSync(store.paths.database, olderDatabase);
		await expectRefusal('store_corrupt', store.paths.journal, /only holds transactions up to 1/);
	});

	it('refuses a journal that belongs to another store', async () => {
		const other = tempStoreDir();
		try {
			const foreign = await Store.open({ dir: other.dir });
			await foreign.transaction((tx) => insertIssue(tx, 'theirs'));
			const store = await seed(1);
			await store.close();
			writeFileSync(store.paths.journal, readFileSync(foreign.paths.journal));
			await foreign.close();
			await expectRefusal('store_foreign', store.paths.journal, /belongs to another store/);
		} finally {
			other.cleanup();
		}
	});

	it('refuses a journal without its database, and a missing journal after commits', async () => {
		const store = await seed(2);
		const db = readFileSync(store.paths.database);
		writeFileSync(`${tmp.root}/db.bak`, db);
		// Journal present, database missing.
		const { rmSync } = await import('node:fs');
		rmSync(store.paths.database);
		await expectRefusal('store_corrupt', store.paths.journal, /does not/, { lease: false });
		// Database with committed transactions, journal missing.
		const closing = await reopenAfterCrash({ fileName: 'other.sqlite' });
		await closing.transaction((tx) => insertIssue(tx, 'x'));
		await closing.close();
		rmSync(`${tmp.dir}/other.journal`);
		await expectRefusal('store_corrupt', `${tmp.dir}/other.journal`, /missing/, { lease: false, fileName: 'other.sqlite' });
	});

	it('recreates the journal when creation crashed before writing it', async () => {
		const store = await openStore();
		await store.close();
		const { rmSync } = await import('node:fs');
		rmSync(store.paths.journal);
		const reopened = await openStore();
		await reopened.transaction((tx) => insertIssue(tx, 'ok'));
		assert.ok(existsSync(store.paths.journal));
	});

	it('refuses a database written by a newer Tutti (user_version too new) and leaves it untouched', async () => {
		const newer = [...migrations, 'CREATE TABLE from_the_future (x INTEGER);'];
		const store = await openStore({ migrations: newer });
		await store.transaction((tx) => insertIssue(tx, 'f'));
		await store.close();
		const error = await expectRefusal('store_too_new', store.paths.database, new RegExp(`schema version ${migrations.length + 1}.*newer Tutti`, 's'));
		assert.equal(error.reasonCode, 'store_unavailable');
	});

	it('replays pending frames at the old schema, then migrates forward and snapshots', async () => {
		const store = await seed(2);
		const next = [...migrations, 'ALTER TABLE issues ADD COLUMN labels TEXT NOT NULL DEFAULT \'\';'];
		const migrated = await reopenAfterCrash({ migrations: next });
		assert.equal(migrated.stats().schemaVersion, migrations.length + 1);
		assert.deepEqual(migrated.read(issueIds), ['i0', 'i1']);
		assert.equal(migrated.stats().frames, 0);
		await migrated.transaction((tx) => tx.run("UPDATE issues SET labels = 'x' WHERE issue_id = 'i0'"));
		const again = await reopenAfterCrash({ migrations: next });
		assert.equal(again.read((r) => r.get("SELECT labels FROM issues WHERE issue_id = 'i0'")?.labels), 'x');
		assert.equal(store.stats().seq, 2);
	});
});

describe('store integrity', () => {
	let tmp: TempStoreDir;
	beforeEach(() => { tmp = tempStoreDir(); });
	afterEach(() => { tmp.cleanup(); });

	async function damagedStore(): Promise<{ database: string; digest: string }> {
		const store = await Store.open({ dir: tmp.dir });
		await store.transaction((tx) => {
			for (let i = 0; i < 300; i++) {
				tx.run('INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
					`i${String(i).padStart(3, '0')}`, 'T', 'goal '.repeat(60), 'open', 'manual', 1, 1,
				]);
			}
		});
		await store.close();
		const bytes = readFileSync(store.paths.database);
		const lastPage = bytes.length - 4096;
		bytes.fill(0xa5, lastPage + 8, bytes.length);
		writeFileSync(store.paths.database, bytes);
		return { database: store.paths.database, digest: createHash('sha256').update(bytes).digest('hex') };
	}

	it('checkIntegrity finds damage beyond the first page at open', async () => {
		const { database, digest } = await damagedStore();
		await assert.rejects(Store.open({ dir: tmp.dir, checkIntegrity: true }), (e) =>
			e instanceof StoreError && e.code === 'store_corrupt' && e.message.includes(database) && /quick_check/.test(e.message));
		assert.equal(createHash('sha256').update(readFileSync(database)).digest('hex'), digest);
	});

	it('stops writing and never snapshots over the file once SQLite reports damage while open', async () => {
		const { database, digest } = await damagedStore();
		const store = await Store.open({ dir: tmp.dir });
		assert.throws(() => store.read((r) => r.all('SELECT * FROM issues')), /malformed/);
		await assert.rejects(store.transaction((tx) => insertIssue(tx, 'new')), (e) => e instanceof StoreError && e.code === 'store_corrupt');
		await store.close();
		assert.equal(createHash('sha256').update(readFileSync(database)).digest('hex'), digest);
	});
});
