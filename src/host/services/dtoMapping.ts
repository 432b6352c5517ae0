// Core model → wire DTOs (src/protocol/dto.ts). What the UIs draw but must not re-derive (an issue's terminality and
// controls, a task's readiness, a wake's marker) is derived here from the core rules.
import type { Attention } from '../../core/attention/attention.js';
import { type AttemptTask, taskAttempts } from '../../core/attempts/taskAttempts.js';
import { computeReadiness, isSuperseded } from '../../core/graph/blockers.js';
import { formatBytes } from '../../core/bytes.js';
import { deliveryOf, manualWorkOver } from '../../core/issues/delivery.js';
import { isIssueClosed, isIssueTerminal, issueControls } from '../../core/issues/issueControls.js';
import { taskControls } from '../../core/issues/taskControls.js';
import { pausedByField } from '../../core/issues/pauser.js';
import type { ExecutionStatus, Issue, PlanningSource, Run, RunStall, Task, TaskRework, Wake } from '../../core/model.js';
import { outcomeLabel, runDurationMs as settledDurationMs } from '../../core/runs/outcome.js';
import { outsideChangesLabel } from '../../core/runs/outsideChanges.js';
import { isStopping, runControls } from '../../core/runs/runControls.js';
import { stalledLabel } from '../../core/runs/stallRules.js';
import { parseWakeMarker } from '../../core/wakes/wakeMarker.js';
import {
	deliveryRepository, type IssueDelivery, noTaskCommits, type RunCommits, type TaskCommits, type WorktreeDisk,
} from '../../store/repositories/deliveryRepository.js';
import type { AttentionDto, IssueDto, PlanTaskDto, ReworkDto, RunDto, RunStallDto, SpendDto, TaskDto, WakeDto } from '../../protocol/dto.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { finishRepository } from '../../store/repositories/finishRepository.js';
import { issueRepository, type StatusCounts } from '../../store/repositories/issueRepository.js';
import { runRepository, type StopEventRecord } from '../../store/repositories/runRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import { type UsageTotals, usageRepository } from '../../store/repositories/usageRepository.js';
import type { Reader } from '../../store/tx.js';
import { readRunApprovals } from './approvals/approvalDtos.js';
import { type AttentionReadContext, readIssueAttention } from './attention/readAttention.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { readSpendDto } from '../usage/issueSpend.js';
import { readRunVerification, readTaskChecks } from '../checks/verificationViews.js';

/** What an IssueDto derives from beside the issue row: its task counts, its execution and its Runs. */
export interface IssueFacts {
	readonly counts: StatusCounts;
	/** The managed issue's execution status; null for a manual issue. */
	readonly executionStatus: ExecutionStatus | null;
	readonly hasRunningRun: boolean;
	/** The issue's code delivery facts (absent before its first worktree). */
	readonly delivery?: IssueDelivery | undefined;
	/** Some active task's acceptance is newer than the issue's last integration (default: none). */
	readonly hasUnintegratedAcceptance?: boolean;
	/** Tasks pending acceptance again after their branch moved (default: none). */
	readonly changedAfterAcceptanceTaskIds?: readonly string[];
	/** The issue's one attention state (src/core/attention/attention.ts). */
	readonly attention: Attention;
	/** Approval requests of its running Runs waiting for the developer (default: none). */
	readonly pendingApprovalCount?: number;
	/** The developer recorded Finish (absent: not finished). */
	readonly finished?: boolean;
	/** The disk the issue's worktrees use, as last measured (absent: not measured, or no tree). */
	readonly worktreeDisk?: WorktreeDisk | undefined;
	/** The managed execution's Goal Review mode (absent: self or manual). */
	readonly reviewMode?: 'self' | 'independent' | null;
	/** What the issue's Turns used and cost, against its budget. */
	readonly spend: SpendDto;
	/** Some Run of the issue exists (default: none). */
	readonly hasRun?: boolean;
	/** Some active task's acceptance is bound to a commit (default: none). */
	readonly hasAcceptedCommit?: boolean;
}

