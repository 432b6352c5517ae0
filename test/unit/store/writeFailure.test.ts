// A journal write or fsync that fails (full disk, read-only remount, I/O error): the refused writes are rejected with
// `store_io`, reads never show them, nothing acknowledged is lost, and the same Store accepts writes again once the
// disk does — without a restart. The faults are injected into node:fs (the module object the journal writer calls);
// the fault campaign (`npm run reliability`, disk case) does the same on a real full tmpfs.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../../src/store/database.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import { waitFor } from '../../waitFor.js';
import { FullDisk } from './faultyDisk.js';
import { insertIssue, issueIds, tempStoreDir } from './storeTestKit.js';
import type { TempStoreDir } from './storeTestKit.js';

/** What the store says about itself, for a timeout message. */
const statsOf = (store: Store) => (): string => `store stats: ${JSON.stringify(store.stats())}`;

describe('Store after a journal write failure', () => {
	let tmp: TempStoreDir;
	let disk: FullDisk;
	const open: Store[] = [];
	const openStore = async (): Promise<Store> => {
		const store = await Store.open({ dir: tmp.dir, recoveryRetryMs: 50 });
		open.push(store);
		return store;
	};
	/** What a Host starting now would find: a copy of the store files as they are, opened on their own. */
	let copies = 0;
	const issuesOnDisk = async (): Promise<string[]> => {
		const copy = join(tmp.root, `copy-${copies++}`);
		cpSync(tmp.dir, copy, { recursive: true });
		const store = await Store.open({ dir: copy, lease: false });
		try {
			return store.read(issueIds);
		} finally {
			await store.close();
		}
	};

	beforeEach(() => {
		tmp = tempStoreDir();
		disk = new FullDisk();
		disk.install();
	});
	afterEach(async () => {
		disk.uninstall();
		for (const store of open.splice(0)) {
			await store.close().catch(() => undefined);
		}
		tmp.cleanup();
	});

	it('refuses the failed write with store_io, hides it from reads, and resumes writing in place once space returns', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'kept-1'));
		disk.full = true;
		const refused = await store.transaction((tx) => insertIssue(tx, 'refused-1')).then(() => undefined, (e: unknown) => e);
		assert.ok(refused instanceof StoreError && refused.code === 'store_io', `expected store_io, got ${String(refused)}`);
		assert.match(refused.message, /ENOSPC/);
		assert.match(refused.message, /nothing saved before is lost/);
		assert.equal(refused.reasonCode, 'store_unavailable');
		// While the disk stays full: later writes are refused too, and the refused row is gone from reads.
		await assert.rejects(store.transaction((tx) => insertIssue(tx, 'refused-2')), (e: unknown) => e instanceof StoreError && e.code === 'store_io');
		await waitFor(() => !store.read(issueIds).includes('refused-1'), { what: 'the reload that drops the refused write', detail: () => `issues: ${store.read(issueIds).join(', ')}` });
		assert.deepEqual(store.read(issueIds), ['kept-1']);
		const refusedSoFar = disk.refusals;
		await waitFor(() => disk.refusals >= refusedSoFar + 3, { what: 'three more refused writes: recovery attempts failing on the full disk', detail: () => `${disk.refusals - refusedSoFar} more; ${statsOf(store)()}` });
		assert.ok(store.stats().unavailable, 'writes are still refused while the disk is full');
		assert.match(store.stats().lastRecoveryError ?? '', /ENOSPC/);

		disk.full = false;
		await waitFor(() => store.stats().unavailable === undefined, { what: 'writes to resume', detail: statsOf(store) });
		await store.transaction((tx) => insertIssue(tx, 'kept-2'));
		assert.deepEqual(store.read(issueIds), ['kept-1', 'kept-2']);
		assert.equal(store.stats().recoveries, 1);

		// What is on disk is exactly what was acknowledged.
		assert.deepEqual(await issuesOnDisk(), ['kept-1', 'kept-2']);
	});

	it('cuts a written but unsynced frame off the journal, so a refused write never comes back on reopen', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'kept-1'));
		disk.failSyncOnly = true;
		disk.full = true;
		await assert.rejects(store.transaction((tx) => insertIssue(tx, 'refused-1')), (e: unknown) => e instanceof StoreError && /EIO/.test(e.message));
		// The files as they are while the fault lasts (a crash now): the refused frame is not replayed.
		assert.deepEqual(await issuesOnDisk(), ['kept-1']);

		disk.full = false;
		await waitFor(() => store.stats().unavailable === undefined, { what: 'writes to resume', detail: statsOf(store) });
		assert.deepEqual(store.read(issueIds), ['kept-1']);
		await store.transaction((tx) => insertIssue(tx, 'kept-2'));
		assert.deepEqual(await issuesOnDisk(), ['kept-1', 'kept-2']);
	});

	it('tells observers: the reload counts as a change, and resuming writes is announced', async () => {
		const store = await openStore();
		await store.transaction((tx) => insertIssue(tx, 'kept-1'));
		const resumed: number[] = [];
		store.onDidResumeWrites(({ seq }) => resumed.push(seq));
		const versionBefore = store.version;
		disk.full = true;
		await store.transaction((tx) => insertIssue(tx, 'refused-1')).catch(() => undefined);
		await waitFor(() => store.version > versionBefore, { what: 'the reload to bump the version observers poll', detail: statsOf(store) });
		const refusedSoFar = disk.refusals;
		await waitFor(() => disk.refusals >= refusedSoFar + 2, { what: 'two more refused writes: recovery attempts failing on the full disk', detail: () => `${disk.refusals - refusedSoFar} more; ${statsOf(store)()}` });
		assert.deepEqual(resumed, [], 'not resumed while the disk is full');
		disk.full = false;
		await waitFor(() => resumed.length === 1, { what: 'the resume event', detail: () => `resumed: ${JSON.stringify(resumed)}; ${statsOf(store)()}` });
		assert.deepEqual(resumed, [1], 'resumed at the last acknowledged transaction');
	});
});
