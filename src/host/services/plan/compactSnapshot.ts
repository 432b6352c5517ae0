// `plan issue get`: the compact snapshot the source agent reads at every wake, flat in the graph's size,
// and `--task-id T`, one task in full. The source session's last read is remembered (plan_reads) so the next
// compact snapshot lists only the tasks changed since.
import { clipDependencies, clipTitle, compactLimits, selectCompactTasks } from '../../../core/execution/compactSnapshot.js';
import { blockerFor } from '../../../core/graph/blockers.js';
import { pausedByField } from '../../../core/issues/pauser.js';
import { rejection } from '../../../core/hints.js';
import type { Execution, Issue, Task } from '../../../core/model.js';
import { outcomeLabel } from '../../../core/runs/outcome.js';
import type { Caller, ParsedParams } from '../../../protocol/controlPlane.js';
import type { CompactPlanSnapshotDto, PlanTaskViewDto, SlimTaskDto } from '../../../protocol/dto.js';
import { deliveryRepository } from '../../../store/repositories/deliveryRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { planReadRepository } from '../../../store/repositories/planReadRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import type { CachedTask, IssueTaskView } from '../../../store/taskCache.js';
import type { Reader } from '../../../store/tx.js';
import { readTasksWithReadiness } from '../dtoMapping.js';
import { promptVerification, readTaskChecks } from '../../checks/verificationViews.js';
import { verificationRepository } from '../../../store/repositories/verificationRepository.js';
import { loadManaged, type PlanContext } from './planContext.js';
import { type PlanTaskSource, readPlanFacts, toCheckpointDto } from './planSnapshot.js';
import { type LaunchPricing, readSpendDto } from '../../usage/issueSpend.js';

/** The plan's readers: the source session and the developer; any other session is wrong_source_session. */
function loadReadable(r: Reader, issueId: string, caller: Caller, command: string): { issue: Issue; execution: Execution } {
	const managed = loadManaged(r, issueId, command);
	if (caller.kind === 'session' && caller.sessionId !== managed.execution.sourceSessionId) {
		throw rejection('wrong_source_session', `${command}: issue ${issueId} belongs to a different source session.`, { issueId });
	}
	return managed;
}

/** The latest Run's label ('' before one settled). */
function latestOutcomeLabel(r: Reader, task: Pick<Task, 'latestRunId'>): string {
	const run = task.latestRunId === '' ? undefined : runRepository.get(r, task.latestRunId);
	return run ? outcomeLabel(run, runRepository.stopEvents(r, run.runId)) ?? '' : '';
}

/** The accepted fact of the checkpoint's subject task, in one line: by whom, at which commit, what its checks said then. */
function subjectAcceptanceLabel(r: Reader, task: Task, acceptedCommit: string): string {
	return readTaskChecks(r, task.issueId, [task], () => acceptedCommit).get(task.taskId)?.acceptance?.label ?? 'Not accepted';
}

/**
 * `resultCommit`: the task's result commit (of its latest successful Run; '' when it has none). The checkpoint's subject
 * also says whether it is accepted (`acceptance`), so the three facts of the task in question — reported, verified,
 * accepted — are side by side.
 */
function toSlimTask(r: Reader, task: CachedTask, blockerReason: SlimTaskDto['blockerReason'] | '', resultCommit: string, acceptanceLabel?: string): SlimTaskDto {
	const { dependencyTaskIds, more } = clipDependencies(task.dependencyTaskIds);
	const label = latestOutcomeLabel(r, task);
	const verified = task.latestRunId === '' ? undefined : verificationRepository.latestOfRun(r, task.latestRunId);
	return {
		taskId: task.taskId,
		title: clipTitle(task.title),
		status: task.status,
		...(blockerReason && blockerReason !== 'task_not_started' ? { blockerReason } : {}),
		...(dependencyTaskIds.length > 0 ? { dependencyTaskIds } : {}),
		...(more > 0 ? { moreDependencies: more } : {}),
		...(task.latestRunId ? { latestRunId: task.latestRunId } : {}),
		...(label ? { outcomeLabel: label } : {}),
		...(resultCommit ? { resultCommit } : {}),
		...(verified !== undefined ? { verificationLabel: promptVerification(r, verified.runId).label } : {}),
		...(acceptanceLabel !== undefined && task.latestRunId !== '' ? { acceptanceLabel } : {}),
	};
}

export interface CompactRead {
	snapshot: CompactPlanSnapshotDto;
	/** The source session that read it (undefined for the developer): its last read moves to snapshot.taskRevision. */
	readerSessionId: string | undefined;
}

/** The plan's facts from the kept view of the issue's tasks: a few ready ids, the count, and rows by id. */
function viewTaskSource(r: Reader, view: IssueTaskView, issueId: string, readyLimit: number): PlanTaskSource {
	return {
		readyTaskIds: view.ready.next(readyLimit),
		readyCount: view.ready.count,
		awaitingAcceptanceTaskIds: () => taskRepository.activeIdsWithStatus(r, issueId, 'pending_acceptance'),
		all: () => view.ordered(),
	};
}

