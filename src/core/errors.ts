// Stable rejection reasons and the errors every layer throws with one of them.

export const reasonCodes = [
	// managed-execution fences and rules
	'execution_not_found', 'wrong_source_session', 'inactive_execution', 'inactive_checkpoint',
	'stale_graph_revision', 'task_not_found', 'task_not_started', 'task_superseded', 'missing_agent_target',
	'dependency_unsatisfied', 'dispatch_paused', 'paused_by_developer', 'budget_exceeded', 'budget_unavailable', 'capacity_exhausted', 'parallelism_rejected',
	'duplicate_task', 'invalid_task_graph', 'invalid_mutation_operation', 'request_id_conflict',
	'tutti_issue_managed', 'issue_aborted',
	// developer confirmation
	'review_not_pending', 'acceptance_pending',
	// approvals
	'approval_not_found', 'approval_answered',
	// code delivery
	'not_integrable', 'dirty_workspace', 'workspace_busy', 'merge_conflict', 'not_integrated', 'push_failed',
	// generic surface
	'issue_not_found', 'run_not_found', 'session_not_found', 'agent_target_not_found',
	'invalid_input', 'unauthenticated', 'forbidden', 'not_managed',
	// infrastructure
	'host_unavailable', 'store_unavailable', 'store_corrupt', 'store_locked', 'identity_mismatch', 'version_mismatch', 'internal',
] as const;
export type ReasonCode = (typeof reasonCodes)[number];

/** Reasons that mean "your input is malformed" (CLI exit 2, HTTP 400). Everything else exits 1. */
export const invalidInputReasons: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['invalid_input', 'invalid_mutation_operation']);

/**
 * Every error that carries a reason code: a rule said no (DomainError) or the store refused (StoreError). The
 * control plane and the clients recognise both by this one class, never by the fields an object happens to have.
 */
export abstract class ReasonedError extends Error {
	abstract readonly reasonCode: ReasonCode;
	/** Exactly one hint naming the exact next command. */
	abstract readonly hint: string;
	abstract readonly details: Record<string, unknown>;
	/** The same request may succeed as is a little later (the Host or the store was briefly away). */
	abstract readonly retryable: boolean;
}

export class DomainError extends ReasonedError {
	constructor(
		readonly reasonCode: ReasonCode,
		message: string,
		/** Exactly one hint naming the exact next command. */
		readonly hint: string,
		readonly details: Record<string, unknown> = {},
		readonly retryable = false,
	) {
		super(message);
		this.name = 'DomainError';
	}
}
