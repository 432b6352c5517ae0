// `plan issue acknowledge`: resolves a settlement, watchdog or changes_requested checkpoint without new
// work, only while a Run is running or a later checkpoint is pending (every fence failure reads inactive_checkpoint).
// Unlike Tutti, it never accepts the settled subject: only the developer accepts a pending_acceptance task.
// The oldest pending checkpoint is promoted rebound to the current revision — the terminal singleton opens Goal Review.
import { hasLaterPending } from '../../../core/execution/backlog.js';
import type { Execution } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { promoteNext, resolveCheckpoint, statusWhileActive, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';
import { callerSessionId, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type AcknowledgeResult = Result<'plan/acknowledge'>;

export async function acknowledgePlan(ctx: PlanContext, params: ParsedParams<'plan/acknowledge'>, caller: Caller): Promise<AcknowledgeResult> {
	const identity = requestIdentity('acknowledge', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision,
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<AcknowledgeResult>(tx, identity);
		if (replay) { return replay; }
		let running = false;
		const state = passFences(tx, { ...params, caller, command: 'acknowledge' }, (managed, named) => {
			running = executionRepository.hasRunningRun(tx, managed.issue.issueId);
			return {
				hasRunningRun: running,
				hasPendingCheckpoint: hasLaterPending(checkpointRepository.listOpen(tx, managed.execution.executionId), named),
			};
		});
		const { issue, checkpoint } = state;
		const now = ctx.clock.now();
		// Acknowledging never accepts the subject's result: a task in pending_acceptance (autoAccept=false) stays there
		// until the developer accepts it or requests changes (`tutti review accept|request-changes`).
		resolveCheckpoint(tx, checkpoint, now);
		const promoted = promoteNext(tx, state.execution, issue, now);
		// An all_tasks_terminal `promoted` of an independent execution got its reviewer's Goal Review in promoteNext.
		const execution: Execution = withWatchdogReset({
			...state.execution,
			activeCheckpointId: promoted?.checkpointId ?? '',
			status: promoted ? statusWhileActive(promoted) : running ? 'running' : 'awaiting_main',
		}, now);
		executionRepository.update(tx, execution);
		return recordResult(tx, identity, {
			executionId: execution.executionId,
			checkpointId: checkpoint.checkpointId,
			graphRevision: execution.graphRevision,
			nextCheckpointId: promoted?.checkpointId ?? '',
			nextCheckpointKind: promoted?.kind ?? '',
			nextCheckpointState: promoted?.status ?? '',
			replayed: false,
		}, execution.graphRevision, now);
	});
}
