// SQL lives only in src/store: services call repositories, never hand SQL text to a Reader or a Tx.
// The scan reads every TypeScript file under src/ outside src/store and looks for SQL statements in string literals.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const srcDir = join(__dirname, '..', '..', '..', 'src');

/**
 * Files that still hold SQL and are being moved by other work. Each entry must still hold SQL (a stale exception
 * fails the test), so the list can only shrink.
 */
const knownExceptions: readonly string[] = [];

/** A string literal (', " or `) whose text begins with an SQL statement. */
const sqlLiteral = /[`'"]\s*(SELECT\s[\s\S]*?\sFROM\s|INSERT\s+(OR\s+[A-Z]+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|REPLACE\s+INTO\s|WITH\s+\w+\s+AS\s*\(|(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW|TRIGGER)\s|PRAGMA\s)/;
/** Any string literal passed to a Reader/Tx/sql.js method whose text begins with an SQL keyword. */
const sqlCall = /\.(run|get|all|exec|prepare)\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|REPLACE|WITH|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|ROLLBACK)\b/i;

function holdsSql(text: string): boolean {
	return sqlLiteral.test(text) || sqlCall.test(text);
}

function typeScriptFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) { return typeScriptFiles(path); }
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

function posix(path: string): string {
	return path.split(sep).join('/');
}

describe('SQL lives only in src/store', () => {
	it('recognizes SQL handed to a Reader or a Tx, and leaves prose alone', () => {
		const flagged = [
			"tx.run('INSERT INTO review_mode_switches (switch_id) VALUES (?)', [id]);",
			"tx.run('INSERT OR IGNORE INTO issue_finishes (issue_id) VALUES (?)', [id]);",
			'r.all(\n\t`SELECT subject_task_id, note FROM checkpoints WHERE execution_id = ?`, [id]);',
			"tx.run(\"UPDATE runs SET status = 'failed' WHERE run_id = ?\", [id]);",
			"tx.run('DELETE FROM stop_hook_budgets WHERE session_id = ?', [id]);",
			"r.get('select 1')",
			"const sql = 'SELECT provider_session_id FROM sessions WHERE session_id = ?';",
		];
		for (const text of flagged) { assert.ok(holdsSql(text), text); }
		const prose = [
			"const hint = 'Select the issue from the list, then run tutti plan issue get.';",
			"throw rejection('invalid_input', 'Delete from the board is not offered to agents.');",
			"const label = 'Update the plan';",
			'map.get(key); list.all; runner.run(spec);',
		];
		for (const text of prose) { assert.equal(holdsSql(text), false, text); }
	});

	it('finds no SQL in any file under src/ outside src/store', () => {
		const offenders = typeScriptFiles(srcDir)
			.map((file) => posix(relative(srcDir, file)))
			.filter((file) => !file.startsWith('store/'))
			.filter((file) => holdsSql(readFileSync(join(srcDir, file), 'utf8')));
		assert.deepEqual(offenders.filter((file) => !knownExceptions.includes(file)), [], 'move this SQL into a repository in src/store/repositories');
		const stale = knownExceptions.filter((file) => !offenders.includes(file));
		assert.deepEqual(stale, [], 'these files no longer hold SQL: drop them from knownExceptions');
	});
});
