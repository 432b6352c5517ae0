// Shared helpers for the store tests: temporary .tutti directories, rows in the real schema, table dumps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../../src/store/database.js';
import type { Reader, Tx } from '../../../src/store/tx.js';

export interface TempStoreDir {
	/** The `.tutti` directory (not created yet). */
	readonly dir: string;
	readonly root: string;
	cleanup(): void;
}

export function tempStoreDir(): TempStoreDir {
	const root = mkdtempSync(join(tmpdir(), 'tutti-store-test-'));
	return { root, dir: join(root, '.tutti'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export const insertIssueSql =
	'INSERT INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)';

export function insertIssue(tx: Tx, issueId: string, title = `Issue ${issueId}`, at = 1_700_000_000_000): number {
	return tx.run(insertIssueSql, [issueId, title, '', 'open', 'manual', at, at]);
}

export function insertTask(tx: Tx, issueId: string, taskId: string, at = 1_700_000_000_000): number {
	return tx.run(
		'INSERT INTO tasks (issue_id, task_id, title, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
		[issueId, taskId, `Task ${taskId}`, 'not_started', at, at],
	);
}

export function issueIds(r: Reader): string[] {
	return r.all('SELECT issue_id FROM issues ORDER BY issue_id').map((row) => String(row.issue_id));
}

/** Every user table's rows in a stable order, for comparing two databases. */
export function dumpTables(store: Store): string {
	return store.read((r) => {
		const tables = r.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'tutti_store_state' ORDER BY name").map((row) => String(row.name));
		return JSON.stringify(
			tables.map((t) => [t, r.all(`SELECT * FROM "${t}" ORDER BY rowid`).map((row) => Object.entries(row).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v]))]),
		);
	});
}
