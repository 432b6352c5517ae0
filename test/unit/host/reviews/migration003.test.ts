// Migration 3 rebuilds `checkpoints` (new kinds, a note column) and recreates `wakes` around it: every row survives,
// the partial unique index "one active checkpoint per execution" and the other constraints still hold.
import { strict as assert } from 'node:assert';
import type { Database } from 'sql.js';
import { migrate, migrations } from '../../../../src/store/migrations.js';
import { migration003 } from '../../../../src/store/migrations/003_reviews.js';
import { loadSqlJs } from '../../../../src/store/sqlJsLoader.js';

const v3 = migrations.indexOf(migration003);

async function databaseAtVersion2(): Promise<Database> {
	const SQL = await loadSqlJs();
	const db = new SQL.Database();
	db.exec('PRAGMA foreign_keys = ON');
	migrate(db, 'mem', migrations.slice(0, v3));
	db.exec(`
		INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('i1', 'T', 'open', 'tutti', 1, 1);
		INSERT INTO executions (execution_id, issue_id, source_session_id, status, graph_revision, active_checkpoint_id, created_at, updated_at)
			VALUES ('e1', 'i1', 's1', 'awaiting_main', 3, 'c2', 1, 1);
		INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id, creation_reason, requires_goal_review, created_at, resolved_at, updated_at)
			VALUES ('c1', 'e1', 'initial_schedule', 'resolved', 1, 1, '', '', 'materialized', 0, 10, 11, 11),
			       ('c2', 'e1', 'task_settled', 'active', 2, 3, 'a', 'r1', 'run_settled', 0, 20, 0, 21),
			       ('c3', 'e1', 'all_tasks_terminal', 'pending', 3, 3, '', '', 'all_tasks_terminal', 1, 30, 0, 31);
		INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, target_session_id, status, prompt, due_at, created_at, updated_at)
			VALUES ('c1:wake:main:1', 'e1', 'c1', 'main', 1, 'tutti-execution-wake:c1:wake:main:1', 's1', 'acknowledged', 'p1', 10, 10, 11),
			       ('c2:wake:main:1', 'e1', 'c2', 'main', 1, 'tutti-execution-wake:c2:wake:main:1', 's1', 'prepared', 'p2', 20, 20, 21);
	`);
	return db;
}

function rows(db: Database, sql: string): unknown[][] {
	return db.exec(sql)[0]?.values ?? [];
}

describe('store migration 3 (developer confirmation)', () => {
	it('is appended after the migrations before it', () => {
		assert.ok(v3 >= 1, 'migration 3 is in the shipped list');
		assert.equal(migrations.indexOf(migration003, v3 + 1), -1);
	});

	it('preserves every checkpoint and wake row (an empty note on old checkpoints)', async () => {
		const db = await databaseAtVersion2();
		const checkpointsBefore = rows(db, 'SELECT * FROM checkpoints ORDER BY checkpoint_id');
		const wakesBefore = rows(db, 'SELECT * FROM wakes ORDER BY wake_id');
		migrate(db, 'mem', migrations.slice(0, v3 + 1));
		assert.deepEqual(rows(db, 'SELECT checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id, creation_reason, requires_goal_review, created_at, resolved_at, updated_at FROM checkpoints ORDER BY checkpoint_id'), checkpointsBefore);
		assert.deepEqual(rows(db, "SELECT DISTINCT note FROM checkpoints"), [['']]);
		assert.deepEqual(rows(db, 'SELECT * FROM wakes ORDER BY wake_id'), wakesBefore);
		assert.deepEqual(rows(db, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%v3%'"), [[0]], 'no temporary table is left');
		db.close();
	});

	it('still enforces one active checkpoint per execution, unique sequences, the kind CHECK and the wake foreign key', async () => {
		const db = await databaseAtVersion2();
		migrate(db, 'mem', migrations.slice(0, v3 + 1));
		const insert = (id: string, kind: string, status: string, sequence: number): void => {
			db.run(`INSERT INTO checkpoints (checkpoint_id, execution_id, kind, status, sequence, graph_revision, created_at, updated_at, note)
				VALUES (?, 'e1', ?, ?, ?, 3, 40, 40, 'redo it')`, [id, kind, status, sequence]);
		};
		assert.throws(() => insert('c4', 'changes_requested', 'active', 4), /UNIQUE constraint failed/, 'a second active checkpoint');
		assert.throws(() => insert('c4', 'changes_requested', 'pending', 2), /UNIQUE constraint failed/, 'a reused sequence');
		assert.throws(() => insert('c4', 'bogus', 'pending', 4), /CHECK constraint failed/);
		insert('c4', 'changes_requested', 'pending', 4);
		insert('c5', 'goal_changes_requested', 'pending', 5);
		assert.deepEqual(rows(db, "SELECT note FROM checkpoints WHERE checkpoint_id = 'c4'"), [['redo it']]);
		assert.throws(() => db.run(`INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, status, created_at, updated_at)
			VALUES ('w', 'e1', 'missing', 'main', 1, 'w', 'prepared', 1, 1)`), /FOREIGN KEY constraint failed/);
		assert.throws(() => db.run(`INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, status, created_at, updated_at)
			VALUES ('w', 'e1', 'c2', 'main', 1, 'w', 'prepared', 1, 1)`), /UNIQUE constraint failed/, 'the wake identity stays unique');
		const indexes = rows(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('checkpoints_one_active','checkpoints_backlog','wakes_status') ORDER BY name");
		assert.deepEqual(indexes, [['checkpoints_backlog'], ['checkpoints_one_active'], ['wakes_status']]);
		db.close();
	});

	it('a request for changes needs a non-empty note, also in the store', async () => {
		const db = await databaseAtVersion2();
		migrate(db, 'mem', migrations.slice(0, v3 + 1));
		assert.throws(() => db.run(`INSERT INTO review_decisions (decision_id, issue_id, task_id, run_id, decision, note, created_at)
			VALUES ('d', 'i1', 'a', 'r1', 'changes_requested', '  ', 1)`), /CHECK constraint failed/);
		db.run(`INSERT INTO review_decisions (decision_id, issue_id, task_id, run_id, decision, note, created_at) VALUES ('d', 'i1', 'a', 'r1', 'accepted', '', 1)`);
		assert.throws(() => db.run(`INSERT INTO review_decisions (decision_id, issue_id, task_id, run_id, decision, note, created_at)
			VALUES ('d2', 'i1', 'a', 'r1', 'changes_requested', 'x', 2)`), /UNIQUE constraint failed/, 'one decision per Run');
		db.close();
	});
});