export function toIssueDto(issue: Issue, facts: IssueFacts): IssueDto {
	const { counts, executionStatus } = facts;
	return {
		issueId: issue.issueId,
		title: issue.title,
		content: issue.content,
		status: issue.status,
		planningSource: issue.planningSource,
		sourceSessionId: issue.sourceSessionId,
		dispatchPaused: issue.dispatchPaused,
		...pausedByField(issue),
		autoAcceptDefault: issue.autoAcceptDefault,
		taskCount: counts.notStarted + counts.running + counts.pendingAcceptance + counts.completed + counts.failed + counts.canceled,
		counts: { ...counts },
		executionStatus,
		terminal: isIssueTerminal(issue.status, executionStatus),
		controls: issueControls({
			issueStatus: issue.status,
			executionStatus,
			dispatchPaused: issue.dispatchPaused,
			hasRunningRun: facts.hasRunningRun,
			hasOpenTask: counts.notStarted + counts.running > 0,
			hasTaskAwaitingReview: counts.pendingAcceptance > 0,
			hasUnintegratedAcceptance: facts.hasUnintegratedAcceptance ?? false,
			finished: facts.finished ?? false,
			manualWorkOver: issue.planningSource === 'manual' && manualWorkOver(counts),
			reviewMode: facts.reviewMode ?? null,
			// The same rule as the attention state's "goal review" (Confirm goal exactly when it says so).
			goalReviewAwaited: facts.attention.reasons.some((r) => r.kind === 'goal_review'),
			hasRun: facts.hasRun ?? false,
			hasAcceptedCommit: facts.hasAcceptedCommit ?? false,
		}),
		attention: toAttentionDto(facts.attention),
		baseCommit: facts.delivery?.baseCommit ?? '',
		baseBranch: facts.delivery?.baseBranch ?? '',
		integratedCommit: facts.delivery?.integratedCommit ?? '',
		integratedInto: facts.delivery?.integratedInto ?? '',
		changedAfterAcceptanceTaskIds: [...(facts.changedAfterAcceptanceTaskIds ?? [])],
		delivery: deliveryOf({
			unintegrated: facts.hasUnintegratedAcceptance ?? false, integratedInto: facts.delivery?.integratedInto ?? '', finished: facts.finished ?? false,
		}),
		worktreeDisk: facts.worktreeDisk ? {
			bytes: facts.worktreeDisk.bytes, trees: facts.worktreeDisk.trees, measuredAtUnixMs: facts.worktreeDisk.measuredAtUnixMs,
			label: `${facts.worktreeDisk.trees} ${facts.worktreeDisk.trees === 1 ? 'tree' : 'trees'} · ${formatBytes(facts.worktreeDisk.bytes)}`,
		} : null,
		...(facts.pendingApprovalCount ? { pendingApprovalCount: facts.pendingApprovalCount } : {}),
		spend: facts.spend,
		createdAtUnixMs: issue.createdAtUnixMs,
		updatedAtUnixMs: issue.updatedAtUnixMs,
	};
}

/** The core's attention as its wire shape (copies, so no array is shared). */
export function toAttentionDto(a: Attention): AttentionDto {
	return {
		state: a.state, label: a.label,
		reasons: a.reasons.map((r) => ({ kind: r.kind, label: r.label, taskIds: [...r.taskIds], failure: r.failure })),
		activity: a.activity, sinceUnixMs: a.sinceUnixMs, stalled: a.stalled, handBackCommand: a.handBackCommand,
		sourceAgent: a.sourceAgent === null ? null : { ...a.sourceAgent },
		runs: a.runs.map((r) => ({ ...r })),
	};
}

/** `context`: the clock and the await heartbeats the attention state reads. */
export function readIssueDto(r: Reader, issue: Issue, context: AttentionReadContext): IssueDto {
	const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issue.issueId) : undefined;
	return toIssueDto(issue, {
		attention: readIssueAttention(r, issue, context),
		counts: issueRepository.counts(r, issue.issueId),
		executionStatus: execution?.status ?? null,
		reviewMode: execution?.reviewMode ?? null,
		finished: finishRepository.finishedAt(r, issue.issueId) > 0,
		worktreeDisk: deliveryRepository.worktreeDisk(r, issue.issueId),
		hasRunningRun: executionRepository.hasRunningRun(r, issue.issueId),
		hasRun: runRepository.hasAny(r, issue.issueId),
		hasAcceptedCommit: deliveryRepository.hasAcceptedCommit(r, issue.issueId),
		delivery: deliveryRepository.issueDelivery(r, issue.issueId),
		hasUnintegratedAcceptance: deliveryRepository.hasUnintegratedAcceptance(r, issue.issueId),
		changedAfterAcceptanceTaskIds: deliveryRepository.openAcceptanceChanges(r, issue.issueId),
		pendingApprovalCount: approvalRepository.pendingCountOfRunningRuns(r, issue.issueId),
		spend: readSpendDto(r, issue.issueId, context.pricing),
	});
}

