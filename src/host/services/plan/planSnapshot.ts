// `plan issue get --full`: the execution, its active checkpoint and pending backlog, every task with its
// readiness (superseded history included, never ready), readyTaskIds, allowedActions and the recovery hint. The
// compact default (compactSnapshot.ts) derives from the same facts.
// One pass over the tasks and one over the issue's Runs, so it stays fast at 1,000 tasks; the compact snapshot reads
// the same facts from the Host's kept view of the tasks instead of the list.
import { allowedActions } from '../../../core/execution/allowedActions.js';
import { hasLaterPending } from '../../../core/execution/backlog.js';
import { recoveryHint } from '../../../core/execution/recoveryHint.js';
import { reviewOnlyOwed } from '../../../core/execution/reviewOwed.js';
import { readyTaskIds } from '../../../core/graph/blockers.js';
import { pausedByField, sourceCannotResume } from '../../../core/issues/pauser.js';
import type { Checkpoint, Execution, Issue, PlanAction, Task } from '../../../core/model.js';
import type { BudgetDecision } from '../../../core/usage/budget.js';
import type { CheckpointDto, PlanSnapshotDto } from '../../../protocol/dto.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Reader } from '../../../store/tx.js';
import { readTasksWithReadiness, toWakeDto } from '../dtoMapping.js';
import { requireCheckpointIdentity } from '../identityChecks.js';
import { currentReview } from '../../checkpoints/independentReview.js';
import { issueBudgetDecision, type LaunchPricing, readSpendDto } from '../../usage/issueSpend.js';

export function toCheckpointDto(c: Checkpoint): CheckpointDto {
	return {
		checkpointId: c.checkpointId,
		kind: c.kind,
		status: c.status,
		sequence: c.sequence,
		graphRevision: c.graphRevision,
		subjectTaskId: c.subjectTaskId,
		subjectRunId: c.subjectRunId,
		creationReason: c.creationReason,
		requiresGoalReview: c.requiresGoalReview,
		...(c.kind === 'changes_requested' || c.kind === 'goal_changes_requested' || c.kind === 'task_accepted' ? { note: c.note ?? '' } : {}),
	};
}

/** What the full and the compact snapshot both derive: checkpoints, readiness, actions and the hint. */
export interface PlanFacts {
	open: Checkpoint[];
	active: Checkpoint | null;
	/** Ready task ids in dispatch order: all of them (full), or the first few (compact; readyCount has the number). */
	readyTaskIds: string[];
	readyCount: number;
	allowedActions: PlanAction[];
	recoveryHint: string;
	independentReview: PlanSnapshotDto['independentReview'];
}

/** How the facts read the issue's tasks: from the whole list (`--full`) or from the Host's kept view (compact). */
export interface PlanTaskSource {
	readyTaskIds: string[];
	readyCount: number;
	/** Active tasks awaiting acceptance, in backlog order. */
	awaitingAcceptanceTaskIds(): string[];
	/** Every task (superseded included), in backlog order; asked only when the developer's review may be all that is owed. */
	all(): readonly Pick<Task, 'taskId' | 'status' | 'supersededAtUnixMs' | 'dependencyTaskIds'>[];
}

function budgetBlockerOf(decision: BudgetDecision): string {
	return decision.kind === 'ok' ? '' : decision.message;
}

/** The source over the whole task list. */
export function listTaskSource(tasks: readonly Task[]): PlanTaskSource {
	const ready = readyTaskIds(tasks);
	return {
		readyTaskIds: ready,
		readyCount: ready.length,
		awaitingAcceptanceTaskIds: () => tasks.filter((t) => t.supersededAtUnixMs === 0 && t.status === 'pending_acceptance').map((t) => t.taskId),
		all: () => tasks,
	};
}

