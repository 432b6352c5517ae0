// The domain model as plain data. No I/O here. Times are Unix ms.

export const taskStatuses = ['not_started', 'running', 'pending_acceptance', 'completed', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof taskStatuses)[number];
/** A Run uses the same status enum as a Task. */
export type RunStatus = TaskStatus;
export const terminalTaskStatuses: readonly TaskStatus[] = ['completed', 'failed', 'canceled'];

export const acceptanceStates = ['', 'agent_claimed', 'auto_checked', 'user_accepted'] as const;
export type AcceptanceState = (typeof acceptanceStates)[number];

export const planningSources = ['manual', 'tutti'] as const;
export type PlanningSource = (typeof planningSources)[number];

export const issueStatuses = ['open', 'in_progress', 'completed', 'archived'] as const;
export type IssueStatus = (typeof issueStatuses)[number];

export const runOutcomes = ['success', 'failure', 'cancellation'] as const;
export type RunOutcome = (typeof runOutcomes)[number];

export const executionStatuses = ['awaiting_schedule', 'running', 'awaiting_main', 'pending_goal_review', 'orphaned_source', 'completed', 'archiving', 'archived'] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];
export const terminalExecutionStatuses: readonly ExecutionStatus[] = ['orphaned_source', 'completed', 'archiving', 'archived'];

/**
 * `changes_requested`: the developer requested changes on a task's result (its subject; the note says what);
 * `goal_changes_requested`: the developer requested changes at Goal Review (no subject task). Both since store v3.
 * `task_accepted`: the developer accepted a task's result (its subject; the note, if any, is theirs). Since store v9.
 * `checks_failed`: a Run reported success but the developer's checks failed on its result (its subject). Since migration 018.
 * `run_stalled`: a running Run (its subject) showed no activity for its stall time; it still runs. Since migration 019 (run stalls).
 */
export const checkpointKinds = [
	'initial_schedule', 'task_settled', 'task_failed', 'task_canceled', 'watchdog', 'all_tasks_terminal', 'changes_requested', 'goal_changes_requested',
	'task_accepted', 'checks_failed', 'run_stalled',
] as const;
export type CheckpointKind = (typeof checkpointKinds)[number];
export const checkpointStatuses = ['pending', 'active', 'resolved', 'superseded', 'canceled'] as const;
export type CheckpointStatus = (typeof checkpointStatuses)[number];

export const wakeStatuses = ['prepared', 'leased', 'dispatched', 'turn_settled', 'acknowledged', 'failed', 'canceled'] as const;
export type WakeStatus = (typeof wakeStatuses)[number];

export const sessionRoles = ['source', 'worker', 'reviewer'] as const;
export type SessionRole = (typeof sessionRoles)[number];

export const turnStates = ['prepared', 'running', 'settled'] as const;
export type TurnState = (typeof turnStates)[number];

export const stopReasons = ['person', 'host', 'evict'] as const;
export type StopReason = (typeof stopReasons)[number];
/** What a Stop press did. null = not answered yet. */
export const stopAnswers = ['took', 'end-owed', 'declined', 'interrupt-unconfirmed', 'no-effect'] as const;
export type StopAnswer = (typeof stopAnswers)[number];

export const launchIntentStatuses = ['prepared', 'leased', 'dispatched', 'failed', 'canceled'] as const;
export type LaunchIntentStatus = (typeof launchIntentStatuses)[number];

export const archiveStatuses = ['requested', 'canceling_runs', 'archiving', 'completed', 'failed'] as const;
export type ArchiveStatus = (typeof archiveStatuses)[number];

export const mutationKinds = ['create', 'schedule', 'mutate', 'acknowledge', 'complete', 'stop'] as const;
export type MutationKind = (typeof mutationKinds)[number];

export const blockerReasons = ['task_superseded', 'task_not_started', 'missing_agent_target', 'dependency_unsatisfied'] as const;
export type BlockerReason = (typeof blockerReasons)[number];

export const planActions = ['schedule', 'mutate', 'acknowledge', 'complete', 'stop', 'resume'] as const;
export type PlanAction = (typeof planActions)[number];

/**
 * Who paused an issue's dispatch (SECURITY.md, the authority table): the developer (their pause, stop or archive),
 * the source session (its `plan issue stop`), or another agent session (an issue it created paused). A developer's
 * pause is lifted only by the developer; the source's resume lifts only what the source paused.
 */
export const pausers = ['developer', 'source', 'agent'] as const;
export type Pauser = (typeof pausers)[number];

/**
 * Why a task runs again in its own tree, as a new attempt (a new Run of the same task): the developer requested
 * changes on its result (`changes_requested`), retried it after a failure or a cancellation (`retry`), or asked it to
 * merge its base branch in (`update_from_base`). A review decision is not a failure: the task is never `failed` for it.
 */
export const reworkKinds = ['changes_requested', 'retry', 'update_from_base'] as const;
export type ReworkKind = (typeof reworkKinds)[number];

/** One commit an Update from base merges into the task's tree, with what it is ("main", "task b"). */
export interface MergeSource {
	label: string;
	commit: string;
}