/** The reason the task awaits acceptance again, while the result it was reopened on still awaits the developer. */
function reopenedReason(task: Task, commits: TaskCommits): string {
	const change = commits.acceptanceChange;
	return change !== null && task.status === 'pending_acceptance' && task.supersededAtUnixMs === 0 && change.runId === task.latestRunId ? change.reason : '';
}

/** A task's attempts: how many Runs it has had, and the new attempt the developer asked for last (if any). */
export interface TaskAttempts {
	readonly attempt: number;
	readonly rework?: TaskRework | undefined;
}

function toReworkDto(rework: TaskRework): ReworkDto {
	return {
		reworkId: rework.reworkId, kind: rework.kind, note: rework.note, attempt: rework.attempt, fromRunId: rework.fromRunId, runId: rework.runId,
		requestedAtUnixMs: rework.requestedAtUnixMs, mergeInto: rework.mergeInto,
	};
}

export function toTaskDto(task: Task, commits: TaskCommits = noTaskCommits, attempts: TaskAttempts = { attempt: 0 }): TaskDto {
	return {
		issueId: task.issueId,
		taskId: task.taskId,
		title: task.title,
		content: task.content,
		status: task.status,
		acceptanceState: task.acceptanceState,
		agentTargetId: task.agentTargetId,
		modelPlanId: task.modelPlanId,
		model: task.model,
		permissionModeId: task.permissionModeId,
		reasoningEffort: task.reasoningEffort,
		executionDirectory: task.executionDirectory,
		dependencyTaskIds: [...task.dependencyTaskIds],
		parallelizable: task.parallelizable,
		autoAccept: task.autoAccept,
		latestRunId: task.latestRunId,
		sortIndex: task.sortIndex,
		supersededAtUnixMs: task.supersededAtUnixMs,
		supersededByTaskId: task.supersededByTaskId,
		baseCommit: commits.baseCommit,
		resultCommit: commits.resultCommit,
		acceptedCommit: commits.acceptedCommit,
		reopenedReason: reopenedReason(task, commits),
		attempt: attempts.attempt,
		rework: attempts.rework !== undefined ? toReworkDto(attempts.rework) : null,
		createdAtUnixMs: task.createdAtUnixMs,
		updatedAtUnixMs: task.updatedAtUnixMs,
	};
}

/** What the task list of one issue derives from beside its tasks and commits. */
export interface TaskListContext {
	/** The issue is closed (isIssueClosed), so no task of it awaits a decision. */
	readonly issueClosed: boolean;
	readonly planningSource: PlanningSource;
	readonly issueArchived: boolean;
	/** A managed issue whose execution completed (Goal Review passed). */
	readonly executionCompleted: boolean;
	/** taskId → its Runs so far; taskId → its latest rework. */
	readonly attempts: ReadonlyMap<string, number>;
	readonly reworks: ReadonlyMap<string, TaskRework>;
	/** taskId → every rework asked of it, oldest first (absent: only the latest is known). */
	readonly reworkHistory?: ReadonlyMap<string, readonly TaskRework[]>;
	/** Managed issues: runId → the note of the developer's change request on that Run's result. */
	readonly changesRequested?: ReadonlyMap<string, string>;
	/** The developer edits this issue's tasks (a manual issue that is not over; a managed plan is its source agent's). */
	readonly tasksEditable: boolean;
}

/** A manual issue's task list without attempts or reworks (builders and benchmarks). */
export function plainTaskListContext(issueClosed: boolean): TaskListContext {
	return { issueClosed, planningSource: 'manual', issueArchived: false, executionCompleted: false, attempts: new Map(), reworks: new Map(), tasksEditable: !issueClosed };
}

/** The context of an issue's task list, read in the caller's read. */
export function readTaskListContext(r: Reader, issue: Issue, executionStatus: ExecutionStatus | null): TaskListContext {
	return {
		issueClosed: isIssueClosed(issue.status, executionStatus), planningSource: issue.planningSource,
		issueArchived: issue.status === 'archived' || executionStatus === 'archived' || executionStatus === 'archiving',
		executionCompleted: executionStatus === 'completed',
		attempts: reworkRepository.attemptsOfIssue(r, issue.issueId), reworks: reworkRepository.latestOfIssue(r, issue.issueId),
		reworkHistory: reworkRepository.historyOfIssue(r, issue.issueId),
		changesRequested: changeRequestsOfIssue(r, issue),
		tasksEditable: issue.planningSource === 'manual' && !isIssueTerminal(issue.status, executionStatus),
	};
}

