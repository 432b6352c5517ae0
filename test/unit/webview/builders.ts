// Test-data builders for the panel's wire shapes (valid by construction; override what a test cares about). What the
// Host derives (an issue's terminality and controls, readiness, a wake's marker) is derived by the Host's own mapping,
// so the panel is tested against the snapshot it would really receive.
import type { ExecutionStatus, Issue, Task, Wake } from '../../../src/core/model.js';
import { isSuperseded } from '../../../src/core/graph/blockers.js';
import { isIssueClosed } from '../../../src/core/issues/issueControls.js';
import { taskControls } from '../../../src/core/issues/taskControls.js';
import { isStopping, runControls } from '../../../src/core/runs/runControls.js';
import { plainTaskListContext, toIssueDto, toTasksWithReadiness, toWakeDto } from '../../../src/host/services/dtoMapping.js';
import type { CheckpointDto, IssueWithTasksDto, PlanSnapshotDto, PlanTaskDto, RunDto, TaskDto, WakeDto } from '../../../src/protocol/dto.js';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import type { TaskCommits } from '../../../src/store/repositories/deliveryRepository.js';
import type { Attention } from '../../../src/core/attention/attention.js';
import { attentionFor } from '../attentionFixture.js';
import { emptySpendDto } from '../../../src/host/usage/issueSpend.js';

export function aTask(taskId: string, over: Partial<TaskDto> = {}): TaskDto {
	return {
		issueId: 'i1', taskId, title: `Task ${taskId}`, content: `Do ${taskId}`, status: 'not_started', acceptanceState: '',
		agentTargetId: 'sh', modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '',
		dependencyTaskIds: [], parallelizable: true, autoAccept: false, latestRunId: '', sortIndex: 0,
		supersededAtUnixMs: 0, supersededByTaskId: '', baseCommit: '', resultCommit: '', acceptedCommit: '', reopenedReason: '', attempt: 0, rework: null, createdAtUnixMs: 1_000, updatedAtUnixMs: 1_000, ...over,
	};
}

/** A plan task of an open issue: whether it is superseded and its controls by the Host's rules, unless given. */
export function aPlanTask(taskId: string, over: Partial<PlanTaskDto> = {}): PlanTaskDto {
	const { superseded, controls, ...fields } = over;
	const t = { ...aTask(taskId), ready: false, blockerReason: '' as const, ...fields };
	return withHostControls({ ...t, superseded: superseded ?? isSuperseded(t), controls: noControls }, false, controls);
}

const noControls = { accept: false, requestChanges: false, openChanges: false, retry: false, updateFromBase: false, edit: false, delete: false };

/** The task's controls as the Host derives them on an issue that is (or is not) closed; `given` wins. */
function withHostControls(t: PlanTaskDto, issueClosed: boolean, given?: PlanTaskDto['controls']): PlanTaskDto {
	return { ...t, controls: given ?? taskControls({ status: t.status, superseded: t.superseded, issueClosed, hasRecordedBase: t.baseCommit !== '' }) };
}

export interface IssueFields extends Partial<Pick<Issue, 'title' | 'status' | 'planningSource' | 'sourceSessionId' | 'dispatchPaused'>> {
	/** The managed issue's execution status (null: a manual issue). */
	executionStatus?: ExecutionStatus | null;
	/** Some Run of the issue is running; by default, when a task is running. */
	hasRunningRun?: boolean;
	/** The attention state (default: the core rule over these tasks). */
	attention?: Attention;
	/** The developer recorded Finish. */
	finished?: boolean;
}

