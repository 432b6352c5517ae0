// Idempotency history of source commands: (source session, kind, issue, request id) → input digest and stored result.
import type { MutationKind } from '../../core/model.js';
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export interface PlanMutationKey {
	sourceSessionId: string;
	kind: MutationKind;
	/** '' for `create` (the issue does not exist yet). */
	issueId: string;
	requestId: string;
}

export interface PlanMutationRecord extends PlanMutationKey {
	inputSha256: string;
	checkpointId: string;
	expectedGraphRevision: number;
	resultGraphRevision: number;
	resultJson: string;
	createdAtUnixMs: number;
}

function recordFromRow(row: Row): PlanMutationRecord {
	return {
		sourceSessionId: str(row, 'source_session_id'),
		kind: str(row, 'kind') as MutationKind,
		issueId: str(row, 'issue_id'),
		requestId: str(row, 'request_id'),
		inputSha256: str(row, 'input_sha256'),
		checkpointId: str(row, 'checkpoint_id'),
		expectedGraphRevision: num(row, 'expected_graph_revision'),
		resultGraphRevision: num(row, 'result_graph_revision'),
		resultJson: str(row, 'result_json'),
		createdAtUnixMs: num(row, 'created_at'),
	};
}

export const planMutationRepository = {
	get(r: Reader, key: PlanMutationKey): PlanMutationRecord | undefined {
		const row = r.get(
			'SELECT * FROM plan_mutations WHERE source_session_id = ? AND kind = ? AND issue_id = ? AND request_id = ?',
			[key.sourceSessionId, key.kind, key.issueId, key.requestId],
		);
		return row ? recordFromRow(row) : undefined;
	},
	insert(tx: Tx, m: PlanMutationRecord): void {
		tx.run(
			`INSERT INTO plan_mutations (source_session_id, kind, issue_id, request_id, input_sha256, checkpoint_id, expected_graph_revision,
			 result_graph_revision, result_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			[m.sourceSessionId, m.kind, m.issueId, m.requestId, m.inputSha256, m.checkpointId, m.expectedGraphRevision,
				m.resultGraphRevision, m.resultJson, m.createdAtUnixMs],
		);
	},
	/** Replaces the stored result (a stop's result follows its archive operation to completion). */
	updateResult(tx: Tx, key: PlanMutationKey, resultJson: string): void {
		tx.run(
			'UPDATE plan_mutations SET result_json = ? WHERE source_session_id = ? AND kind = ? AND issue_id = ? AND request_id = ?',
			[resultJson, key.sourceSessionId, key.kind, key.issueId, key.requestId],
		);
	},
};
