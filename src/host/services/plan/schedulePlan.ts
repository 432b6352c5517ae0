// `plan issue schedule`: the exact task set or nothing. One transaction: fences,
// pause, readiness, capacity, admission of the Runs, resolution of the checkpoint, and promotion of the oldest
// pending checkpoint rebound to the current revision. The Runs are launched only after the commit. Unlike Tutti,
// scheduling never accepts the settled subject nor projects it as accepted: only the developer accepts.
import { computeReadiness } from '../../../core/graph/blockers.js';
import { rejection } from '../../../core/hints.js';
import { sourceCannotResume } from '../../../core/issues/pauser.js';
import type { Execution, Task } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import type { Tx } from '../../../store/tx.js';
import { hasAcceptedParentCommits } from '../../delivery/acceptanceChanges.js';
import { promoteNext, resolveCheckpoint, statusWhileActive, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';
import { callerSessionId, type FencedState, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type ScheduleResult = Result<'plan/schedule'>;

/** The tasks to admit, in request order, or the first rejection (all or nothing). */
function selectExactSet(tx: Tx, ctx: PlanContext, state: FencedState, taskIds: readonly string[]): Task[] {
	const { issue, checkpoint } = state;
	const where = { issueId: issue.issueId, checkpointId: checkpoint.checkpointId };
	const seen = new Set<string>();
	for (const id of taskIds) {
		if (seen.has(id)) { throw rejection('duplicate_task', `schedule: task ${id} is listed more than once.`, { ...where, taskId: id }); }
		seen.add(id);
	}
	const tasks = taskRepository.listByIssue(tx, issue.issueId);
	const byId = new Map(tasks.map((t) => [t.taskId, t]));
	// No projection of the settled subject: a pending_acceptance task satisfies no edge until the developer accepts it.
	const readiness = computeReadiness(tasks);
	const selected: Task[] = [];
	for (const id of taskIds) {
		const task = byId.get(id);
		if (!task) { throw rejection('task_not_found', `schedule: issue ${issue.issueId} has no task ${id}.`, { ...where, taskId: id }); }
		const blocker = readiness.get(id)?.blockerReason ?? '';
		if (blocker !== '') {
			throw rejection(blocker, `schedule: task ${id} is not ready (${blocker}); nothing was scheduled.`, { ...where, taskId: id },
				{ taskId: id, blockerReason: blocker });
		}
		selected.push(task);
	}
	const running = runRepository.countRunning(tx);
	if (running + selected.length > ctx.config.maxParallelRuns) {
		throw rejection('capacity_exhausted',
			`schedule: ${selected.length} new Run(s) with ${running} already running exceeds maxParallelRuns ${ctx.config.maxParallelRuns}; nothing was scheduled.`,
			where, { running, requested: selected.length, maxParallelRuns: ctx.config.maxParallelRuns });
	}
	return selected;
}

export async function schedulePlan(ctx: PlanContext, params: ParsedParams<'plan/schedule'>, caller: Caller): Promise<ScheduleResult> {
	const identity = requestIdentity('schedule', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision, taskIds: params.taskIds,
	});
	// Nothing starts from a stale acceptance: a parent whose branch moved after its acceptance is pending acceptance
	// again before the readiness check below (which then refuses its dependents, naming the blocker).
	if (ctx.store.read((r) => hasAcceptedParentCommits(r, params.issueId, params.taskIds))) {
		await ctx.admission.reopenChangedParents(params.issueId, params.taskIds);
	}
	// A Turn of this issue that has ended but whose exit the Host has not handled yet counts before the budget is asked.
	await ctx.admission.countEndedTurns(params.issueId);
	const outcome = await ctx.store.transaction((tx) => {
		const replay = replayOf<ScheduleResult>(tx, identity);
		if (replay) { return { result: replay, launch: [] as string[] }; }
		const state = passFences(tx, { ...params, caller, command: 'schedule' });
		const { issue, checkpoint } = state;
		if (sourceCannotResume(issue)) {
			throw rejection('paused_by_developer', `schedule: the developer paused issue ${issue.issueId}; nothing was scheduled, and it stays paused until they resume it.`,
				{ issueId: issue.issueId, checkpointId: checkpoint.checkpointId });
		}
		if (issue.dispatchPaused) {
			throw rejection('dispatch_paused', `schedule: dispatch of issue ${issue.issueId} is paused; nothing was scheduled.`,
				{ issueId: issue.issueId, checkpointId: checkpoint.checkpointId });
		}
		const now = ctx.clock.now();
		const selected = selectExactSet(tx, ctx, state, params.taskIds);
		const admitted = ctx.admission.admit(tx, issue, selected);
		resolveCheckpoint(tx, checkpoint, now);
		const promoted = promoteNext(tx, state.execution, issue, now);
		const execution: Execution = withWatchdogReset({
			...state.execution,
			activeCheckpointId: promoted?.checkpointId ?? '',
			status: promoted ? statusWhileActive(promoted) : 'running',
		}, now);
		executionRepository.update(tx, execution);
		const runIds = admitted.map((a) => a.runId);
		const result = recordResult(tx, identity, {
			executionId: execution.executionId,
			checkpointId: checkpoint.checkpointId,
			graphRevision: execution.graphRevision,
			runIds,
			replayed: false,
		}, execution.graphRevision, now);
		return { result, launch: runIds };
	});
	if (outcome.launch.length > 0) {
		// External work only after the commit, from the persisted launch intents (restart recovers a lost launch).
		await ctx.admission.launch(outcome.launch).catch((e: unknown) => {
			ctx.log(`launching runs ${outcome.launch.join(', ')} failed: ${(e as Error).message}`);
		});
	}
	return outcome.result;
}