/** `hintReadyIds`: at most this many ready ids in the recovery hint's schedule command (default: all given). */
export function readPlanFacts(r: Reader, issue: Issue, execution: Execution, tasks: PlanTaskSource, options: { hintReadyIds?: number } = {}): PlanFacts {
	const open = checkpointRepository.listOpen(r, execution.executionId);
	for (const checkpoint of open) { requireCheckpointIdentity(checkpoint, issue.issueId); }
	const active = open.find((c) => c.status === 'active') ?? null;
	const ready = tasks.readyTaskIds;
	const running = executionRepository.hasRunningRun(r, issue.issueId);
	const actions = allowedActions({
		execution,
		activeCheckpoint: active,
		hasRunningRun: running,
		hasPendingCheckpoint: hasLaterPending(open, active),
		anyTaskReady: tasks.readyCount > 0,
		dispatchPaused: issue.dispatchPaused,
		pausedByDeveloper: sourceCannotResume(issue),
	});
	const review = active ? currentReview(r, active) : undefined;
	// The kept counts and the ready count answer the rule's first questions without the task list: a task running, none
	// in review, or a ready task (its dependencies are all accepted, so it waits on no review) each mean nothing is owed.
	const counts = issueRepository.counts(r, issue.issueId);
	const mayOweReviewOnly = counts.running === 0 && counts.pendingAcceptance > 0 && tasks.readyCount === 0;
	return {
		open,
		active,
		readyTaskIds: ready,
		readyCount: tasks.readyCount,
		allowedActions: actions,
		recoveryHint: recoveryHint({
			issueId: issue.issueId,
			execution,
			activeCheckpoint: active,
			dispatchPaused: issue.dispatchPaused,
			pausedByDeveloper: sourceCannotResume(issue),
			readyTaskIds: options.hintReadyIds === undefined ? ready : ready.slice(0, options.hintReadyIds),
			budgetBlocker: budgetBlockerOf(issueBudgetDecision(r, issue.issueId)),
			canAcknowledge: actions.includes('acknowledge'),
			awaitingAcceptanceTaskIds: tasks.awaitingAcceptanceTaskIds(),
			reviewOnlyTaskIds: mayOweReviewOnly ? reviewOnlyOwed({
				executionStatus: execution.status,
				activeCheckpoint: active ? { kind: active.kind, subjectTaskId: active.subjectTaskId } : null,
				hasPendingCheckpoint: open.some((c) => c.status === 'pending'),
				tasks: tasks.all().map((t) => ({ taskId: t.taskId, status: t.status, superseded: t.supersededAtUnixMs > 0, dependencyTaskIds: t.dependencyTaskIds })),
			}) : [],
		}),
		independentReview: review ? {
			reviewId: review.reviewId, checkpointId: review.checkpointId, status: review.status, verdict: review.verdict, summary: review.summary,
			failureReason: review.failureReason, disagreementReason: review.disagreementReason,
		} : undefined,
	};
}

/** `pricing`: the Host's targets and prices, so the spend shows a pending launch its USD budget cannot count. */
export function readPlanSnapshot(r: Reader, issue: Issue, execution: Execution, pricing?: LaunchPricing): PlanSnapshotDto {
	const tasks = taskRepository.listByIssue(r, issue.issueId);
	const facts = readPlanFacts(r, issue, execution, listTaskSource(tasks));
	const { active } = facts;
	const wake = active ? wakeRepository.latest(r, active.checkpointId, 'main') : undefined;
	return {
		issueId: issue.issueId,
		title: issue.title,
		dispatchPaused: issue.dispatchPaused,
		...pausedByField(issue),
		execution: {
			executionId: execution.executionId,
			status: execution.status,
			graphRevision: execution.graphRevision,
			activeCheckpointId: execution.activeCheckpointId,
			reviewMode: execution.reviewMode,
			archiveReason: execution.archiveReason,
			watchdogDueAtUnixMs: execution.watchdogDueAtUnixMs,
		},
		activeCheckpoint: active ? toCheckpointDto(active) : null,
		checkpoints: facts.open.map(toCheckpointDto),
		tasks: readTasksWithReadiness(r, issue, tasks, execution.status),
		readyTaskIds: facts.readyTaskIds,
		allowedActions: facts.allowedActions,
		recoveryHint: facts.recoveryHint,
		spend: readSpendDto(r, issue.issueId, pricing),
		activeWake: wake ? toWakeDto(wake) : null,
		...(facts.independentReview ? { independentReview: facts.independentReview } : {}),
	};
}
