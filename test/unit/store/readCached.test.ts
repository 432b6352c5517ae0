// Store.readCached: statements answer from memory until the data changes. A reader must never see less than a
// plain read() would: a commit that wrote, and the reload after a refused write, start the cache over.
import assert from 'node:assert/strict';
import { Store } from '../../../src/store/database.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import { waitFor } from '../../waitFor.js';
import { FullDisk } from './faultyDisk.js';
import { insertIssue, issueIds, tempStoreDir } from './storeTestKit.js';
import type { TempStoreDir } from './storeTestKit.js';

describe('Store.readCached', () => {
	let tmp: TempStoreDir;
	let store: Store;
	beforeEach(async () => {
		tmp = tempStoreDir();
		store = await Store.open({ dir: tmp.dir, recoveryRetryMs: 50 });
	});
	afterEach(async () => {
		await store.close().catch(() => undefined);
		tmp.cleanup();
	});

	it('answers a repeated read from memory while nothing is committed (the rows are the same frozen objects)', async () => {
		await store.transaction((tx) => insertIssue(tx, 'a'));
		const sql = 'SELECT issue_id, title FROM issues ORDER BY issue_id';
		const first = store.readCached((r) => r.all(sql));
		const second = store.readCached((r) => r.all(sql));
		assert.equal(second, first, 'the second read is the cached array');
		assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]), 'cached rows cannot be changed by a caller');
		assert.throws(() => { (first[0] as Record<string, unknown>)['title'] = 'changed'; }, TypeError);
		assert.deepEqual(store.read((r) => r.all(sql)), [{ issue_id: 'a', title: 'Issue a' }]);
	});

	it('sees every commit that wrote at once, through get() and all(), with the same params or others', async () => {
		await store.transaction((tx) => insertIssue(tx, 'a'));
		assert.deepEqual(store.readCached(issueIds), ['a']);
		const titleOf = (id: string) => store.readCached((r) => r.get('SELECT title FROM issues WHERE issue_id = ?', [id]))?.['title'];
		assert.equal(titleOf('b'), undefined, 'a miss is cached too');
		await store.transaction((tx) => insertIssue(tx, 'b'));
		assert.deepEqual(store.readCached(issueIds), ['a', 'b']);
		assert.equal(titleOf('b'), 'Issue b');
		await store.transaction((tx) => tx.run('UPDATE issues SET title = ? WHERE issue_id = ?', ['Renamed', 'a']));
		assert.equal(titleOf('a'), 'Renamed');
	});

	it('keeps params apart: 1 and "1" and null are different keys', async () => {
		await store.transaction((tx) => insertIssue(tx, '1'));
		const count = (param: string | number | null) => store.readCached((r) => r.get('SELECT count(*) AS n FROM issues WHERE issue_id = ?', [param]))?.['n'];
		assert.equal(count('1'), 1);
		assert.equal(count(null), 0);
		assert.equal(count('1'), 1);
	});

	it('drops what it read of a write the disk refused, once the Store reloads itself', async () => {
		const disk = new FullDisk();
		disk.install();
		try {
			await store.transaction((tx) => insertIssue(tx, 'kept'));
			disk.full = true;
			const write = store.transaction((tx) => insertIssue(tx, 'refused')).then(() => undefined, (e: unknown) => e);
			// Between its COMMIT and the journal's answer the row is in memory, as a plain read shows it: cache that.
			assert.deepEqual(store.readCached(issueIds), ['kept', 'refused']);
			assert.ok((await write) instanceof StoreError);
			// The reload happens right after the refusal; poll the cached read itself until it no longer shows the row.
			await waitFor(() => !store.readCached(issueIds).includes('refused'), {
				what: 'the cached read to drop the refused write after the reload', detail: () => `cached read: ${store.readCached(issueIds).join(', ')}`,
			});
			assert.deepEqual(store.readCached(issueIds), store.read(issueIds));
		} finally {
			disk.uninstall();
		}
	});
});