/** The issue as `issue/get` returns it: counts, terminality, controls and readiness derived by the Host's mapping. */
export function anIssue(tasks: TaskDto[], over: IssueFields = {}): IssueWithTasksDto {
	const active = tasks.filter((t) => t.supersededAtUnixMs === 0);
	const count = (s: TaskDto['status']): number => active.filter((t) => t.status === s).length;
	const counts = {
		notStarted: count('not_started'), running: count('running'), pendingAcceptance: count('pending_acceptance'),
		completed: count('completed'), failed: count('failed'), canceled: count('canceled'),
	};
	const { executionStatus = null, hasRunningRun = counts.running > 0, attention, finished = false, ...fields } = over;
	const issue: Issue = {
		issueId: 'i1', title: 'Ship the feature', content: 'The goal', status: 'in_progress', planningSource: 'manual',
		sourceSessionId: '', dispatchPaused: false, autoAcceptDefault: false, createdAtUnixMs: 1_000, updatedAtUnixMs: 1_000, ...fields,
	};
	// The commits and a reopened acceptance as the store would hold them, mapped back by the Host's own mapping.
	const commits = new Map<string, TaskCommits>(tasks.map((t) => [t.taskId, {
		baseCommit: t.baseCommit, resultCommit: t.resultCommit, acceptedCommit: t.acceptedCommit,
		acceptanceChange: t.reopenedReason !== '' ? { runId: t.latestRunId, reason: t.reopenedReason } : null,
	}]));
	const derived = attention ?? attentionFor({ issueStatus: issue.status, executionStatus, dispatchPaused: issue.dispatchPaused, tasks: active.map((t) => ({ taskId: t.taskId, title: t.title, status: t.status })) });
	const dto = toIssueDto(issue, { counts, executionStatus, hasRunningRun, attention: derived, finished, spend: emptySpendDto() });
	// The verified and accepted facts as the Host reads them (only when a test gives some).
	const checked = tasks.filter((t) => t.verification !== undefined || t.acceptance !== undefined);
	const checks = checked.length === 0 ? undefined : new Map(checked.map((t) => [t.taskId, { verification: t.verification ?? null, acceptance: t.acceptance ?? null }]));
	return { ...dto, tasks: toTasksWithReadiness(tasks as Task[], commits, { ...plainTaskListContext(isIssueClosed(issue.status, executionStatus)), tasksEditable: issue.planningSource === 'manual' && !dto.terminal }, checks).filter((t) => !t.superseded) };
}

/** A main wake of the active checkpoint, as the Host maps it (marker and body read from the prompt). */
export function aWake(prompt: string, over: Partial<Wake> = {}): WakeDto {
	return toWakeDto({
		wakeId: 'w1', executionId: 'tutti-execution:i1', checkpointId: 'tutti-execution:i1:checkpoint:3', targetKind: 'main', wakeSequence: 1,
		clientSubmitId: 's', targetSessionId: 's1', status: 'prepared', prompt, dueAtUnixMs: 0, attemptCount: 0, leaseOwner: '',
		leaseExpiresAtUnixMs: 0, dispatchedAtUnixMs: 0, turnSettledAtUnixMs: 0, acknowledgedAtUnixMs: 0, lastError: '', createdAtUnixMs: 1,
		updatedAtUnixMs: 1, ...over,
	});
}

export function aCheckpoint(sequence: number, over: Partial<CheckpointDto> = {}): CheckpointDto {
	return {
		checkpointId: `tutti-execution:i1:checkpoint:${sequence}`, kind: 'task_settled', status: 'active', sequence, graphRevision: 2,
		subjectTaskId: '', subjectRunId: '', creationReason: '', requiresGoalReview: false, ...over,
	};
}

