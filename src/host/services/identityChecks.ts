// Identity fails closed: an execution, checkpoint or Run read back from the store is checked against the ids it is
// derived from before the Host acts on it or shows it. A mismatch is refused with `identity_mismatch`; the refusal
// is thrown inside the read or transaction, so nothing is written.
import { rejection } from '../../core/hints.js';
import { verifyCheckpointIdentity, verifyExecutionIdentity, verifyRunIdentity } from '../../core/ids.js';
import type { Checkpoint, Execution, Run } from '../../core/model.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import type { Reader } from '../../store/tx.js';

function refuse(problem: string | null, ctx: { issueId?: string; checkpointId?: string; taskId?: string; runId?: string }): void {
	if (problem !== null) { throw rejection('identity_mismatch', `Refused: ${problem}.`, ctx); }
}

/** The execution read for `issueId` must be that issue's execution. */
export function requireExecutionIdentity(execution: Execution, issueId: string): void {
	refuse(verifyExecutionIdentity(execution, { issueId }), { issueId });
}

/** A checkpoint read for `issueId` must carry the id its kind, sequence and subject derive, in that issue's execution. */
export function requireCheckpointIdentity(checkpoint: Checkpoint, issueId: string): void {
	refuse(verifyCheckpointIdentity(checkpoint, { issueId }), { issueId, checkpointId: checkpoint.checkpointId });
}

/** A Run must belong to the task it is read for (when given) and agree with the worker session admitted with it. */
export function requireRunIdentity(r: Reader, run: Run, expected: { issueId?: string; taskId?: string } = {}): void {
	const session = run.agentSessionId !== '' ? sessionRepository.get(r, run.agentSessionId) : undefined;
	refuse(verifyRunIdentity(run, { ...expected, ...(session ? { session } : {}) }), { issueId: run.issueId, runId: run.runId });
}
