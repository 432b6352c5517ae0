// The closed list of reason codes a Tutti error carries on the wire. It equals `reasonCodes` in src/core/errors.ts
// (test/unit/protocol/vocabularies.test.ts holds the two equal, at compile time and at run time). Plain data
// without zod: the CLI, which never loads zod, checks every reply against this same list.

export const wireReasonCodes = [
	'execution_not_found', 'wrong_source_session', 'inactive_execution', 'inactive_checkpoint',
	'stale_graph_revision', 'task_not_found', 'task_not_started', 'task_superseded', 'missing_agent_target',
	'dependency_unsatisfied', 'dispatch_paused', 'paused_by_developer', 'budget_exceeded', 'budget_unavailable', 'capacity_exhausted', 'parallelism_rejected',
	'duplicate_task', 'invalid_task_graph', 'invalid_mutation_operation', 'request_id_conflict',
	'tutti_issue_managed', 'issue_aborted',
	'review_not_pending', 'acceptance_pending',
	'approval_not_found', 'approval_answered',
	'not_integrable', 'dirty_workspace', 'workspace_busy', 'merge_conflict', 'not_integrated', 'push_failed',
	'issue_not_found', 'run_not_found', 'session_not_found', 'agent_target_not_found',
	'invalid_input', 'unauthenticated', 'forbidden', 'not_managed',
	'host_unavailable', 'store_unavailable', 'store_corrupt', 'store_locked', 'identity_mismatch', 'version_mismatch', 'internal',
] as const;
export type WireReasonCode = (typeof wireReasonCodes)[number];

const known: ReadonlySet<string> = new Set(wireReasonCodes);

export function isWireReasonCode(code: unknown): code is WireReasonCode {
	return typeof code === 'string' && known.has(code);
}

/** An error as a peer sent it, before its reason code is checked against this version's list. */
export interface PeerError {
	reasonCode: string;
	message: string;
	hint: string;
	retryable?: boolean;
	details?: Record<string, unknown>;
}

/**
 * A peer's error whose reason code this version does not know (a Host of a newer Tutti): it becomes
 * `version_mismatch`, and keeps the peer's words, its hint (still the best next step), retryable, and its own code
 * in `details.peerReasonCode`, so nothing the Host said is lost and every printed code stays in the closed list.
 */
export function fromUnknownReason(error: PeerError): PeerError & { reasonCode: 'version_mismatch' } {
	const degraded: PeerError & { reasonCode: 'version_mismatch' } = {
		reasonCode: 'version_mismatch',
		message: `${error.message} (the Host answered with the reason code ${JSON.stringify(error.reasonCode)}, which this version of Tutti does not know: the Host runs another Tutti version)`,
		hint: error.hint,
		details: { ...error.details, peerReasonCode: error.reasonCode },
	};
	if (error.retryable !== undefined) {
		degraded.retryable = error.retryable;
	}
	return degraded;
}
