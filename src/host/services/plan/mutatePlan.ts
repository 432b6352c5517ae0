// `plan issue mutate`: operations the method table already checked strictly, fences, the pure graph mutation, then
// in one transaction: the task rows, revision + 1, the active checkpoint rebound to it, stale pending terminal
// checkpoints superseded, awaiting_main and a reset watchdog.
import { staleTerminalCheckpointIds } from '../../../core/execution/backlog.js';
import { applyMutationGraph } from '../../../core/graph/mutation.js';
import { rejection } from '../../../core/hints.js';
import type { Checkpoint, Execution, Issue, Task } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import type { MutationOperation } from '../../../protocol/operations.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import { executionDirectoryProblem } from '../../executionDirectory.js';
import { requireAgentWithinGrants } from '../launchGrants.js';
import { cancelActiveReviews } from '../../checkpoints/independentReview.js';
import { refreshPreparedWakes, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';
import { callerSessionId, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type MutateResult = Result<'plan/mutate'>;

/** Every executionDirectory an operation sets must stay inside the workspace (checked before any state is read). */
function checkExecutionDirectories(workspace: string, operations: readonly MutationOperation[], issueId: string): void {
	operations.forEach((op, index) => {
		const dir = op.task?.executionDirectory;
		if (dir === undefined) { return; }
		const problem = executionDirectoryProblem(workspace, dir.trim());
		if (problem !== null) {
			const taskId = op.task?.taskId ?? op.taskId;
			throw rejection('invalid_mutation_operation', `mutate: operation ${index + 1} (${op.kind}): ${problem}; nothing was changed.`,
				{ issueId, ...(taskId !== undefined ? { taskId } : {}) }, { operationIndex: index, executionDirectory: dir });
		}
	});
}

/**
 * An agent's mutation never widens what a task's agent may do: every added task (a rework's replacement too, whose
 * inherited settings count as asked for) and every updated one is held to its target's default and the issue's.
 */
function requireAgentMutationWithinGrants(
	ctx: PlanContext, caller: Caller, issue: Issue, before: readonly Task[],
	applied: { addedTaskIds: readonly string[]; updatedTaskIds: readonly string[] }, after: ReadonlyMap<string, Task>,
): void {
	const check = { issueId: issue.issueId, managed: true, issueAutoAcceptDefault: issue.autoAcceptDefault, command: 'plan issue mutate' };
	const original = new Map(before.map((t) => [t.taskId, t]));
	for (const id of applied.addedTaskIds) { requireAgentWithinGrants(caller, ctx.config, check, after.get(id)!, undefined); }
	for (const id of applied.updatedTaskIds) { requireAgentWithinGrants(caller, ctx.config, check, after.get(id)!, original.get(id)); }
}

/** `ctx.workspace`: the absolute workspace root that every executionDirectory must stay inside. */
export async function mutatePlan(ctx: PlanContext & { workspace: string }, params: ParsedParams<'plan/mutate'>, caller: Caller): Promise<MutateResult> {
	// A malformed shape never gets here (the method table refused it); a bad directory is refused before any state is read.
	const operations = params.operations;
	checkExecutionDirectories(ctx.workspace, operations, params.issueId);
	const identity = requestIdentity('mutate', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision, operations,
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<MutateResult>(tx, identity);
		if (replay) { return replay; }
		const { issue, execution: before, checkpoint } = passFences(tx, { ...params, caller, command: 'mutate' });
		const now = ctx.clock.now();
		const tasks = taskRepository.listByIssue(tx, issue.issueId);
		const applied = applyMutationGraph(tasks, operations, {
			nowUnixMs: now,
			issueId: issue.issueId,
			nextSortIndex: taskRepository.nextSortIndex(tx, issue.issueId),
			knownAgentTargetIds: new Set(ctx.config.agentTargets.map((t) => t.id)),
			autoAcceptDefault: issue.autoAcceptDefault,
		});
		if (!applied.ok) {
			throw rejection(applied.reasonCode, `mutate: ${applied.message}; nothing was changed.`,
				{ issueId: issue.issueId, checkpointId: checkpoint.checkpointId, taskId: applied.taskId },
				applied.taskId ? { taskId: applied.taskId } : {});
		}
		const byId = new Map(applied.tasks.map((t) => [t.taskId, t]));
		requireAgentMutationWithinGrants(ctx, caller, issue, tasks, applied, byId);
		for (const id of applied.addedTaskIds) { taskRepository.insert(tx, byId.get(id)!); }
		for (const id of applied.changedTaskIds) { taskRepository.update(tx, byId.get(id)!); }

		const graphRevision = before.graphRevision + 1;
		const rebound: Checkpoint = { ...checkpoint, graphRevision, updatedAtUnixMs: now };
		checkpointRepository.update(tx, rebound);
		refreshPreparedWakes(tx, issue, rebound, now);
		const all = checkpointRepository.listByExecution(tx, before.executionId);
		for (const id of staleTerminalCheckpointIds(all, graphRevision)) {
			const stale = all.find((c) => c.checkpointId === id)!;
			checkpointRepository.update(tx, { ...stale, status: 'superseded', updatedAtUnixMs: now });
		}
		// A prepared/dispatched independent review of `checkpoint` judged the old graph: canceled (graph_superseded).
		cancelActiveReviews(tx, checkpoint.checkpointId, now);
		const execution: Execution = withWatchdogReset({ ...before, graphRevision, status: 'awaiting_main' }, now);
		executionRepository.update(tx, execution);
		return recordResult(tx, identity, {
			executionId: execution.executionId,
			checkpointId: checkpoint.checkpointId,
			graphRevision,
			addedTaskIds: applied.addedTaskIds,
			updatedTaskIds: applied.updatedTaskIds,
			supersededTaskIds: applied.supersededTaskIds,
			replayed: false,
		}, graphRevision, now);
	});
}
