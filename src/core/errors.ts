// Stable rejection reasons (digest §1.6) and the error every layer throws for a domain rejection.

export const reasonCodes = [
	// managed-execution fences and rules (digest §1.6)
	'execution_not_found', 'wrong_source_session', 'inactive_execution', 'inactive_checkpoint',
	'stale_graph_revision', 'task_not_found', 'task_not_started', 'task_superseded', 'missing_agent_target',
	'dependency_unsatisfied', 'dispatch_paused', 'paused_by_developer', 'budget_exceeded', 'budget_unavailable', 'capacity_exhausted', 'parallelism_rejected',
	'duplicate_task', 'invalid_task_graph', 'invalid_mutation_operation', 'request_id_conflict',
	'tutti_issue_managed',
	// developer confirmation (SPEC §7)
	'review_not_pending', 'acceptance_pending',
	// approvals (SPEC §8b)
	'approval_not_found', 'approval_answered',
	// code delivery (SPEC §8a)
	'not_integrable', 'dirty_workspace', 'workspace_busy', 'merge_conflict',
	// generic surface
	'issue_not_found', 'run_not_found', 'session_not_found', 'agent_target_not_found',
	'invalid_input', 'unauthenticated', 'forbidden', 'not_managed',
	// infrastructure
	'host_unavailable', 'store_unavailable', 'store_corrupt', 'store_locked', 'identity_mismatch', 'internal',
] as const;
export type ReasonCode = (typeof reasonCodes)[number];

/** Reasons that mean "your input is malformed" (CLI exit 2, HTTP 400). Everything else exits 1. */
export const invalidInputReasons: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['invalid_input', 'invalid_mutation_operation']);

export class DomainError extends Error {
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
