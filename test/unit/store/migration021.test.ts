// The integration checks migration: every integration row survives, those recorded before read '' (no checks kept),
// and a new row keeps what the checks said.
import assert from 'node:assert/strict';
import { migrate, migrations } from '../../../src/store/migrations.js';
import { migration021 } from '../../../src/store/migrations/021_integration_checks.js';
import { loadSqlJs } from '../../../src/store/sqlJsLoader.js';

describe('store migration 021 (integration checks)', () => {
	it('keeps every integration row, with no checks recorded for the earlier ones', async () => {
		const SQL = await loadSqlJs();
		const db = new SQL.Database();
		db.exec('PRAGMA foreign_keys = ON');
		const before = migrations.indexOf(migration021);
		assert.ok(before > 0);
		migrate(db, 'mem', migrations.slice(0, before));
		db.exec(`INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('i', 'T', 'open', 'manual', 1, 1);
			INSERT INTO integrations (issue_id, sequence, into_branch, previous_commit, integrated_commit, squash, task_commits_json, integrated_at)
			VALUES ('i', 1, 'main', 'a', 'b', 'none', '{}', 5)`);
		assert.deepEqual(migrate(db, 'mem'), { from: before, to: migrations.length });
		assert.deepEqual(db.exec('SELECT issue_id, sequence, integrated_commit, checks_json FROM integrations')[0]?.values, [['i', 1, 'b', '']]);
		db.run(`INSERT INTO integrations (issue_id, sequence, into_branch, previous_commit, integrated_commit, squash, task_commits_json, integrated_at, checks_json)
			VALUES ('i', 2, 'main', 'b', 'c', 'none', '{}', 6, '{"status":"none"}')`);
		assert.deepEqual(db.exec('SELECT checks_json FROM integrations WHERE sequence = 2')[0]?.values, [['{"status":"none"}']]);
		db.close();
	});
});
