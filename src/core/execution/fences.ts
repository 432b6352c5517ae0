// The fences every source command passes: the caller is the execution's source session,
// the named checkpoint is the active one, and the expected revision equals the execution's and the checkpoint's.
// The Host checks request-id replay BEFORE calling this (a replay after the state moved still succeeds).
import type { ReasonCode } from '../errors.js';
import type { Checkpoint, Execution, ExecutionStatus } from '../model.js';
import { acknowledgeableKinds } from './allowedActions.js';

export type FencedCommand = 'schedule' | 'mutate' | 'acknowledge' | 'complete' | 'stop';

export interface FenceRejection {
	reasonCode: Extract<ReasonCode, 'execution_not_found' | 'wrong_source_session' | 'stale_graph_revision' | 'inactive_execution' | 'inactive_checkpoint'>;
	message: string;
}

export interface FenceInput {
	callerSessionId: string;
	/** The execution, or null when the issue has none. */
	execution: Pick<Execution, 'executionId' | 'sourceSessionId' | 'status' | 'graphRevision' | 'activeCheckpointId'> | null;
	/** The checkpoint row the caller named (looked up by id within the execution), or null when there is none. */
	checkpoint: Pick<Checkpoint, 'checkpointId' | 'executionId' | 'kind' | 'status' | 'graphRevision'> | null;
	expectedGraphRevision: number;
	command: FencedCommand;
	/**
	 * For `acknowledge` only: the backlog facts of {@link canAcknowledge}. When given and neither holds, the
	 * acknowledge is rejected as `inactive_checkpoint` (an acknowledge with nothing left to wait for would strand the source agent).
	 */
	acknowledgeBacklog?: { hasRunningRun: boolean; hasPendingCheckpoint: boolean };
}

/** Execution statuses in which each command is admitted. */
export const commandStatuses: Record<FencedCommand, readonly ExecutionStatus[]> = {
	schedule: ['awaiting_schedule', 'awaiting_main'],
	mutate: ['awaiting_schedule', 'awaiting_main', 'pending_goal_review'],
	acknowledge: ['awaiting_schedule', 'awaiting_main'],
	/** `awaiting_main` too: a mutation at Goal Review leaves the terminal checkpoint active in awaiting_main. */
	complete: ['pending_goal_review', 'awaiting_main'],
	stop: ['awaiting_schedule', 'running', 'awaiting_main', 'pending_goal_review'],
};

const notCurrent = 'caller, checkpoint, or revision is not current';

function isActiveCheckpointOf(input: FenceInput): boolean {
	const { execution, checkpoint } = input;
	return checkpoint !== null && execution !== null && checkpoint.status === 'active'
		&& checkpoint.executionId === execution.executionId && checkpoint.checkpointId === execution.activeCheckpointId;
}

/** schedule / mutate: each fence has its own reason, checked in Tutti's order. */
function checkWorkFences(input: FenceInput & { execution: NonNullable<FenceInput['execution']> }): FenceRejection | null {
	const { execution, checkpoint, expectedGraphRevision, command } = input;
	if (expectedGraphRevision !== execution.graphRevision) {
		return { reasonCode: 'stale_graph_revision', message: `${command}: expected graph revision ${expectedGraphRevision} but the execution is at revision ${execution.graphRevision}` };
	}
	if (!commandStatuses[command].includes(execution.status)) {
		return { reasonCode: 'inactive_execution', message: `${command}: the execution is ${execution.status} and does not accept ${command}` };
	}
	if (!isActiveCheckpointOf(input)) {
		const what = checkpoint ? `checkpoint ${checkpoint.checkpointId} is ${checkpoint.status}` : 'the named checkpoint does not exist';
		return { reasonCode: 'inactive_checkpoint', message: `${command}: ${what}; the active checkpoint is ${execution.activeCheckpointId || 'none'}` };
	}
	if (checkpoint!.graphRevision !== expectedGraphRevision) {
		return { reasonCode: 'stale_graph_revision', message: `${command}: checkpoint ${checkpoint!.checkpointId} is bound to revision ${checkpoint!.graphRevision}, not ${expectedGraphRevision}` };
	}
	return null;
}

/** acknowledge / complete / stop: every failure past the caller check reads `inactive_checkpoint`. */
function checkDecisionFences(input: FenceInput & { execution: NonNullable<FenceInput['execution']> }): FenceRejection | null {
	const { execution, checkpoint, expectedGraphRevision, command } = input;
	const current = expectedGraphRevision === execution.graphRevision
		&& commandStatuses[command].includes(execution.status)
		&& isActiveCheckpointOf(input)
		&& checkpoint!.graphRevision === expectedGraphRevision
		&& (command !== 'acknowledge' || acknowledgeableKinds.includes(checkpoint!.kind))
		&& (command !== 'complete' || checkpoint!.kind === 'all_tasks_terminal')
		&& (command !== 'acknowledge' || !input.acknowledgeBacklog
			|| input.acknowledgeBacklog.hasRunningRun || input.acknowledgeBacklog.hasPendingCheckpoint);
	return current ? null : { reasonCode: 'inactive_checkpoint', message: `${command}: ${notCurrent}` };
}

/**
 * null when the command may proceed, else the one rejection to report. Order: execution_not_found →
 * wrong_source_session → then, for schedule/mutate: stale_graph_revision (execution) → inactive_execution →
 * inactive_checkpoint → stale_graph_revision (checkpoint binding); for acknowledge/complete/stop every remaining
 * failure is `inactive_checkpoint` ("caller, checkpoint, or revision is not current"), including a checkpoint of
 * the wrong kind and (acknowledge) a backlog with neither running work nor a later pending checkpoint.
 */
export function checkFences(input: FenceInput): FenceRejection | null {
	const { execution } = input;
	if (!execution) { return { reasonCode: 'execution_not_found', message: `${input.command}: this issue has no managed execution` }; }
	if (input.callerSessionId !== execution.sourceSessionId) {
		return { reasonCode: 'wrong_source_session', message: `${input.command}: the execution belongs to a different source session` };
	}
	const withExecution = { ...input, execution };
	return input.command === 'schedule' || input.command === 'mutate' ? checkWorkFences(withExecution) : checkDecisionFences(withExecution);
}

function canonicalize(value: unknown): unknown {
	if (Array.isArray(value)) { return value.map((v) => (v === undefined ? null : canonicalize(v))); }
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) {
			const v = (value as Record<string, unknown>)[key];
			if (v !== undefined) { out[key] = canonicalize(v); }
		}
		return out;
	}
	return value;
}

/** JSON with object keys sorted at every depth (arrays keep their order; undefined members are dropped). */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(canonicalize(value)) ?? 'null';
}

/**
 * The text whose SHA-256 (computed by the caller; core has no crypto) binds a request id to its payload,
 * e.g. `requestDigest('schedule', {checkpointId, expectedGraphRevision, taskIds})`.
 * Same payload in any key order → same text; a different payload → different text.
 */
export function requestDigest(kind: string, payload: unknown): string {
	return canonicalJson({ kind, payload });
}
