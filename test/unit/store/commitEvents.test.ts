import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/database.js';

describe('Store commit events', () => {
	let dir: string;
	beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'tutti-store-events-')); });
	afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

	it('fires once per durable write transaction, after it is durable, and not for read-only ones', async () => {
		const store = await Store.open({ dir });
		const seen: number[] = [];
		const sub = store.onDidCommit((e) => seen.push(e.version));
		await store.transaction((tx) => tx.run("INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('i1','T','open','manual',1,1)"));
		await store.transaction((tx) => tx.get('SELECT 1 AS one'));
		await store.transaction((tx) => tx.run("UPDATE issues SET title = 'U' WHERE issue_id = 'i1'"));
		assert.deepEqual(seen, [1, 2]);
		assert.equal(store.version, 2);
		sub.dispose();
		await store.close();
	});
});
