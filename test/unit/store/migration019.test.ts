// The run stalls migration: stall marks of running Runs (history kept, the marks in force indexed) and the checkpoint
// kind run_stalled, for which `checkpoints` and `wakes` are rebuilt: every row, constraint and index survives, the new
// kind is accepted while unknown kinds stay refused.
import assert from 'node:assert/strict';
import { migrate, migrations } from '../../../src/store/migrations.js';
import { migration019 } from '../../../src/store/migrations/019_run_stalls.js';
import { loadSqlJs } from '../../../src/store/sqlJsLoader.js';

function schemaOf(db: import('sql.js').Database, name: string): string {
	return String(db.exec('SELECT sql FROM sqlite_master WHERE name = ?', [name])[0]?.values[0]?.[0] ?? '');
}

describe('store migration 019 (run stalls)', () => {
	it('keeps every checkpoint and wake row and the wakes schema, admits run_stalled, and holds one mark per stall', async () => {
		const SQL = await loadSqlJs();
		const db = new SQL.Database();
		db.exec('PRAGMA foreign_keys = ON');
		const before = migrations.indexOf(migration019);
		assert.ok(before > 0);
		migrate(db, 'mem', migrations.slice(0, before));
		db.exec(`INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('i', 'T', 'in_progress', 'tutti', 1, 1);
			INSERT INTO executions (execution_id, issue_id, source_session_id, status, graph_revision, created_at, updated_at) VALUES ('e', 'i', 's', 'awaiting_main', 2, 1, 1);
			INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id, created_at, updated_at, note)
				VALUES ('c1', 'e', 'task_settled', 'active', 1, 2, 'a', 'r1', 1, 1, ''), ('c2', 'e', 'task_accepted', 'pending', 2, 2, 'a', 'r1', 2, 2, 'ok');
			INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, status, prompt, created_at, updated_at)
				VALUES ('w1', 'e', 'c1', 'main', 1, 'sub-1', 'turn_settled', 'p', 1, 1);`);
		const wakesBefore = schemaOf(db, 'wakes');
		const checkpointsBefore = db.exec('SELECT * FROM checkpoints ORDER BY sequence')[0]?.values;
		assert.deepEqual(migrate(db, 'mem'), { from: before, to: migrations.length });
		assert.equal(schemaOf(db, 'wakes'), wakesBefore);
		assert.deepEqual(db.exec('SELECT * FROM checkpoints ORDER BY sequence')[0]?.values, checkpointsBefore);
		assert.deepEqual(db.exec('SELECT wake_id, checkpoint_id, status FROM wakes')[0]?.values, [['w1', 'c1', 'turn_settled']]);
		assert.ok(schemaOf(db, 'checkpoints_one_active').includes("WHERE status = 'active'"));
		assert.ok(schemaOf(db, 'checkpoints_backlog') !== '' && schemaOf(db, 'wakes_status') !== '');
		db.run("INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_run_id, created_at, updated_at) VALUES ('c3', 'e', 'run_stalled', 'pending', 3, 2, 'r1', 3, 3)");
		assert.throws(() => db.run("INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, created_at, updated_at) VALUES ('c4', 'e', 'bogus', 'pending', 4, 2, 3, 3)"), /CHECK constraint/);
		assert.throws(() => db.run("INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, created_at, updated_at) VALUES ('c5', 'e', 'watchdog', 'active', 5, 2, 3, 3)"), /UNIQUE/);
		assert.throws(() => db.run("INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, status, created_at, updated_at) VALUES ('w2', 'e', 'nope', 'main', 1, 'sub-2', 'prepared', 1, 1)"), /FOREIGN KEY/);

		assert.ok(schemaOf(db, 'run_stalls_in_force').includes('WHERE cleared_at = 0'));
		assert.throws(() => db.run("INSERT INTO run_stalls (run_id, episode, issue_id, last_activity_at, marked_at) VALUES ('nope', 1, 'i', 1, 2)"), /FOREIGN KEY/, 'a mark belongs to a Run');
		db.close();
	});
});
