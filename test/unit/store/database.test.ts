import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Store } from '../../../src/store/database.js';
import { statementKind } from '../../../src/store/sqlRunner.js';
import { migrations } from '../../../src/store/migrations.js';
import { temporaryPathFor, tuttiApplicationId } from '../../../src/store/snapshot.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import { waitFor } from '../../waitFor.js';
import { dumpTables, insertIssue, insertTask, issueIds, tempStoreDir } from './storeTestKit.js';
import type { TempStoreDir } from './storeTestKit.js';

/** What the store says about itself, for a timeout message. */
const statsOf = (store: Store) => (): string => `store stats: ${JSON.stringify(store.stats())}`;

describe('Store', () => {
	let tmp: TempStoreDir;
	const open: Store[] = [];
	const openStore = async (options: Partial<Parameters<typeof Store.open>[0]> = {}): Promise<Store> => {
		const store = await Store.open({ dir: tmp.dir, ...options });
		open.push(store);
		return store;
	};
	/** Reopens as if the process had died: the old Store is abandoned, never closed. */
	const reopenAfterCrash = (options: Partial<Parameters<typeof Store.open>[0]> = {}): Promise<Store> => openStore({ lease: false, ...options });

	beforeEach(() => { tmp = tempStoreDir(); });
	afterEach(async () => {
		for (const store of open.splice(0)) {
			await store.close().catch(() => undefined);
		}
		tmp.cleanup();
	});

	it('creates the .tutti directory with a .gitignore of *, the schema, the application id and foreign keys on', async () => {
		const store = await openStore();
		assert.equal(readFileSync(store.paths.gitignore, 'utf8').trim(), '*');
		assert.equal(store.stats().schemaVersion, migrations.length);
		store.read((r) => {
			assert.equal(r.get('PRAGMA application_id')?.application_id, tuttiApplicationId);
			assert.equal(r.get('PRAGMA user_version')?.user_version, migrations.length);
			assert.equal(r.get('PRAGMA foreign_keys')?.foreign_keys, 1);
		});
		await assert.rejects(store.transaction((tx) => insertTask(tx, 'no-such-issue', 't1')), /FOREIGN KEY constraint failed/);
		assert.equal(statSync(store.paths.journal).isFile(), true);
	});

	it('resolves a commit with the body result; reads in the body see its own writes', async () => {
		const store = await openStore();
		const seen = await store.transaction((tx) => {
			insertIssue(tx, 'i1');
			return tx.get('SELECT title FROM issues WHERE issue_id = ?', ['i1'])?.title;
		});
		assert.equal(seen, 'Issue i1');
		assert.deepEqual(store.read(issueIds), ['i1']);
		assert.equal(store.stats().frames, 1);
	});

	it('keeps every acknowledged commit across a crash (journal replay)', async () => {
		const first = await openStore();
		for (let i = 0; i < 5; i++) {
			await first.transaction((tx) => insertIssue(tx, `i${i}`));
		}
		const second = await reopenAfterCrash();
		assert.deepEqual(second.read(issueIds), ['i0', 'i1', 'i2', 'i3', 'i4']);
		assert.equal(second.stats().replayedOnOpen, 5);
		assert.equal(second.stats().seq, 5);
	});

	it('rolls back on throw: rejects with the error, journals nothing, leaves nothing', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'kept'));
		const before = { stats: store.stats(), size: statSync(store.paths.journal).size };
		const boom = new Error('boom');
		await assert.rejects(store.transaction((tx) => { insertIssue(tx, 'lost'); throw boom; }), (e) => e === boom);
		assert.deepEqual(store.read(issueIds), ['kept']);
		assert.equal(store.stats().frames, before.stats.frames);
		assert.equal(store.stats().seq, before.stats.seq);
		assert.equal(statSync(store.paths.journal).size, before.size);
		const reopened = await reopenAfterCrash();
		assert.deepEqual(reopened.read(issueIds), ['kept']);
	});

	it('rejects a body that returns a promise, and nested transactions, rolling back', async () => {
		const store = await openStore();
		await assert.rejects(store.transaction(async (tx) => { insertIssue(tx, 'a'); }), /must be synchronous/);
		let nested: Promise<unknown> | undefined;
		await store.transaction((tx) => {
			insertIssue(tx, 'outer');
			nested = store.transaction((inner) => insertIssue(inner, 'inner')).then(() => 'resolved', (e: unknown) => e);
		});
		assert.match(String(await nested), /cannot be nested/);
		assert.deepEqual(store.read(issueIds), ['outer']);
	});

	it('group-commits: transactions committed in the same tick share fsyncs', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'warm'));
		const before = store.stats();
		const commits = Array.from({ length: 40 }, (_, i) => store.transaction((tx) => insertIssue(tx, `g${String(i).padStart(2, '0')}`)));
		await Promise.all(commits);
		const after = store.stats();
		assert.equal(after.frames - before.frames, 40);
		assert.ok(after.syncs - before.syncs <= 2, `expected at most 2 fsyncs for 40 same-tick commits, got ${after.syncs - before.syncs}`);
		const reopened = await reopenAfterCrash();
		assert.equal(reopened.read(issueIds).length, 41);
	});

	it('refuses writes through read(), journals writes made through tx.get (RETURNING)', async () => {
		const store = await openStore();
		assert.throws(() => store.read((r) => r.get("INSERT INTO issues (issue_id) VALUES ('x') RETURNING issue_id")), /only runs read statements/);
		const id = await store.transaction((tx) =>
			tx.get(
				"INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('r1', 'T', 'open', 'manual', 1, 1) RETURNING issue_id",
			)?.issue_id,
		);
		assert.equal(id, 'r1');
		await assert.rejects(store.transaction((tx) => tx.run('COMMIT')), /managed by the Store/);
		const reopened = await reopenAfterCrash();
		assert.deepEqual(reopened.read(issueIds), ['r1']);
	});

	it('replays a statement that failed and was caught inside the body, reproducing the same state', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'dup'));
		await store.transaction((tx) => {
			// OR FAIL keeps the rows inserted before the conflict: the failed statement still changed the database.
			assert.throws(() => tx.run(
				"INSERT OR FAIL INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('partial', 'T', 'open', 'manual', 1, 1), ('dup', 'T', 'open', 'manual', 1, 1)",
			), /UNIQUE/);
			assert.throws(() => insertIssue(tx, 'dup'), /UNIQUE/);
			insertIssue(tx, 'after');
		});
		assert.deepEqual(store.read(issueIds), ['after', 'dup', 'partial']);
		const live = dumpTables(store);
		const reopened = await reopenAfterCrash();
		assert.equal(dumpTables(reopened), live);
	});

	it('replays deterministically: a random workload reopened from snapshot + journal equals the live state', async () => {
		const store = await openStore({ snapshotEveryBytes: 2_000 });
		let rng = 12345;
		const rand = (n: number): number => { rng = (rng * 1103515245 + 12345) % 2 ** 31; return rng % n; };
		for (let i = 0; i < 60; i++) {
			await store.transaction((tx) => {
				const issue = `i${rand(8)}`;
				if (!tx.get('SELECT 1 FROM issues WHERE issue_id = ?', [issue])) {
					insertIssue(tx, issue, `t${i}`, i);
				}
				tx.run('UPDATE issues SET updated_at = updated_at + ?, content = ? WHERE issue_id = ?', [rand(100), `c${i}`, issue]);
				const task = `t${rand(20)}`;
				if (tx.run('UPDATE tasks SET sort_index = sort_index + 1 WHERE issue_id = ? AND task_id = ?', [issue, task]) === 0) {
					insertTask(tx, issue, task, i);
				}
				if (rand(5) === 0) {
					tx.run('DELETE FROM tasks WHERE issue_id = ? AND task_id = ?', [issue, `t${rand(20)}`]);
				}
				tx.run('INSERT INTO plan_mutations (source_session_id, kind, issue_id, request_id, input_sha256, result_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
					's', 'mutate', issue, `r${i}`, 'a'.repeat(64), JSON.stringify({ n: i / 3 }), i,
				]);
			});
		}
		await waitFor(() => store.stats().snapshots > 0, { what: 'automatic snapshots at the small threshold', detail: statsOf(store) });
		await store.snapshot(); // let a scheduled one finish before comparing
		const live = dumpTables(store);
		const reopened = await reopenAfterCrash();
		assert.equal(dumpTables(reopened), live);
	});

	it('snapshot() writes the database and truncates the journal', async () => {
		const store = await openStore();
		for (let i = 0; i < 3; i++) {
			await store.transaction((tx) => insertIssue(tx, `s${i}`));
		}
		await store.snapshot();
		const stats = store.stats();
		assert.equal(stats.frames, 0);
		assert.equal(statSync(store.paths.journal).size, stats.journalBytes);
		assert.equal(stats.snapshots, 1);
		assert.ok(stats.lastSnapshotAt !== undefined);
		const reopened = await reopenAfterCrash();
		assert.deepEqual(reopened.read(issueIds), ['s0', 's1', 's2']);
		assert.equal(reopened.stats().replayedOnOpen, 0);
	});

	it('snapshots automatically once the journal passes snapshotEveryBytes, after the commit resolves', async () => {
		const store = await openStore({ snapshotEveryBytes: 1_000 });
		for (let i = 0; i < 20; i++) {
			await store.transaction((tx) => insertIssue(tx, `a${String(i).padStart(2, '0')}`));
		}
		await waitFor(() => store.stats().snapshots >= 1, { what: 'an automatic snapshot', detail: statsOf(store) });
		assert.ok(store.stats().frames < 20, 'the snapshot truncated the journal');
		const reopened = await reopenAfterCrash();
		assert.equal(reopened.read(issueIds).length, 20);
	});

	it('reads the time from its injected clock only: the back-off after a failed automatic snapshot, and when one was taken', async () => {
		// Far from the real time, so a reading of the system clock anywhere would show.
		let now = 4_000_000_000_000;
		const store = await openStore({ snapshotEveryBytes: 1_000, now: () => now });
		// A directory where the snapshot's temporary file goes: snapshots fail, commits do not.
		const blocker = temporaryPathFor(store.paths.database);
		mkdirSync(blocker);
		for (let i = 0; i < 20; i++) {
			await store.transaction((tx) => insertIssue(tx, `k${String(i).padStart(2, '0')}`));
		}
		await waitFor(() => store.stats().lastSnapshotError !== undefined, { what: 'the automatic snapshot to fail', detail: statsOf(store) });
		assert.equal(store.stats().snapshots, 0);
		rmSync(blocker, { recursive: true });
		now += 5_000; // the back-off is over by this clock
		await store.transaction((tx) => insertIssue(tx, 'k20'));
		await waitFor(() => store.stats().snapshots === 1, { what: 'the next automatic snapshot, 5 s later by the injected clock', detail: statsOf(store) });
		assert.equal(store.stats().lastSnapshotAt, 4_000_000_005_000);
		assert.equal(store.stats().lastSnapshotError, undefined);
	});

	it('a store reopened on a journal past snapshotAfterOpenBytes snapshots it at once (a crash loop does not replay it again)', async () => {
		const store = await openStore();
		for (let i = 0; i < 20; i++) {
			await store.transaction((tx) => insertIssue(tx, `o${String(i).padStart(2, '0')}`));
		}
		const reopened = await reopenAfterCrash({ snapshotAfterOpenBytes: 1_000 });
		assert.equal(reopened.stats().replayedOnOpen, 20);
		await waitFor(() => reopened.stats().snapshots >= 1, { what: 'a snapshot after the replay, without a commit', detail: statsOf(reopened) });
		assert.equal(reopened.stats().frames, 0, 'the snapshot truncated the journal');
		const again = await reopenAfterCrash();
		assert.equal(again.stats().replayedOnOpen, 0);
		assert.equal(again.read(issueIds).length, 20);
		// Below the threshold nothing is written at open.
		await again.transaction((tx) => insertIssue(tx, 'p0'));
		const small = await reopenAfterCrash({ snapshotAfterOpenBytes: 1_000_000 });
		await new Promise((resolve) => setImmediate(resolve));
		assert.equal(small.stats().snapshots, 0);
		assert.equal(small.stats().replayedOnOpen, 1);
	});

	it('close() snapshots, releases the lease and refuses later use', async () => {
		const store = await Store.open({ dir: tmp.dir });
		await store.transaction((tx) => insertIssue(tx, 'c1'));
		await store.close();
		await store.close();
		await assert.rejects(store.transaction((tx) => insertIssue(tx, 'c2')), (e) => e instanceof StoreError && e.code === 'store_closed');
		assert.throws(() => store.read(issueIds), /closed/);
		const again = await openStore();
		assert.deepEqual(again.read(issueIds), ['c1']);
		assert.equal(again.stats().replayedOnOpen, 0);
	});

	it('classifies statements for journaling', () => {
		assert.equal(statementKind('SELECT 1'), 'read');
		assert.equal(statementKind('  -- c\n /* x */ select 1'), 'read');
		assert.equal(statementKind('WITH x AS (SELECT 1) SELECT * FROM x'), 'read');
		assert.equal(statementKind('WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x'), 'write');
		assert.equal(statementKind('PRAGMA table_info(tasks)'), 'read');
		assert.equal(statementKind('PRAGMA user_version = 3'), 'write');
		assert.equal(statementKind('update t set a = 1'), 'write');
		assert.equal(statementKind('begin immediate'), 'control');
		assert.equal(statementKind('ROLLBACK'), 'control');
		assert.equal(statementKind('ROLLBACK TO sp'), 'write');
	});
});
