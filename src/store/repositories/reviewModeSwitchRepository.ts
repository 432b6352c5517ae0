// The audit of an execution's review mode changes (migration 007): who switched, when and why. Rows are never deleted.
import type { Execution } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

type ReviewMode = Execution['reviewMode'];

export interface ReviewModeSwitch {
	switchId: string;
	executionId: string;
	fromMode: ReviewMode;
	toMode: ReviewMode;
	reason: string;
	/** 'user' (the developer credential). */
	requestedBy: string;
	createdAtUnixMs: number;
}

function fromRow(row: Row): ReviewModeSwitch {
	return {
		switchId: str(row, 'switch_id'),
		executionId: str(row, 'execution_id'),
		fromMode: str(row, 'from_mode') as ReviewMode,
		toMode: str(row, 'to_mode') as ReviewMode,
		reason: str(row, 'reason'),
		requestedBy: str(row, 'requested_by'),
		createdAtUnixMs: num(row, 'created_at'),
	};
}

export const reviewModeSwitchRepository = {
	insert(tx: Tx, s: ReviewModeSwitch): void {
		tx.run(
			'INSERT INTO review_mode_switches (switch_id, execution_id, from_mode, to_mode, reason, requested_by, created_at) VALUES (?,?,?,?,?,?,?)',
			[s.switchId, s.executionId, s.fromMode, s.toMode, s.reason, s.requestedBy, s.createdAtUnixMs],
		);
	},
	/** Every switch of the execution, oldest first. */
	listByExecution(r: Reader, executionId: string): ReviewModeSwitch[] {
		return r.all('SELECT * FROM review_mode_switches WHERE execution_id = ? ORDER BY created_at, switch_id', [executionId]).map(fromRow);
	},
};
