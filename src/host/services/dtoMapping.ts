// Core model → wire DTOs (src/protocol/dto.ts).
import type { Issue, Run, Task } from '../../core/model.js';
import { outcomeLabel, runDurationMs as settledDurationMs } from '../../core/runs/outcome.js';
import type { IssueDto, RunDto, TaskDto } from '../../protocol/dto.js';
import { issueRepository, type StatusCounts } from '../../store/repositories/issueRepository.js';
import { runRepository, type StopEventRecord } from '../../store/repositories/runRepository.js';
import type { Reader } from '../../store/tx.js';

export function toIssueDto(issue: Issue, counts: StatusCounts): IssueDto {
	return {
		issueId: issue.issueId,
		title: issue.title,
		content: issue.content,
		status: issue.status,
		planningSource: issue.planningSource,
		sourceSessionId: issue.sourceSessionId,
		dispatchPaused: issue.dispatchPaused,
		autoAcceptDefault: issue.autoAcceptDefault,
		taskCount: counts.notStarted + counts.running + counts.pendingAcceptance + counts.completed + counts.failed + counts.canceled,
		counts: { ...counts },
		createdAtUnixMs: issue.createdAtUnixMs,
		updatedAtUnixMs: issue.updatedAtUnixMs,
	};
}

export function readIssueDto(r: Reader, issue: Issue): IssueDto {
	return toIssueDto(issue, issueRepository.counts(r, issue.issueId));
}

export function toTaskDto(task: Task): TaskDto {
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
		createdAtUnixMs: task.createdAtUnixMs,
		updatedAtUnixMs: task.updatedAtUnixMs,
	};
}

/** A settled Run's wall time (core rule); a running one's time since its process started (0 before). */
export function runDurationMs(run: Run, nowUnixMs: number): number {
	if (run.completedAtUnixMs > 0) { return settledDurationMs(run); }
	return run.startedAtUnixMs > 0 ? Math.max(0, nowUnixMs - run.startedAtUnixMs) : 0;
}

export function toRunDto(run: Run, stopEvents: readonly StopEventRecord[], nowUnixMs: number): RunDto {
	const durationMs = runDurationMs(run, nowUnixMs);
	return {
		runId: run.runId,
		issueId: run.issueId,
		taskId: run.taskId,
		agentTargetId: run.agentTargetId,
		agentSessionId: run.agentSessionId,
		status: run.status,
		outcome: run.outcome,
		outcomeLabel: outcomeLabel(run, stopEvents),
		exitCode: run.exitCode,
		summary: run.summary,
		errorMessage: run.errorMessage,
		usage: { ...run.usage },
		outputDir: run.outputDir,
		executionDirectory: run.executionDirectory,
		stopNotes: stopEvents.map((e) => ({
			eventId: e.eventId,
			reason: e.reason,
			answer: e.answer,
			requestedAtUnixMs: e.requestedAtUnixMs,
			answeredAtUnixMs: e.answeredAtUnixMs,
		})),
		createdAtUnixMs: run.createdAtUnixMs,
		startedAtUnixMs: run.startedAtUnixMs,
		completedAtUnixMs: run.completedAtUnixMs,
		durationMs,
	};
}

export function readRunDto(r: Reader, run: Run, nowUnixMs: number): RunDto {
	return toRunDto(run, runRepository.stopEvents(r, run.runId), nowUnixMs);
}