/** `tasks`: the issue's kept task view (Store.readWithTasks), so the read costs the same at any graph size. */
export function readCompactSnapshot(r: Reader, tasks: (issueId: string) => IssueTaskView, params: ParsedParams<'plan/getCompact'>, caller: Caller, pricing?: LaunchPricing): CompactRead {
	const { issue, execution } = loadReadable(r, params.issueId, caller, 'get');
	const readerSessionId = caller.kind === 'session' ? caller.sessionId : undefined;
	const since = params.sinceRevision ?? (readerSessionId ? planReadRepository.lastRead(r, readerSessionId, issue.issueId) : undefined) ?? 0;
	const view = tasks(issue.issueId);
	const facts = readPlanFacts(r, issue, execution, viewTaskSource(r, view, issue.issueId, Math.max(compactLimits.readyTaskIds, compactLimits.hintReadyIds)),
		{ hintReadyIds: compactLimits.hintReadyIds });
	const listedReady = facts.readyTaskIds.slice(0, compactLimits.readyTaskIds);
	const selection = selectCompactTasks({
		subjectTaskId: facts.active?.subjectTaskId ?? '',
		runningTaskIds: taskRepository.activeIdsWithStatus(r, issue.issueId, 'running'),
		changedTaskIds: taskRepository.changedSince(r, issue.issueId, since),
		readyTaskIds: listedReady,
	});
	const listedCheckpoints = facts.open.slice(0, compactLimits.checkpoints);
	const snapshot: CompactPlanSnapshotDto = {
		issueId: issue.issueId,
		title: issue.title,
		dispatchPaused: issue.dispatchPaused,
		...pausedByField(issue),
		execution: {
			executionId: execution.executionId,
			status: execution.status,
			graphRevision: execution.graphRevision,
			activeCheckpointId: execution.activeCheckpointId,
		},
		activeCheckpoint: facts.active ? toCheckpointDto(facts.active) : null,
		checkpoints: listedCheckpoints.map(toCheckpointDto),
		omittedCheckpointCount: facts.open.length - listedCheckpoints.length,
		allowedActions: facts.allowedActions,
		recoveryHint: facts.recoveryHint,
		spend: readSpendDto(r, issue.issueId, pricing),
		readyTaskIds: listedReady,
		readyCount: facts.readyCount,
		counts: issueRepository.counts(r, issue.issueId),
		taskRevision: view.revision,
		sinceRevision: since,
		tasks: selection.taskIds.flatMap((id) => {
			const task = view.byId.get(id);
			if (!task) { return []; }
			const subject = id === (facts.active?.subjectTaskId ?? '') ? taskRepository.get(r, issue.issueId, id) : undefined;
			const acceptance = subject ? subjectAcceptanceLabel(r, subject, deliveryRepository.acceptedCommit(r, issue.issueId, id)) : undefined;
			return [toSlimTask(r, task, blockerFor(task, view.byId), deliveryRepository.resultCommitOfTask(r, issue.issueId, id), acceptance)];
		}),
		omittedTaskCount: selection.omittedTaskCount,
		...(facts.independentReview ? { independentReview: facts.independentReview } : {}),
	};
	return { snapshot, readerSessionId };
}

/** `plan issue get --task-id T`: the task with its readiness and commits, and its latest Run's label. */
export function readPlanTask(r: Reader, params: ParsedParams<'plan/getTask'>, caller: Caller): PlanTaskViewDto {
	const { issue, execution } = loadReadable(r, params.issueId, caller, 'get');
	const tasks = taskRepository.listByIssue(r, issue.issueId);
	const task = readTasksWithReadiness(r, issue, tasks, execution.status)
		.find((t) => t.taskId === params.taskId);
	if (!task) {
		throw rejection('task_not_found', `get: issue ${issue.issueId} has no task ${params.taskId}.`, { issueId: issue.issueId, taskId: params.taskId });
	}
	const label = latestOutcomeLabel(r, tasks.find((t) => t.taskId === params.taskId)!);
	return {
		issueId: issue.issueId,
		execution: {
			executionId: execution.executionId,
			status: execution.status,
			graphRevision: execution.graphRevision,
			activeCheckpointId: execution.activeCheckpointId,
		},
		taskRevision: taskRepository.taskRevision(r, issue.issueId),
		task: { ...task, outcomeLabel: label === '' ? null : label },
	};
}

/**
 * The compact snapshot, remembering the source session's read. Remembering is best effort: a store that refuses
 * writes (full disk) still answers the read, and the same changes are listed again next time.
 */
export async function getCompactPlan(ctx: Pick<PlanContext, 'store' | 'clock' | 'log'> & { config?: LaunchPricing }, params: ParsedParams<'plan/getCompact'>, caller: Caller): Promise<CompactPlanSnapshotDto> {
	const { snapshot, readerSessionId } = ctx.store.readWithTasks((r, tasks) => readCompactSnapshot(r, tasks, params, caller, ctx.config));
	if (readerSessionId !== undefined) {
		const known = ctx.store.read((r) => planReadRepository.lastRead(r, readerSessionId, snapshot.issueId));
		if (known === undefined || known < snapshot.taskRevision) {
			try {
				await ctx.store.transaction((tx) => planReadRepository.recordRead(tx, readerSessionId, snapshot.issueId, snapshot.taskRevision, ctx.clock.now()));
			} catch (error) {
				ctx.log(`plan get: could not remember session ${readerSessionId}'s read of ${snapshot.issueId}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	}
	return snapshot;
}
