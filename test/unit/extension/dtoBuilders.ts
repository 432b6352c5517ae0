// DTO builders for the extension's pure modules: complete wire shapes with defaults, overridden per test. What the
// Host derives for an issue (terminality, controls) comes from the Host's own mapping, as the board receives it.
import type { ExecutionStatus, Issue } from '../../../src/core/model.js';
import { isSuperseded } from '../../../src/core/graph/blockers.js';
import { taskControls } from '../../../src/core/issues/taskControls.js';
import { isStopping, runControls } from '../../../src/core/runs/runControls.js';
import { toIssueDto } from '../../../src/host/services/dtoMapping.js';
import type { IssueDto, PlanSnapshotDto, PlanTaskDto, RunDto, TaskDto } from '../../../src/protocol/dto.js';
import type { ExecutionSummary } from '../../../src/extension/changes/workspaceState.js';
import type { Attention } from '../../../src/core/attention/attention.js';
import { attentionFor, tasksFromCounts } from '../attentionFixture.js';
import { emptySpendDto } from '../../../src/host/usage/issueSpend.js';

type Counts = IssueDto['counts'];

export function counts(over: Partial<Counts> = {}): Counts {
	return { notStarted: 0, running: 0, pendingAcceptance: 0, completed: 0, failed: 0, canceled: 0, ...over };
}

export interface IssueFields extends Partial<Omit<Issue, 'issueId'>> {
	counts?: Partial<Counts>;
	/** The managed issue's execution status (null: a manual issue). */
	executionStatus?: ExecutionStatus | null;
	/** Some Run of the issue is running; by default, when a task is running. */
	hasRunningRun?: boolean;
	/** The attention state (default: the core rule over facts made from the counts). */
	attention?: Attention;
}

/** An IssueDto as `issue/list` returns it (the Host's mapping derives terminal and controls). */
export function issue(issueId: string, over: IssueFields = {}): IssueDto {
	const c = counts(over.counts);
	const { counts: _counts, executionStatus = null, hasRunningRun = c.running > 0, attention, ...fields } = over;
	const model: Issue = {
		issueId, title: `Issue ${issueId}`, content: '', status: 'open', planningSource: 'manual', sourceSessionId: '',
		dispatchPaused: false, autoAcceptDefault: false, createdAtUnixMs: 1, updatedAtUnixMs: 1, ...fields,
	};
	const derived = attention ?? attentionFor({ issueStatus: model.status, executionStatus, dispatchPaused: model.dispatchPaused, tasks: tasksFromCounts(c) });
	return toIssueDto(model, { counts: c, executionStatus, hasRunningRun, attention: derived, spend: emptySpendDto() });
}

/** A managed issue (planning source `tutti`) whose execution is in `status`. */
export function managedIssue(issueId: string, status: ExecutionStatus, over: IssueFields = {}): IssueDto {
	return issue(issueId, { planningSource: 'tutti', sourceSessionId: 's1', executionStatus: status, ...over });
}

export function execution(over: Partial<ExecutionSummary> = {}): ExecutionSummary {
	return { activeCheckpoint: null, pendingCheckpoints: 0, ...over };
}

export function task(taskId: string, over: Partial<TaskDto> = {}): TaskDto {
	return {
		issueId: 'I1', taskId, title: `Task ${taskId}`, content: '', status: 'not_started', acceptanceState: '', agentTargetId: 'sh',
		modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [],
		parallelizable: true, autoAccept: false, latestRunId: '', sortIndex: 0, supersededAtUnixMs: 0, supersededByTaskId: '',
		baseCommit: '', resultCommit: '', acceptedCommit: '', reopenedReason: '', attempt: 0, rework: null, createdAtUnixMs: 1, updatedAtUnixMs: 1, ...over,
	};
}

/** A task of an open issue; whether it is superseded and its controls by the Host's rules, unless given. */
export function planTask(taskId: string, over: Partial<PlanTaskDto> = {}): PlanTaskDto {
	const { superseded: givenSuperseded, controls, ...fields } = over;
	const t = { ...task(taskId), ready: false, blockerReason: '' as const, ...fields };
	const superseded = givenSuperseded ?? isSuperseded(t);
	return { ...t, superseded, controls: controls ?? taskControls({ status: t.status, superseded, issueClosed: false, hasRecordedBase: t.baseCommit !== '' }) };
}

/** A Run; whether a person's Stop is ending it and its controls by the Host's rules, unless given. */
export function run(runId: string, over: Partial<RunDto> = {}): RunDto {
	const r: Omit<RunDto, 'stopping' | 'controls'> = {
		runId, issueId: 'I1', taskId: 'T1', agentTargetId: 'sh', agentSessionId: 's', status: 'running', outcome: null, outcomeLabel: null,
		exitCode: null, summary: '', errorMessage: '', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0,
		outputDir: '/tmp/x', executionDirectory: '/tmp', inWorktree: false, baseCommit: '', resultCommit: '', changedFiles: [], outsideChanges: [], stopNotes: [], stalled: null, createdAtUnixMs: 1, startedAtUnixMs: 1, completedAtUnixMs: 0, durationMs: 1,
		...over,
	};
	return { ...r, stopping: over.stopping ?? isStopping(r), controls: over.controls ?? runControls(r) };
}

export function plan(issueId: string, over: Partial<PlanSnapshotDto> = {}): PlanSnapshotDto {
	return {
		issueId, title: `Issue ${issueId}`, dispatchPaused: false,
		execution: { executionId: `tutti-execution:${issueId}`, status: 'awaiting_main', graphRevision: 2, activeCheckpointId: 'cp', reviewMode: 'self', archiveReason: '', watchdogDueAtUnixMs: 0 },
		activeCheckpoint: { checkpointId: 'cp', kind: 'task_settled', status: 'active', sequence: 2, graphRevision: 2, subjectTaskId: '', subjectRunId: '', creationReason: '', requiresGoalReview: false },
		checkpoints: [], tasks: [], readyTaskIds: [], allowedActions: [], recoveryHint: '', spend: emptySpendDto(), activeWake: null, ...over,
	};
}
