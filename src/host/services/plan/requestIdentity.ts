// `--request-id` idempotency: same identity + payload → the stored result with replayed:true;
// a different payload → request_id_conflict. Checked inside the command's transaction, before any fence.
// Rejected commands are never recorded, so a corrected retry with the same id is not a conflict.
import { createHash } from 'node:crypto';
import { requestDigest } from '../../../core/execution/fences.js';
import { rejection } from '../../../core/hints.js';
import type { MutationKind } from '../../../core/model.js';
import { type PlanMutationKey, planMutationRepository } from '../../../store/repositories/planMutationRepository.js';
import type { Reader, Tx } from '../../../store/tx.js';

/** One command's durable identity and the digest of its canonical payload. */
export interface RequestIdentity {
	key: PlanMutationKey;
	inputSha256: string;
	checkpointId: string;
	expectedGraphRevision: number;
}

/**
 * `payload` is everything the request means: checkpoint, expected revision and the ordered ops / ordered task ids /
 * decision + reason (keys in any order; undefined members are dropped).
 */
export function requestIdentity(
	kind: MutationKind,
	sourceSessionId: string,
	issueId: string,
	requestId: string,
	payload: { checkpointId?: string; expectedGraphRevision?: number } & Record<string, unknown>,
): RequestIdentity {
	return {
		key: { sourceSessionId, kind, issueId, requestId },
		inputSha256: createHash('sha256').update(requestDigest(kind, payload)).digest('hex'),
		checkpointId: payload.checkpointId ?? '',
		expectedGraphRevision: payload.expectedGraphRevision ?? 0,
	};
}

/** The stored result (with replayed:true) when this request already succeeded; throws request_id_conflict on a new payload. */
export function replayOf<R extends { replayed: boolean }>(r: Reader, id: RequestIdentity): R | undefined {
	const stored = planMutationRepository.get(r, id.key);
	if (!stored) { return undefined; }
	if (stored.inputSha256 !== id.inputSha256) {
		throw rejection(
			'request_id_conflict',
			`Request id ${JSON.stringify(id.key.requestId)} was already used for a different ${id.key.kind} payload.`,
			{ issueId: id.key.issueId || undefined },
			{ requestId: id.key.requestId, kind: id.key.kind },
		);
	}
	return { ...(JSON.parse(stored.resultJson) as R), replayed: true };
}

/** Records a successful command's result (stored with replayed:false) in the command's transaction; returns it. */
export function recordResult<R extends { replayed: boolean }>(tx: Tx, id: RequestIdentity, result: R, resultGraphRevision: number, nowUnixMs: number): R {
	planMutationRepository.insert(tx, {
		...id.key,
		inputSha256: id.inputSha256,
		checkpointId: id.checkpointId,
		expectedGraphRevision: id.expectedGraphRevision,
		resultGraphRevision,
		resultJson: JSON.stringify({ ...result, replayed: false }),
		createdAtUnixMs: nowUnixMs,
	});
	return result;
}
