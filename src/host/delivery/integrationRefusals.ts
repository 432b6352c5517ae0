// The refusals of `tutti issue integrate` that leave the developer a way forward (src/core/issues/integrationWayForward.ts
// writes them): tasks not accepted (each with its own next command), and a conflict — the task to bring up to date,
// what its tree lacks, where that tree is, and what Update from base would do for it in this state.
import { DomainError } from '../../core/errors.js';
import type { IntegrateOptions } from '../../core/issues/developerCommands.js';
import { type BlockingTask, conflictRefusal, notAcceptedHint, type UpdateFromBaseMode } from '../../core/issues/integrationWayForward.js';
import type { ExecutionStatus, Issue, Task } from '../../core/model.js';
import { effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { HostConfig } from '../config.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { reworkChain } from '../worktrees/worktreePaths.js';
import { baseSources, type OrderedCommit } from './baseSources.js';
import { resolveCommit } from './combineCommits.js';

export interface RefusalDeps {
	workspace: string;
	store: Store;
	config: HostConfig;
	worktrees: WorktreeManager;
}

/** `not_integrable`: tasks that are not accepted (any more), each named with the command that moves it on. */
export function notAcceptedRefusal(deps: Pick<RefusalDeps, 'store'>, issue: Issue, tasks: readonly Task[], into: string | undefined): DomainError {
	const changed = new Set(deps.store.read((r) => deliveryRepository.openAcceptanceChanges(r, issue.issueId)));
	const blocking: BlockingTask[] = tasks.map((t) => ({ taskId: t.taskId, status: t.status, changedAfterAcceptance: changed.has(t.taskId) }));
	const names = blocking.map((t) => `${t.taskId} (${t.changedAfterAcceptance ? 'changed after acceptance' : t.status})`);
	return new DomainError('not_integrable',
		`Issue ${issue.issueId} has tasks that are not accepted yet: ${names.join(', ')}. Nothing was changed.`,
		notAcceptedHint(issue.issueId, issue.planningSource === 'tutti', blocking, into),
		{ issueId: issue.issueId, notAcceptedTaskIds: tasks.map((t) => t.taskId), ...(changed.size > 0 ? { changedAfterAcceptanceTaskIds: [...changed] } : {}) });
}

export interface ConflictInput {
	issue: Issue;
	into: string;
	paths: readonly string[];
	/** The two commits that conflict (the branch's head, or a task's accepted commit; the second is a task's). */
	between: readonly [string, string];
	/** What the integration merged, in its order. */
	order: readonly OrderedCommit[];
	/** How it was asked for (squash, push, accepted only), repeated in the printed integrate. */
	asked?: Omit<IntegrateOptions, 'into'>;
}

/** What Update from base would do for `task` now, and why not when it is not possible. */
function updateMode(deps: RefusalDeps, issue: Issue, task: Task | undefined, executionStatus: ExecutionStatus | undefined): { mode: UpdateFromBaseMode; reason?: string } {
	if (issue.planningSource === 'tutti' && executionStatus !== 'completed') {
		return { mode: 'unavailable', reason: 'its tasks are the source agent\'s until the Goal Review' };
	}
	const target = deps.config.agentTargets.find((t) => t.id === task?.agentTargetId);
	return { mode: target !== undefined && effectiveOnMergeConflict(target) === 'agent' ? 'agent' : 'developer' };
}

/**
 * `merge_conflict`: the paths, and both ways forward for the task whose work conflicts with what comes before it (in
 * full in the hint; as short lines in the details' `ways`, which the panel's conflict block shows beside its buttons).
 */
export async function conflictRefusalOf(deps: RefusalDeps, input: ConflictInput): Promise<DomainError> {
	const { issue, into } = input;
	const taskOf = new Map(input.order.map((o) => [o.commit, o.taskId] as const));
	const taskId = taskOf.get(input.between[1]) ?? taskOf.get(input.between[0]) ?? '';
	const other = input.between[0];
	const withLabel = taskOf.has(other) && taskOf.get(other) !== taskId ? `task ${taskOf.get(other)!}` : `${into} (${other.slice(0, 12)})`;
	const facts = deps.store.read((r) => {
		const all = taskRepository.listByIssue(r, issue.issueId);
		const supersededBy = new Map(all.map((t) => [t.taskId, t.supersededByTaskId] as const));
		return {
			task: all.find((t) => t.taskId === taskId),
			executionStatus: issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issue.issueId)?.status : undefined,
			tree: deps.worktrees.existingTree(issue.issueId, reworkChain(taskId, supersededBy)),
		};
	});
	const accepted = input.order.find((o) => o.taskId === taskId)?.commit ?? input.between[1];
	let tip = '';
	try { tip = await resolveCommit(deps.workspace, `refs/heads/${into}`); } catch { /* the branch vanished meanwhile: name only the tasks */ }
	const sources = tip !== '' ? await baseSources(deps.workspace, into, tip, input.order, taskId, accepted) : [];
	const update = updateMode(deps, issue, facts.task, facts.executionStatus);
	const { message, hint, ways } = conflictRefusal({
		issueId: issue.issueId, into, paths: input.paths, taskId, withLabel, tree: facts.tree?.relativePath ?? '', sources,
		updateFromBase: update.mode, ...(update.reason !== undefined ? { unavailableReason: update.reason } : {}),
		...(input.asked !== undefined ? { asked: input.asked } : {}),
	});
	return new DomainError('merge_conflict', message, hint, {
		issueId: issue.issueId, into, paths: [...input.paths], between: input.between.map((c) => taskOf.get(c) ?? c),
		taskId, tree: facts.tree?.relativePath ?? '', sources, updateFromBase: update.mode, ways,
	});
}