/** A managed issue's change requests: the Run whose result they were on → the developer's note. */
function changeRequestsOfIssue(r: Reader, issue: Issue): Map<string, string> {
	const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issue.issueId) : undefined;
	if (!execution) { return new Map(); }
	return new Map(checkpointRepository.listByExecution(r, execution.executionId)
		.filter((c) => c.kind === 'changes_requested' && c.subjectRunId !== '')
		.map((c) => [c.subjectRunId, c.note ?? ''] as const));
}

/** The facts each task's attempts are derived from (every task of the issue, so replacements continue the count). */
function attemptTasks(tasks: readonly Task[], context: TaskListContext): AttemptTask[] {
	return tasks.map((t) => {
		const latest = context.reworks.get(t.taskId);
		return {
			taskId: t.taskId, status: t.status, supersededByTaskId: t.supersededByTaskId, superseded: isSuperseded(t),
			runCount: context.attempts.get(t.taskId) ?? 0,
			reworks: context.reworkHistory?.get(t.taskId) ?? (latest !== undefined ? [latest] : []),
			changesRequested: t.latestRunId !== '' ? context.changesRequested?.get(t.latestRunId) ?? null : null,
		};
	});
}

/**
 * Tasks with their readiness under the one core rule, and the developer's controls on each. `tasks` is every task of
 * the issue (superseded history included, so dependencies resolve); superseded ones read `task_superseded`.
 */
/** `checks`: each task's verified and accepted facts (readTaskChecks); a task without an entry has neither. */
export function toTasksWithReadiness(
	tasks: readonly Task[], commits: ReadonlyMap<string, TaskCommits>, context: TaskListContext, checks?: ReadonlyMap<string, Pick<TaskDto, 'verification' | 'acceptance'>>,
): PlanTaskDto[] {
	// No projection of a settled subject as accepted: only the developer's accept satisfies its dependents.
	const readiness = computeReadiness(tasks);
	const depended = new Set(tasks.filter((t) => !isSuperseded(t)).flatMap((t) => t.dependencyTaskIds));
	const attemptViews = taskAttempts(attemptTasks(tasks, context));
	return tasks.map((t) => {
		const state = readiness.get(t.taskId) ?? { ready: false, blockerReason: '' as const };
		const taskCommits = commits.get(t.taskId) ?? noTaskCommits;
		const superseded = isSuperseded(t);
		const attempts = { attempt: context.attempts.get(t.taskId) ?? 0, rework: context.reworks.get(t.taskId) };
		return {
			...toTaskDto(t, taskCommits, attempts), ...(checks ? { verification: null, acceptance: null, ...checks.get(t.taskId) } : {}), ready: state.ready, blockerReason: state.blockerReason, superseded,
			controls: taskControls({
				status: t.status, superseded, issueClosed: context.issueClosed, hasRecordedBase: taskCommits.baseCommit !== '',
				planningSource: context.planningSource, issueArchived: context.issueArchived, executionCompleted: context.executionCompleted,
				hasAcceptedCommit: taskCommits.acceptedCommit !== '', tasksEditable: context.tasksEditable, hasActiveDependents: depended.has(t.taskId),
				hasRun: t.latestRunId !== '',
			}),
			...(((a) => (a !== undefined ? { attempts: { ...a, earlier: [...a.earlier] } } : {}))(attemptViews.get(t.taskId))),
		};
	});
}

/** The issue's tasks with readiness, commits and their verified and accepted facts, read in one go. */
export function readTasksWithReadiness(r: Reader, issue: Issue, tasks: readonly Task[], executionStatus: ExecutionStatus | null): PlanTaskDto[] {
	const commits = deliveryRepository.taskCommitsOfIssue(r, issue.issueId);
	return toTasksWithReadiness(tasks, commits, readTaskListContext(r, issue, executionStatus),
		readTaskChecks(r, issue.issueId, tasks, (taskId) => commits.get(taskId)?.acceptedCommit ?? ''));
}

export function toWakeDto(w: Wake): WakeDto {
	const parsed = parseWakeMarker(w.prompt);
	return {
		wakeId: w.wakeId,
		checkpointId: w.checkpointId,
		wakeSequence: w.wakeSequence,
		clientSubmitId: w.clientSubmitId,
		status: w.status,
		prompt: w.prompt,
		marker: parsed ? { kind: parsed.marker.kind, graphRevision: parsed.marker.graphRevision } : null,
		body: parsed ? parsed.body : w.prompt,
		lastError: w.lastError,
		createdAtUnixMs: w.createdAtUnixMs,
	};
}

