// Test-data builders for core rules: complete rows with sensible defaults, overridden per test.
import type { Checkpoint, Execution, Run, Task, Wake } from '../../../src/core/model.js';

export function task(taskId: string, over: Partial<Task> = {}): Task {
	return {
		issueId: 'I1', taskId, title: `Task ${taskId}`, content: '', status: 'not_started', sortIndex: 0,
		agentTargetId: 'sh', modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '',
		dependencyTaskIds: [], parallelizable: true, autoAccept: false, acceptanceState: '', latestRunId: '',
		supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: 1, updatedAtUnixMs: 1, ...over,
	};
}

/** A completed, accepted task (satisfies its dependents). */
export function done(taskId: string, over: Partial<Task> = {}): Task {
	return task(taskId, { status: 'completed', acceptanceState: 'user_accepted', ...over });
}

export function execution(over: Partial<Execution> = {}): Execution {
	return {
		executionId: 'tutti-execution:I1', issueId: 'I1', sourceSessionId: 'S1', status: 'awaiting_main', graphRevision: 3,
		activeCheckpointId: 'tutti-execution:I1:checkpoint:run:R1', lastOrchestratorActivityAtUnixMs: 0, watchdogDueAtUnixMs: 0,
		reviewMode: 'self', archiveReason: '', completedAtUnixMs: 0, archivedAtUnixMs: 0, createdAtUnixMs: 0, updatedAtUnixMs: 0, ...over,
	};
}

export function checkpoint(over: Partial<Checkpoint> = {}): Checkpoint {
	return {
		checkpointId: 'tutti-execution:I1:checkpoint:run:R1', executionId: 'tutti-execution:I1', kind: 'task_settled', status: 'active',
		sequence: 2, graphRevision: 3, subjectTaskId: 'T1', subjectRunId: 'R1', creationReason: '', requiresGoalReview: false,
		createdAtUnixMs: 0, resolvedAtUnixMs: 0, updatedAtUnixMs: 0, ...over,
	};
}

export function run(runId: string, over: Partial<Run> = {}): Run {
	return {
		runId, issueId: 'I1', taskId: 'T1', agentTargetId: 'sh', agentSessionId: '', status: 'running', outcome: null,
		usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, summary: '', errorMessage: '',
		exitCode: null, outputDir: '', executionDirectory: '', createdAtUnixMs: 1_000, startedAtUnixMs: 2_000, completedAtUnixMs: 0,
		updatedAtUnixMs: 0, ...over,
	};
}

export function wake(over: Partial<Wake> = {}): Wake {
	const checkpointId = over.checkpointId ?? 'tutti-execution:I1:checkpoint:run:R1';
	const wakeId = `${checkpointId}:wake:main:1`;
	return {
		wakeId, executionId: 'tutti-execution:I1', checkpointId, targetKind: 'main', wakeSequence: 1,
		clientSubmitId: `tutti-execution-wake:${wakeId}`, targetSessionId: 'S1', status: 'prepared', prompt: '', dueAtUnixMs: 0,
		attemptCount: 0, leaseOwner: '', leaseExpiresAtUnixMs: 0, dispatchedAtUnixMs: 0, turnSettledAtUnixMs: 0,
		acknowledgedAtUnixMs: 0, lastError: '', createdAtUnixMs: 0, updatedAtUnixMs: 0, ...over,
	};
}