/** A new attempt of a task: pending until a Run is admitted for it (`runId` '' until then), then bound to that Run. */
export interface TaskRework {
	reworkId: string;
	issueId: string;
	taskId: string;
	kind: ReworkKind;
	/** The attempt it is: the task's Runs before it + 1 (its Run is the task's next). */
	attempt: number;
	/** The developer's note (and diff comments): what should change, or why it is retried ('' when none). */
	note: string;
	/** The Run whose result (or failure) this attempt follows ('' when the task had none). */
	fromRunId: string;
	/** The Run of this attempt ('' while it waits to be started). */
	runId: string;
	requestedAtUnixMs: number;
	/** update_from_base: the branch merged in ('' otherwise). */
	mergeInto: string;
	/** update_from_base: the one commit the Run merges into the tree (the branch and the work integrated before it). */
	mergeCommit: string;
	/** update_from_base: what `mergeCommit` holds, for the prompt and the refusal texts. */
	mergeSources: MergeSource[];
	/** update_from_base: the acceptance it replaces, restored when the update ends without a result. */
	priorAcceptedCommit: string;
	priorAcceptanceState: AcceptanceState;
}

export interface Issue {
	issueId: string;
	title: string;
	content: string;
	status: IssueStatus;
	planningSource: PlanningSource;
	sourceSessionId: string;
	dispatchPaused: boolean;
	/** Who paused dispatch (read only while `dispatchPaused`; a paused issue that names nobody is the developer's). */
	pausedBy?: Pauser | undefined;
	/** Default for tasks added later: false for `tutti` issues, true for `manual`. */
	autoAcceptDefault: boolean;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

export interface LaunchSettings {
	agentTargetId: string;
	modelPlanId: string;
	model: string;
	permissionModeId: string;
	reasoningEffort: string;
	executionDirectory: string;
}

export interface Task extends LaunchSettings {
	issueId: string;
	taskId: string;
	title: string;
	content: string;
	status: TaskStatus;
	sortIndex: number;
	dependencyTaskIds: string[];
	parallelizable: boolean;
	autoAccept: boolean;
	acceptanceState: AcceptanceState;
	latestRunId: string;
	/** 0 = active; >0 = logically removed (history). */
	supersededAtUnixMs: number;
	supersededByTaskId: string;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

export interface Usage {
	inputTokens: number;
	outputTokens: number;
	cacheReadTokens: number;
	cacheWriteTokens: number;
}

export interface Run {
	runId: string;
	issueId: string;
	taskId: string;
	agentTargetId: string;
	agentSessionId: string;
	status: RunStatus;
	outcome: RunOutcome | null;
	usage: Usage;
	summary: string;
	errorMessage: string;
	exitCode: number | null;
	outputDir: string;
	executionDirectory: string;
	createdAtUnixMs: number;
	startedAtUnixMs: number;
	completedAtUnixMs: number;
	updatedAtUnixMs: number;
}

/** Why a stall mark was lifted: the agent showed activity again, or its Run settled ('' while the mark is in force). */
export const stallClearReasons = ['', 'activity', 'settled'] as const;
export type StallClearReason = (typeof stallClearReasons)[number];

/**
 * A running Run marked stalled: its agent showed no activity (no output, no tool call, no usage) for its stall time.
 * Only a mark: the Run goes on and is never failed or stopped for it. One row per stall of the Run (`episode` 1, 2, …);
 * a lifted mark stays as history.
 */
export interface RunStall {
	runId: string;
	issueId: string;
	episode: number;
	/** The last activity seen before the mark (the Run's start when it never showed any). */
	lastActivityAtUnixMs: number;
	markedAtUnixMs: number;
	/** 0 while the mark is in force. */
	clearedAtUnixMs: number;
	clearedBy: StallClearReason;
}

export interface Execution {
	executionId: string;
	issueId: string;
	sourceSessionId: string;
	status: ExecutionStatus;
	graphRevision: number;
	activeCheckpointId: string;
	lastOrchestratorActivityAtUnixMs: number;
	watchdogDueAtUnixMs: number;
	reviewMode: 'self' | 'independent';
	archiveReason: string;
	completedAtUnixMs: number;
	archivedAtUnixMs: number;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

export interface Checkpoint {
	checkpointId: string;
	executionId: string;
	kind: CheckpointKind;
	status: CheckpointStatus;
	sequence: number;
	graphRevision: number;
	subjectTaskId: string;
	subjectRunId: string;
	creationReason: string;
	requiresGoalReview: boolean;
	createdAtUnixMs: number;
	resolvedAtUnixMs: number;
	updatedAtUnixMs: number;
	/** The developer's note of a `changes_requested` / `goal_changes_requested` checkpoint ('' or absent otherwise). */
	note?: string;
}

export interface Wake {
	wakeId: string;
	executionId: string;
	checkpointId: string;
	targetKind: 'main' | 'reviewer';
	wakeSequence: number;
	clientSubmitId: string;
	targetSessionId: string;
	status: WakeStatus;
	prompt: string;
	dueAtUnixMs: number;
	attemptCount: number;
	leaseOwner: string;
	leaseExpiresAtUnixMs: number;
	dispatchedAtUnixMs: number;
	turnSettledAtUnixMs: number;
	acknowledgedAtUnixMs: number;
	lastError: string;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
}

export interface AgentSession {
	sessionId: string;
	role: SessionRole;
	issueId: string;
	taskId: string;
	runId: string;
	agentTargetId: string;
	providerSessionId: string;
	createdAtUnixMs: number;
	/** 'stopped' once a Stop was recorded against the session's running Run: its token no longer acts ('' = live). */
	tokenRevoked?: '' | 'stopped' | undefined;
}

export interface StopEvent {
	eventId: string;
	runId: string;
	reason: StopReason;
	requestedAtUnixMs: number;
}

export interface StopNote {
	eventId: string;
	runId: string;
	answer: StopAnswer | null;
	answeredAtUnixMs: number;
}