/** A settled Run's wall time (core rule); a running one's time since its process started (0 before). */
export function runDurationMs(run: Run, nowUnixMs: number): number {
	if (run.completedAtUnixMs > 0) { return settledDurationMs(run); }
	return run.startedAtUnixMs > 0 ? Math.max(0, nowUnixMs - run.startedAtUnixMs) : 0;
}

/**
 * `turns`: the Run's recorded Turns (usage and cost). Without any (a command target, a Run still on its first Turn)
 * the Run's own usage row stands and its cost is 0 when it used no tokens, unknown otherwise.
 */
/** "Completed in 2m 03s — changed files outside its worktree: README.md" */
function withOutsideChanges(label: string | null, changes: readonly string[]): string | null {
	return label === null || changes.length === 0 ? label : `${label} — ${outsideChangesLabel(changes)}`;
}

/** A running Run's stall mark in force, as every surface shows it (null when none). */
export function toRunStallDto(run: Pick<Run, 'status'>, stall: RunStall | undefined, nowUnixMs: number): RunStallDto | null {
	if (run.status !== 'running' || stall === undefined) { return null; }
	return { lastActivityAtUnixMs: stall.lastActivityAtUnixMs, markedAtUnixMs: stall.markedAtUnixMs, label: stalledLabel(stall.lastActivityAtUnixMs, nowUnixMs) };
}

export function toRunDto(run: Run, stopEvents: readonly StopEventRecord[], nowUnixMs: number, commits?: RunCommits, turns?: UsageTotals, stall?: RunStall): RunDto {
	const durationMs = runDurationMs(run, nowUnixMs);
	return {
		runId: run.runId,
		issueId: run.issueId,
		taskId: run.taskId,
		agentTargetId: run.agentTargetId,
		agentSessionId: run.agentSessionId,
		status: run.status,
		outcome: run.outcome,
		outcomeLabel: withOutsideChanges(outcomeLabel(run, stopEvents), commits?.outsideChanges ?? []),
		exitCode: run.exitCode,
		summary: run.summary,
		errorMessage: run.errorMessage,
		usage: turns && turns.turns > 0 ? { ...turns.usage } : { ...run.usage },
		costUsd: turns && turns.turns > 0
			? (turns.unpricedTurns > 0 ? null : turns.costUsd)
			: (run.usage.inputTokens + run.usage.outputTokens + run.usage.cacheReadTokens + run.usage.cacheWriteTokens === 0 ? 0 : null),
		outputDir: run.outputDir,
		executionDirectory: run.executionDirectory,
		inWorktree: commits?.inWorktree ?? false,
		baseCommit: commits?.baseCommit ?? '',
		resultCommit: commits?.resultCommit ?? '',
		changedFiles: commits ? commits.changedFiles.map((f) => ({ ...f })) : [],
		outsideChanges: [...(commits?.outsideChanges ?? [])],
		stopNotes: stopEvents.map((e) => ({
			eventId: e.eventId,
			reason: e.reason,
			answer: e.answer,
			requestedAtUnixMs: e.requestedAtUnixMs,
			answeredAtUnixMs: e.answeredAtUnixMs,
		})),
		stopping: isStopping({ status: run.status, outcome: run.outcome, stopNotes: stopEvents }),
		controls: runControls({ status: run.status, outcome: run.outcome, stopNotes: stopEvents }),
		stalled: toRunStallDto(run, stall, nowUnixMs),
		createdAtUnixMs: run.createdAtUnixMs,
		startedAtUnixMs: run.startedAtUnixMs,
		completedAtUnixMs: run.completedAtUnixMs,
		durationMs,
	};
}

export function readRunDto(r: Reader, run: Run, nowUnixMs: number): RunDto {
	const stall = run.status === 'running' ? runStallRepository.inForce(r, run.runId) : undefined;
	const dto = toRunDto(run, runRepository.stopEvents(r, run.runId), nowUnixMs, deliveryRepository.runCommits(r, run.runId), usageRepository.runTotals(r, run.runId), stall);
	const approvals = readRunApprovals(r, run.runId);
	const verified = { ...dto, verification: readRunVerification(r, run) };
	return approvals.length > 0 ? { ...verified, approvals } : verified;
}