export function aPlan(tasks: PlanTaskDto[], over: Partial<PlanSnapshotDto> = {}): PlanSnapshotDto {
	const active = aCheckpoint(3);
	return {
		issueId: 'i1', title: 'Ship the feature', dispatchPaused: false,
		execution: {
			executionId: 'tutti-execution:i1', status: 'awaiting_main', graphRevision: 2, activeCheckpointId: active.checkpointId,
			reviewMode: 'self', archiveReason: '', watchdogDueAtUnixMs: 0,
		},
		activeCheckpoint: active, checkpoints: [active], tasks, readyTaskIds: tasks.filter((t) => t.ready).map((t) => t.taskId),
		allowedActions: ['schedule', 'mutate', 'stop'],
		recoveryHint: 'Schedule ready work with `tutti plan issue schedule --issue-id i1 --checkpoint-id c3 --expected-graph-revision 2 --task-id t1 --request-id r1 --json` (or a subset); or change the graph.',
		spend: emptySpendDto(), activeWake: null, ...over,
	};
}

/** A Run; whether a person's Stop is ending it and its controls by the Host's rules, unless given. */
export function aRun(runId: string, taskId: string, over: Partial<RunDto> = {}): RunDto {
	const r: Omit<RunDto, 'stopping' | 'controls'> = {
		runId, issueId: 'i1', taskId, agentTargetId: 'sh', agentSessionId: '', status: 'completed', outcome: 'success',
		outcomeLabel: 'Completed in 0m 05s', exitCode: 0, summary: '', errorMessage: '',
		usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0,
		outputDir: '', executionDirectory: '', inWorktree: false, baseCommit: '', resultCommit: '', changedFiles: [], outsideChanges: [], stopNotes: [], stalled: null, createdAtUnixMs: 2_000, startedAtUnixMs: 2_000, completedAtUnixMs: 7_000,
		durationMs: 5_000, ...over,
	};
	return { ...r, stopping: over.stopping ?? isStopping(r), controls: over.controls ?? runControls(r) };
}

export function aSnapshot(issue: IssueWithTasksDto, over: Partial<Omit<PanelSnapshot, 'type'>> = {}): PanelSnapshot {
	return {
		type: 'snapshot', seq: 1, issue, plan: null, runs: [],
		view: { selectedTaskId: null, showHistory: false, nowUnixMs: 10_000, agentWaiting: null }, ...over,
	};
}

/** A managed snapshot whose issue and plan agree on the tasks, the pause and the execution's status. */
export function aManagedSnapshot(tasks: PlanTaskDto[], plan: Partial<PlanSnapshotDto> = {}, over: Partial<Omit<PanelSnapshot, 'type'>> = {}): PanelSnapshot {
	const issue = anIssue(tasks.map(({ ready: _r, blockerReason: _b, superseded: _s, controls: _c, ...t }) => t), {
		planningSource: 'tutti', sourceSessionId: 's1', dispatchPaused: plan.dispatchPaused ?? false, executionStatus: plan.execution?.status ?? 'awaiting_main',
	});
	// The plan's tasks get their controls on this issue, as the Host would send them (none awaits a closed issue).
	const closed = isIssueClosed(issue.status, issue.executionStatus);
	return aSnapshot(issue, { plan: aPlan(tasks.map((t) => withHostControls(t, closed)), plan), ...over });
}

/** `n` tasks in a layered DAG (each depends on up to two earlier tasks a few ranks back), deterministic. */
export function aLayeredGraph(n: number, seed = 7): TaskDto[] {
	let s = seed;
	const rand = (): number => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s / 0x7fffffff; };
	const tasks: TaskDto[] = [];
	for (let i = 0; i < n; i++) {
		const deps = new Set<string>();
		const k = i === 0 ? 0 : Math.floor(rand() * 3);
		for (let j = 0; j < k; j++) { deps.add(`t${Math.max(0, i - 1 - Math.floor(rand() * 12))}`); }
		const r = rand();
		const status: TaskDto['status'] = r < 0.4 ? 'completed' : r < 0.5 ? 'running' : r < 0.55 ? 'pending_acceptance' : r < 0.6 ? 'failed' : 'not_started';
		tasks.push(aTask(`t${i}`, { title: `Task number ${i} with a reasonably long descriptive title`, dependencyTaskIds: [...deps], status, sortIndex: i }));
	}
	return tasks;
}
