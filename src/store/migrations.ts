// Forward-only schema migrations keyed by PRAGMA user_version: migration i (0-based) brings the schema to i + 1.
import type { Database } from 'sql.js';
import { migration001 } from './migrations/001_initial.js';
import { migration002 } from './migrations/002_agent_sessions.js';
import { migration003 } from './migrations/003_reviews.js';
import { migration004 } from './migrations/004_await.js';
import { migration005 } from './migrations/005_follow_ups.js';
import { migration006 } from './migrations/006_reviewer_verdicts.js';
import { migration007 } from './migrations/007_review_mode_switches.js';
import { migration008 } from './migrations/008_code_delivery.js';
import { migration009 } from './migrations/009_task_accepted.js';
import { migration010 } from './migrations/010_plan_reads.js';
import { migration014 } from './migrations/014_acceptance_changes.js';
import { migration012 } from './migrations/012_approvals.js';
import { migration011 } from './migrations/011_usage_budgets.js';
import { migration015 } from './migrations/015_pausers_and_revoked_tokens.js';
import { migration016 } from './migrations/016_outside_changes.js';
import { migration017 } from './migrations/017_delivery.js';
import { migration018 } from './migrations/018_verification.js';
import { migration019 } from './migrations/019_run_stalls.js';
import { migration020 } from './migrations/020_task_reworks.js';
import { migration021 } from './migrations/021_integration_checks.js';
import { migration023 } from './migrations/023_issue_task_counts.js';
import { StoreError, leftUntouched } from './storeErrors.js';

/** Every shipped migration, oldest first; its position is its schema version (landing order: 014 is version 11, 012 is 12, 011 is 13, 015 is 14, 016 is 15, 017 is 16, 018 is 17, 019 is 18, 020 is 19, 021 is 20, 023 is 21). Never edit or reorder one; append the next. */
export const migrations: readonly string[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration014, migration012, migration011, migration015, migration016, migration017, migration018, migration019, migration020, migration021, migration023];

export function schemaVersionOf(db: Database): number {
	const value = db.exec('PRAGMA user_version')[0]?.values[0]?.[0];
	return typeof value === 'number' ? value : 0;
}

/** Throws store_too_new when the database was written by a Tutti that knows more migrations than `known`. */
export function assertSchemaNotNewer(version: number, known: readonly string[], file: string): void {
	if (version > known.length) {
		throw new StoreError(
			'store_too_new',
			`${file} has schema version ${version}, but this Tutti only knows versions up to ${known.length}: ` +
				`it was written by a newer Tutti. Update Tutti to open it. ${leftUntouched(file)}`,
			file,
			{ version, known: known.length },
		);
	}
}

export interface MigrationResult {
	readonly from: number;
	readonly to: number;
}

/** Applies every migration above the database's user_version, each in its own transaction. */
export function migrate(db: Database, file: string, list: readonly string[] = migrations): MigrationResult {
	const from = schemaVersionOf(db);
	assertSchemaNotNewer(from, list, file);
	for (let version = from + 1; version <= list.length; version++) {
		db.exec('BEGIN');
		try {
			db.exec(list[version - 1] as string);
			db.exec(`PRAGMA user_version = ${version}`);
			db.exec('COMMIT');
		} catch (e) {
			try {
				db.exec('ROLLBACK');
			} catch {
				// the failed statement already ended the transaction
			}
			throw new Error(`migration ${version} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
		}
	}
	return { from, to: Math.max(from, list.length) };
}
