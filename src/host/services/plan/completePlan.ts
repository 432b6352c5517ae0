// `plan issue complete --decision goal_satisfied` (digest §1.5, §1.7 item 12): only the source session, only at
// the active all_tasks_terminal checkpoint and its revision. Resolves it and completes the execution and the
// issue atomically; completion is never inferred from task states.
import type { Execution } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import { resolveCheckpoint } from './checkpointSteps.js';
import { callerSessionId, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type CompleteResult = Result<'plan/complete'>;

export async function completePlan(ctx: PlanContext, params: ParsedParams<'plan/complete'>, caller: Caller): Promise<CompleteResult> {
	const identity = requestIdentity('complete', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision,
		decision: params.decision, disagreementReason: params.disagreementReason ?? '',
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<CompleteResult>(tx, identity);
		if (replay) { return replay; }
		const { issue, execution: before, checkpoint } = passFences(tx, { ...params, caller, command: 'complete' });
		const now = ctx.clock.now();
		// Developer confirmation hook (later issue, SPEC §7): with confirmation on, record the source's decision here
		// and leave the execution in pending_goal_review until the developer confirms; the steps below then run at
		// the confirmation.
		resolveCheckpoint(tx, checkpoint, now);
		checkpointRepository.cancelOpen(tx, before.executionId, now);
		wakeRepository.cancelOpenOfExecution(tx, before.executionId, now, 'execution completed');
		const execution: Execution = { ...before, status: 'completed', activeCheckpointId: '', completedAtUnixMs: now, updatedAtUnixMs: now };
		executionRepository.update(tx, execution);
		issueRepository.update(tx, { ...issue, status: 'completed', updatedAtUnixMs: now });
		return recordResult(tx, identity, {
			executionId: execution.executionId,
			checkpointId: checkpoint.checkpointId,
			graphRevision: execution.graphRevision,
			decision: params.decision,
			replayed: false,
		}, execution.graphRevision, now);
	});
}
