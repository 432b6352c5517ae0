// What every plan command needs: its dependencies, the caller's session, and the fenced view of one execution.
import { checkFences, type FencedCommand } from '../../../core/execution/fences.js';
import { rejection } from '../../../core/hints.js';
import type { Checkpoint, Execution, Issue } from '../../../core/model.js';
import type { Clock, IdSource } from '../../../core/ports.js';
import type { Caller } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import type { Reader } from '../../../store/tx.js';
import type { RunProcessPort } from '../../../core/runs/runProcessPort.js';
import type { HostConfig } from '../../config.js';
import { requireCheckpointIdentity, requireExecutionIdentity } from '../identityChecks.js';
import type { RunAdmission } from '../../runs/runAdmission.js';

export interface PlanContext {
	store: Store;
	clock: Clock;
	ids: IdSource;
	config: HostConfig;
	admission: RunAdmission;
	/** Interrupts an agent Turn's process group by its runner id (an archive stops the exact Turns it cancels). */
	processes: Pick<RunProcessPort, 'interrupt'>;
	log(line: string): void;
}

/** The caller's session id for fences and request identities ('' for the developer, who is never a source). */
export function callerSessionId(caller: Caller): string {
	return caller.kind === 'session' ? caller.sessionId : '';
}

/** A managed issue and its execution. */
export interface ManagedIssue {
	issue: Issue;
	execution: Execution;
}

/**
 * The issue's execution, or null when the issue does not exist or is not managed. An execution whose id is not the
 * one derived from the issue is refused (`identity_mismatch`).
 */
export function findManaged(r: Reader, issueId: string): ManagedIssue | null {
	const issue = issueRepository.get(r, issueId);
	if (!issue || issue.planningSource !== 'tutti') { return null; }
	const execution = executionRepository.getByIssue(r, issueId);
	if (!execution) { return null; }
	requireExecutionIdentity(execution, issue.issueId);
	return { issue, execution };
}

/** The issue's execution, or `execution_not_found`. */
export function loadManaged(r: Reader, issueId: string, command: string): ManagedIssue {
	const managed = findManaged(r, issueId);
	if (!managed) { throw rejection('execution_not_found', `${command}: issue ${issueId} has no managed execution.`, { issueId }); }
	return managed;
}

export interface FencedState extends ManagedIssue {
	/** The named checkpoint, which passed the fences: active, current and bound to the expected revision. */
	checkpoint: Checkpoint;
}

/**
 * Loads the execution and the named checkpoint and applies the core fences (session, active checkpoint, graph revision, in that order). Throws the one
 * rejection with its hint; returns the fenced state otherwise.
 */
export function passFences(
	r: Reader,
	input: { caller: Caller; issueId: string; checkpointId: string; expectedGraphRevision: number; command: FencedCommand },
	acknowledgeBacklog?: (managed: ManagedIssue, checkpoint: Checkpoint | null) => { hasRunningRun: boolean; hasPendingCheckpoint: boolean },
): FencedState {
	const managed = findManaged(r, input.issueId);
	const named = managed ? checkpointRepository.get(r, input.checkpointId) : undefined;
	const checkpoint = named && managed && named.executionId === managed.execution.executionId ? named : null;
	if (checkpoint && managed) { requireCheckpointIdentity(checkpoint, managed.issue.issueId); }
	const refusal = checkFences({
		callerSessionId: callerSessionId(input.caller),
		execution: managed?.execution ?? null,
		checkpoint,
		expectedGraphRevision: input.expectedGraphRevision,
		command: input.command,
		acknowledgeBacklog: managed && acknowledgeBacklog ? acknowledgeBacklog(managed, checkpoint) : undefined,
	});
	if (refusal || !managed || !checkpoint) {
		const reason = refusal?.reasonCode ?? 'inactive_checkpoint';
		throw rejection(reason, refusal?.message ?? `${input.command}: caller, checkpoint, or revision is not current`,
			{ issueId: input.issueId, checkpointId: input.checkpointId });
	}
	return { ...managed, checkpoint };
}
