import assert from 'node:assert/strict';
import { assertSchemaNotNewer, migrate, migrations, schemaVersionOf } from '../../../src/store/migrations.js';
import { loadSqlJs } from '../../../src/store/sqlJsLoader.js';
import { StoreError } from '../../../src/store/storeErrors.js';

async function freshDb(): Promise<import('sql.js').Database> {
	const SQL = await loadSqlJs();
	const db = new SQL.Database();
	db.exec('PRAGMA foreign_keys = ON');
	return db;
}

describe('store migrations', () => {
	it('brings an empty database to the latest version with the shipped schema', async () => {
		const db = await freshDb();
		assert.deepEqual(migrate(db, 'mem'), { from: 0, to: migrations.length });
		assert.equal(schemaVersionOf(db), migrations.length);
		const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values.flat();
		for (const t of ['issues', 'tasks', 'task_dependencies', 'runs', 'executions', 'checkpoints', 'wakes', 'plan_mutations']) {
			assert.ok(tables?.includes(t), `missing table ${t}`);
		}
		assert.throws(() => db.run("INSERT INTO issues (issue_id, title, status, planning_source, created_at, updated_at) VALUES ('i', 'T', 'bogus', 'manual', 1, 1)"), /CHECK constraint/);
		db.close();
	});

	it('applies only the migrations above user_version, and nothing when current', async () => {
		const db = await freshDb();
		migrate(db, 'mem');
		const next = [...migrations, 'CREATE TABLE extra (x INTEGER);'];
		assert.deepEqual(migrate(db, 'mem', next), { from: migrations.length, to: migrations.length + 1 });
		assert.deepEqual(migrate(db, 'mem', next), { from: migrations.length + 1, to: migrations.length + 1 });
		db.close();
	});

	it('rolls back a failing migration entirely', async () => {
		const db = await freshDb();
		migrate(db, 'mem');
		const broken = [...migrations, 'CREATE TABLE half (x INTEGER); INSERT INTO nowhere VALUES (1);'];
		assert.throws(() => migrate(db, 'mem', broken), new RegExp(`migration ${migrations.length + 1} failed`));
		assert.equal(schemaVersionOf(db), migrations.length);
		assert.equal(db.exec("SELECT count(*) FROM sqlite_master WHERE name = 'half'")[0]?.values[0]?.[0], 0);
		db.close();
	});

	it('refuses a user_version newer than the known migrations', async () => {
		const db = await freshDb();
		db.exec(`PRAGMA user_version = ${migrations.length + 3}`);
		assert.throws(() => migrate(db, '/ws/.tutti/tutti.sqlite'), (e) =>
			e instanceof StoreError && e.code === 'store_too_new' && e.message.includes('/ws/.tutti/tutti.sqlite') && /newer Tutti/.test(e.message));
		assert.doesNotThrow(() => assertSchemaNotNewer(migrations.length, migrations, 'f'));
		db.close();
	});
});
