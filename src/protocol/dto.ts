// Wire shapes shared by the Host, the CLI and (later) the webview. zod v4; types are inferred.
import { z } from 'zod';
import { approvalDto } from './approvals.js';
import { acceptanceDto, integrationChecksDto, verificationDto } from './checks.js';

export const taskStatus = z.enum(['not_started', 'running', 'pending_acceptance', 'completed', 'failed', 'canceled']);
export const runOutcome = z.enum(['success', 'failure', 'cancellation']);
export const stopAnswer = z.enum(['took', 'end-owed', 'declined', 'interrupt-unconfirmed', 'no-effect']);
export const executionStatus = z.enum(['awaiting_schedule', 'running', 'awaiting_main', 'pending_goal_review', 'orphaned_source', 'completed', 'archiving', 'archived']);
export const checkpointKind = z.enum(['initial_schedule', 'task_settled', 'task_failed', 'task_canceled', 'watchdog', 'all_tasks_terminal', 'changes_requested', 'goal_changes_requested', 'task_accepted', 'checks_failed', 'run_stalled']);
export const checkpointStatus = z.enum(['pending', 'active', 'resolved', 'superseded', 'canceled']);
export const blockerReason = z.enum(['task_superseded', 'task_not_started', 'missing_agent_target', 'dependency_unsatisfied']);
export const planAction = z.enum(['schedule', 'mutate', 'acknowledge', 'complete', 'stop', 'resume']);
export const sessionRole = z.enum(['source', 'worker', 'reviewer']);
/** A Stop's archive operation (`plan issue stop`, a source-session Stop). */
export const archiveStatus = z.enum(['requested', 'canceling_runs', 'archiving', 'completed', 'failed']);

/**
 * A running Run's stall mark in force: its agent showed no activity (no output, no tool call, no usage) since
 * `lastActivityAtUnixMs`. Only a mark: the Run goes on, and activity lifts it.
 */
export const runStallDto = z.object({
	/** The last activity seen (the Run's start when it showed none). */
	lastActivityAtUnixMs: z.number().int(),
	/** When the Host marked it. */
	markedAtUnixMs: z.number().int(),
	/** "Stalled: no activity for 12 min" (now). */
	label: z.string(),
});
export type RunStallDto = z.infer<typeof runStallDto>;

export const statusCountsDto = z.object({
	notStarted: z.number().int(), running: z.number().int(), pendingAcceptance: z.number().int(),
	completed: z.number().int(), failed: z.number().int(), canceled: z.number().int(),
});

/** Why a task runs again as a new attempt in its own tree (a review decision, a retry, an update): never a failure. */
export const reworkKind = z.enum(['changes_requested', 'retry', 'update_from_base']);

export const reworkDto = z.object({
	reworkId: z.string(),
	kind: reworkKind,
	/** The developer's note (with the comments on the diff), '' when none. */
	note: z.string(),
	/** The attempt it is (2 for the first rework). */
	attempt: z.number().int().positive(),
	/** The Run it follows, and the Run carrying it out ('' while it waits to start). */
	fromRunId: z.string(),
	runId: z.string(),
	requestedAtUnixMs: z.number().int(),
	/** update_from_base: the branch it merges in ('' otherwise). */
	mergeInto: z.string(),
});
export type ReworkDto = z.infer<typeof reworkDto>;

export const taskDto = z.object({
	issueId: z.string(),
	taskId: z.string(),
	title: z.string(),
	content: z.string(),
	status: taskStatus,
	acceptanceState: z.enum(['', 'agent_claimed', 'auto_checked', 'user_accepted']),
	agentTargetId: z.string(),
	modelPlanId: z.string(),
	model: z.string(),
	permissionModeId: z.string(),
	reasoningEffort: z.string(),
	executionDirectory: z.string(),
	dependencyTaskIds: z.array(z.string()),
	parallelizable: z.boolean(),
	autoAccept: z.boolean(),
	latestRunId: z.string(),
	sortIndex: z.number().int(),
	supersededAtUnixMs: z.number().int(),
	supersededByTaskId: z.string(),
	/** Where the task's latest Run started ('' when it has no Run with recorded commits). */
	baseCommit: z.string(),
	/** The result commit of the task's latest successful Run ('' when none, or when it worked in the shared folder). */
	resultCommit: z.string(),
	/** The commit the task's acceptance is bound to ('' until accepted). */
	acceptedCommit: z.string(),
	/**
	 * Why the task is pending acceptance again: "changed after acceptance" when its branch moved after it was
	 * accepted (its resultCommit is the new HEAD); '' otherwise.
	 */
	reopenedReason: z.string(),
	/** How many Runs (attempts) the task has had; 0 before its first. */
	attempt: z.number().int().nonnegative(),
	/**
	 * The new attempt the developer asked for last (changes requested, a retry, an update from base): pending while
	 * `runId` is '' (the task is not_started and waits for it), then the Run carrying it out. null when none.
	 */
	rework: reworkDto.nullable(),
	/**
	 * Verified: what the developer's checks said of its latest Run's result (null: no Run reported success yet). Kept
	 * apart from reported (the Run's outcome) and accepted (`acceptance`).
	 */
	verification: verificationDto.nullable().optional(),
	/** Accepted: by whom, at which commit, and what its checks said then (null: not accepted). */
	acceptance: acceptanceDto.nullable().optional(),
	createdAtUnixMs: z.number().int(),
	updatedAtUnixMs: z.number().int(),
});
export type TaskDto = z.infer<typeof taskDto>;

/** What the developer may press on one task now (the Host's rule; the panel and the pickers only draw it). */
export const taskControlsDto = z.object({
	accept: z.boolean(),
	requestChanges: z.boolean(),
	/** The task's latest Run's own diff can be opened (`tutti.openTaskChanges`). */
	openChanges: z.boolean(),
	/** A failed or canceled task of a manual issue: run it again as a new attempt (`tutti task retry`). */
	retry: z.boolean(),
	/** An accepted task: merge its base branch into its tree in a new Run (`tutti task update-from-base`). */
	updateFromBase: z.boolean(),
	/** A not-started task of a manual issue: its title, content, dependencies and agent can change (`task/update`). */
	edit: z.boolean(),
	/** Such a task that no active task depends on: it can be deleted (`task/delete`). */
	delete: z.boolean(),
});
export type TaskControlsDto = z.infer<typeof taskControlsDto>;

/** A task's attempts as the developer reads them (src/core/attempts/taskAttempts.ts derives them). */
export const taskAttemptsDto = z.object({
	/** The attempt it is, counted across the tasks a managed rework replaced, and how many its line of work had. */
	number: z.number().int().nonnegative(),
	of: z.number().int().nonnegative(),
	/** "Attempt 2 of 2"; '' while there was only one. */
	label: z.string(),
	/** One line per earlier attempt: "Attempt 1 — changes requested: <note>". */
	earlier: z.array(z.string()),
	/** Waiting for the new attempt asked of it ("Changes requested"), drawn instead of its status; '' otherwise. */
	stateLabel: z.string(),
	/** Superseded history: the one line that stands for it; '' otherwise. */
	line: z.string(),
});
export type TaskAttemptsDto = z.infer<typeof taskAttemptsDto>;

/**
 * A task with its readiness and the one blocker that holds it back, whether it is superseded history, and what the
 * developer may do to it, as the Host derives them (the managed snapshot and `issue/get` alike; the UIs draw them).
 */
export const planTaskDto = taskDto.extend({
	ready: z.boolean(),
	blockerReason: z.union([blockerReason, z.literal('')]),
	superseded: z.boolean(),
	controls: taskControlsDto,
	attempts: taskAttemptsDto.optional(),
});
export type PlanTaskDto = z.infer<typeof planTaskDto>;

/** What the developer may press on the issue now (the Host's rule; the board and the panel only draw it). */
export const issueControlsDto = z.object({
	pause: z.boolean(),
	resume: z.boolean(),
	stop: z.boolean(),
	confirmGoal: z.boolean(),
	requestGoalChanges: z.boolean(),
	/** Some task awaits the developer's Accept or Request changes. */
	reviewTask: z.boolean(),
	/** Accepted work is not integrated yet: the panel's Integrate (`tutti issue integrate`). */
	integrate: z.boolean(),
	/** A manual issue open to new tasks. */
	addTask: z.boolean(),
	/** A manual issue created paused before its first Run: start dispatch (instead of Resume). */
	start: z.boolean(),
	/**
	 * The work is over (a completed managed issue; a manual one whose tasks are each completed or canceled) and not
	 * finished yet: Finish (with accepted work not integrated: "Finish without integrating").
	 */
	finish: z.boolean(),
	/** A completed managed issue not finished yet: a Follow Up for its source agent. */
	followUp: z.boolean(),
	/** A managed issue whose execution is not over: stop its source session. */
	stopSource: z.boolean(),
	/** Independent Goal Review: switch back to self review. */
	switchReviewToSelf: z.boolean(),
	/** Some Run of the issue exists: Open Run Output. */
	runOutput: z.boolean().default(false),
	/** Accepted commits exist, at Goal Review or before Integrate: Open Combined Diff (`issue/changes`). */
	combinedChanges: z.boolean().default(false),
});
export type IssueControlsDto = z.infer<typeof issueControlsDto>;

/** the Host's one attention state (src/core/attention/attention.ts); every UI draws it. */
export const attentionState = z.enum(['needs_you', 'agent_working', 'waiting_on_agent', 'paused', 'not_started', 'planned', 'done']);
export type AttentionStateDto = z.infer<typeof attentionState>;

export const deliveryState = z.enum(['nothing_to_integrate', 'ready_to_integrate', 'integrated', 'not_integrated']);
export type DeliveryStateDto = z.infer<typeof deliveryState>;

export const needsYouReasonDto = z.object({
	kind: z.enum(['task_awaiting_acceptance', 'goal_review', 'failed_run', 'merge_conflict', 'source_idle', 'source_gone', 'budget_reached', 'approval_asked', 'outside_changes', 'ready_to_integrate', 'run_stalled']),
	/** Short: "2 tasks to accept", "goal review", "source agent idle". */
	label: z.string(),
	taskIds: z.array(z.string()),
	/** A failure or a stall (the warning colour). */
	failure: z.boolean(),
});
export type NeedsYouReasonDto = z.infer<typeof needsYouReasonDto>;

export const attentionDto = z.object({
	state: attentionState,
	/** One line: "Needs you: 2 tasks to accept · goal review", "Agent working: …", "Waiting on the source agent". */
	label: z.string(),
	reasons: z.array(needsYouReasonDto),
	/** agent_working: what is being done now. */
	activity: z.string(),
	/** waiting_on_agent: since when (0 otherwise). */
	sinceUnixMs: z.number().int(),
	/** A failure or a stall is among the reasons: the only case for the warning colour. */
	stalled: z.boolean(),
	/** Source agent idle in the developer's terminal: the complete command to paste ('' otherwise). */
	handBackCommand: z.string(),
	/** Managed issues: the source agent's side (null for manual issues). */
	sourceAgent: z.object({
		activity: z.enum(['waiting', 'working', 'idle', 'between', 'gone']),
		waitingIn: z.enum(['', 'await-review', 'plan issue await', 'next-action']),
		waitingSinceUnixMs: z.number().int(),
	}).nullable(),
	/** Runs that need attention: each live task's latest Run that failed, was stopped, waits for review, or is stalled. */
	runs: z.array(z.object({
		runId: z.string(), taskId: z.string(), taskTitle: z.string(), kind: z.enum(['failed', 'stopped', 'waiting', 'stalled']),
		label: z.string(), needsYou: z.boolean(),
	})),
});
export type AttentionDto = z.infer<typeof attentionDto>;

export const taskAttentionDto = z.object({ state: attentionState, label: z.string() });
export type TaskAttentionDto = z.infer<typeof taskAttentionDto>;

export const usageDto = z.object({
	inputTokens: z.number().int(), outputTokens: z.number().int(), cacheReadTokens: z.number().int(), cacheWriteTokens: z.number().int(),
});

/**
 * What an issue's agent Turns used and cost (worker Runs, source wakes and reviewer Turns alike) against its budget,
 * as the Host derives it; the UIs and agents only show it.
 */
export const spendDto = z.object({
	usage: usageDto,
	/** input + output + cache read + cache write tokens (what `--budget-tokens` counts). */
	tokens: z.number().int(),
	/** USD of the Turns whose cost is known (the agent's own figure, else the model's price). */
	costUsd: z.number(),
	/** Turns that used tokens on a model with no known price (their cost is not in costUsd). */
	unpricedTurns: z.number().int(),
	budgetUsd: z.number().nullable(),
	budgetTokens: z.number().int().nullable(),
	/** What is left of each budget (null: no budget of that kind); never below 0. */
	remainingUsd: z.number().nullable(),
	remainingTokens: z.number().int().nullable(),
	/** `exceeded` / `unavailable`: the issue starts nothing more until the developer raises the budget. */
	budgetState: z.enum(['none', 'within', 'exceeded', 'unavailable']),
	/** Why nothing more starts ("budget reached: $1.02 of $1.00"), '' otherwise: the issue needs the developer. */
	budgetBlocker: z.string(),
	/** When the recorded spend reached the budget (Unix ms): nothing was started after it; null while within it. */
	reachedAtUnixMs: z.number().int().nullable(),
});
export type SpendDto = z.infer<typeof spendDto>;

/** Who paused a paused issue: the developer's pause (or stop) is lifted only by the developer (SECURITY.md). */
export const pauserDto = z.enum(['developer', 'source', 'agent']);

export const issueDto = z.object({
	issueId: z.string(),
	title: z.string(),
	content: z.string(),
	status: z.enum(['open', 'in_progress', 'completed', 'archived']),
	planningSource: z.enum(['manual', 'tutti']),
	sourceSessionId: z.string(),
	dispatchPaused: z.boolean(),
	/** Present while dispatch is paused: who paused it. */
	pausedBy: pauserDto.optional(),
	autoAcceptDefault: z.boolean(),
	/** Active (non-superseded) tasks only. */
	taskCount: z.number().int(),
	counts: statusCountsDto,
	/** A managed issue's execution status; null for a manual issue. */
	executionStatus: executionStatus.nullable(),
	/** The issue is over: completed or archived, or its execution is terminal (a gone source session included). */
	terminal: z.boolean(),
	controls: issueControlsDto,
	/** The one attention state the board, badge, status bar, panel and notifications draw. */
	attention: attentionDto,
	/** Code delivery: the commit the issue's first worktree started from ('' before any). */
	baseCommit: z.string(),
	/** The branch checked out when the base was recorded ('' before any, or on a detached HEAD). */
	baseBranch: z.string(),
	/** The last commit `tutti issue integrate` made or moved to ('' until integrated). */
	integratedCommit: z.string(),
	/** The branch the last integration went into ('' until integrated). */
	integratedInto: z.string(),
	/** Tasks pending acceptance again because their branch moved after they were accepted ("changed after acceptance"). */
	changedAfterAcceptanceTaskIds: z.array(z.string()),
	/**
	 * Where the accepted work is (src/core/issues/delivery.ts): nothing in worktrees to integrate, ready to integrate,
	 * integrated, or finished without integrating ("not integrated").
	 */
	delivery: deliveryState,
	/** The disk the issue's worktrees use (bytes) as last measured, with how many trees; null before a measurement. */
	worktreeDisk: z.object({
		bytes: z.number().int().nonnegative(), trees: z.number().int().nonnegative(), measuredAtUnixMs: z.number().int(),
		/** "2 trees · 12.3 MB" */
		label: z.string(),
	}).nullable(),
	/** Tool calls of this issue's running Runs waiting for the developer's answer (approval requests; `tutti approval list`). */
	pendingApprovalCount: z.number().int().optional(),
	/** Usage and cost of every agent Turn of the issue, and its budget. */
	spend: spendDto,
	createdAtUnixMs: z.number().int(),
	updatedAtUnixMs: z.number().int(),
});
export type IssueDto = z.infer<typeof issueDto>;
/** `issue/get`: the issue with its active tasks, each with its readiness. */
export const issueWithTasksDto = issueDto.extend({
	tasks: z.array(planTaskDto.extend({
		attention: taskAttentionDto.optional(),
		/** The stall mark in force on the task's running Run; absent when none. */
		stalled: runStallDto.optional(),
	})),
	/** What the checks said at the last `issue integrate` (what ran at the integrated commit, or skipped); null before one. */
	integrationChecks: integrationChecksDto.nullable().optional(),
});
export type IssueWithTasksDto = z.infer<typeof issueWithTasksDto>;

export const stopNoteDto = z.object({
	eventId: z.string(),
	reason: z.enum(['person', 'host', 'evict']),
	answer: stopAnswer.nullable(),
	requestedAtUnixMs: z.number().int(),
	answeredAtUnixMs: z.number().int(),
});

/** One line of a Run's readable transcript (src/agents/transcript.ts). */
export const transcriptEntryDto = z.object({
	/** `stderr`: a line the agent wrote to its standard error, placed among the others by when it was written. */
	kind: z.enum(['assistant', 'tool', 'edit', 'error', 'user', 'result', 'output', 'stderr']),
	text: z.string(),
	/** The tool's name for `tool` and `edit` entries ('' otherwise). */
	tool: z.string(),
});
export type TranscriptEntryDto = z.infer<typeof transcriptEntryDto>;


export const runDto = z.object({
	runId: z.string(),
	issueId: z.string(),
	taskId: z.string(),
	agentTargetId: z.string(),
	agentSessionId: z.string(),
	status: taskStatus,
	outcome: runOutcome.nullable(),
	/** "Completed in 2m 03s", "Failed after 2m 03s — …", "Interrupted after 2m 03s — you stopped this", "Ended without a result after 2m 03s"; null while running. */
	outcomeLabel: z.string().nullable(),
	exitCode: z.number().int().nullable(),
	summary: z.string(),
	errorMessage: z.string(),
	/** Every Turn of the Run (a queued message's Turn included). */
	usage: usageDto,
	/** USD: the agent's own figure, else usage × the model's price; null when a Turn's model has no known price. */
	costUsd: z.number().nullable(),
	outputDir: z.string(),
	executionDirectory: z.string(),
	/** The Run worked in its own git worktree (false: in the shared folder, where its changes mix with others'). */
	inWorktree: z.boolean(),
	/** Where the Run started: its tree's base, or HEAD at launch in the shared folder ('' when not recorded). */
	baseCommit: z.string(),
	/** The commit holding the Run's work ('' while running, and always in the shared folder). */
	resultCommit: z.string(),
	/** `git diff --numstat baseCommit resultCommit`. */
	changedFiles: z.array(z.object({ path: z.string(), added: z.number().int(), deleted: z.number().int(), binary: z.boolean() })),
	/**
	 * A worktree Run: what changed outside its tree and branch while it ran — `HEAD` (the developer's checkout moved),
	 * tracked paths of the developer's checkout, `refs/heads/…` branches. Empty when nothing did (and for a Run in
	 * the shared folder, or while it runs). Such a Run is never accepted automatically.
	 */
	outsideChanges: z.array(z.string()).default([]),
	/** Verified: the developer's checks of its reported success (null: it did not report success, or still runs). */
	verification: verificationDto.nullable().optional(),
	stopNotes: z.array(stopNoteDto),
	/** A person's Stop is in force on the Run and it has not settled yet (drawn as "Stopping…"). */
	stopping: z.boolean(),
	/** What the developer may press on the Run now (the Host's rule). */
	controls: z.object({
		/** The Run has not settled: Stop it (`tutti run stop`). */
		stop: z.boolean(),
	}),
	/**
	 * A worktree Run's tree before its agent starts: `waiting` (for git, a setup slot, or another tree's install of the
	 * same key), `setting_up` (worktreeCopy, shared paths, worktreeSetup), then `done`. `method`: how the tree got its
	 * shared paths — `installed` (its setup ran), `clone` (copy-on-write), `copy` (plain copy); null: nothing shared.
	 * `log`: the setup output's last lines while it is under way. Absent when no setup ran for its tree.
	 */
	setup: z.object({
		state: z.enum(['waiting', 'setting_up', 'done']),
		startedAtUnixMs: z.number().int(),
		endedAtUnixMs: z.number().int(),
		elapsedMs: z.number().int(),
		method: z.enum(['installed', 'clone', 'copy']).nullable(),
		log: z.string(),
	}).optional(),
	/** While it runs: the newest line of its transcript (what the agent is doing now); absent otherwise. */
	activity: transcriptEntryDto.nullable().optional(),
	/** The stall mark in force (running Runs only); null when none. Never a failure: the Run goes on. */
	stalled: runStallDto.nullable(),
	/** The tool calls this Run asked the developer about, each with its answer and who gave it (approval requests). */
	approvals: z.array(approvalDto).optional(),
	/**
	 * While it runs: what `tutti run send` does for its agent — `into-turn` (claude), `queued-until-turn-ends` (codex),
	 * `not-accepted` (command targets); absent when its target is no longer configured.
	 */
	messagesWhileRunning: z.enum(['into-turn', 'queued-until-turn-ends', 'not-accepted']).optional(),
	/** A running Run's messages (`tutti run send`), in order, each `queued`, `sent` into the Turn, or `delivered`. */
	messages: z.array(z.object({ messageId: z.string(), text: z.string(), atUnixMs: z.number().int(), state: z.enum(['queued', 'sent', 'delivered']) })).optional(),
	createdAtUnixMs: z.number().int(),
	startedAtUnixMs: z.number().int(),
	completedAtUnixMs: z.number().int(),
	durationMs: z.number().int(),
});
export type RunDto = z.infer<typeof runDto>;

export const executionDto = z.object({
	executionId: z.string(),
	status: executionStatus,
	graphRevision: z.number().int(),
	activeCheckpointId: z.string(),
	reviewMode: z.enum(['self', 'independent']),
	archiveReason: z.string(),
	watchdogDueAtUnixMs: z.number().int(),
});

export const checkpointDto = z.object({
	checkpointId: z.string(),
	kind: checkpointKind,
	status: checkpointStatus,
	sequence: z.number().int(),
	graphRevision: z.number().int(),
	subjectTaskId: z.string(),
	subjectRunId: z.string(),
	creationReason: z.string(),
	requiresGoalReview: z.boolean(),
	/** The developer's note on a changes_requested / goal_changes_requested checkpoint (absent on other kinds). */
	note: z.string().optional(),
});
export type CheckpointDto = z.infer<typeof checkpointDto>;

export const wakeDto = z.object({
	wakeId: z.string(),
	checkpointId: z.string(),
	wakeSequence: z.number().int(),
	clientSubmitId: z.string(),
	status: z.enum(['prepared', 'leased', 'dispatched', 'turn_settled', 'acknowledged', 'failed', 'canceled']),
	/** Verbatim, as the agent received it. */
	prompt: z.string(),
	/** The prompt's checkpoint-wake marker line, read by the Host; null when the prompt has none (plain text). */
	marker: z.object({ kind: checkpointKind, graphRevision: z.number().int() }).nullable(),
	/** The prompt without its marker line (the whole prompt when it has none). */
	body: z.string(),
	/** Why the wake is not delivered yet or failed ("budget reached: $1.20 of $1.00"); '' when nothing holds it. */
	lastError: z.string(),
	createdAtUnixMs: z.number().int(),
});
export type WakeDto = z.infer<typeof wakeDto>;

/** `tutti plan issue get`. */
export const planSnapshotDto = z.object({
	issueId: z.string(),
	title: z.string(),
	dispatchPaused: z.boolean(),
	pausedBy: pauserDto.optional(),
	execution: executionDto,
	activeCheckpoint: checkpointDto.nullable(),
	/** Active and pending checkpoints only, by sequence. */
	checkpoints: z.array(checkpointDto),
	tasks: z.array(planTaskDto),
	readyTaskIds: z.array(z.string()),
	allowedActions: z.array(planAction),
	recoveryHint: z.string(),
	/** What the issue has spent and what is left of its budget. */
	spend: spendDto,
	/** The active checkpoint's current main wake, if any (delivery is the agent-sessions issue). */
	activeWake: wakeDto.nullable(),
	/** The independent reviewer's Goal Review of the active checkpoint (review_mode independent; absent otherwise). */
	independentReview: z.object({
		reviewId: z.string(), checkpointId: z.string(), status: z.enum(['prepared', 'dispatched', 'submitted', 'failed', 'canceled']),
		verdict: z.enum(['', 'goal_satisfied', 'more_work_required', 'inconclusive']), summary: z.string(), failureReason: z.string(),
		disagreementReason: z.string(),
	}).optional(),
});
export type PlanSnapshotDto = z.infer<typeof planSnapshotDto>;

/**
 * A task as the compact snapshot shows it: what the agent acts on, nothing more (`--task-id` gives the whole task).
 * Empty facts are left out: blockerReason only while a not-started task is held back (or task_superseded), no
 * dependencyTaskIds without dependencies, no latestRunId before its first Run, no
 * outcomeLabel before a Run settled, no resultCommit unless a successful Run recorded one.
 */
export const slimTaskDto = z.object({
	taskId: z.string(),
	/** At most 160 characters (longer titles end with …). */
	title: z.string(),
	status: taskStatus,
	blockerReason: blockerReason.optional(),
	/** At most 20; `moreDependencies` counts the rest. */
	dependencyTaskIds: z.array(z.string()).optional(),
	moreDependencies: z.number().int().positive().optional(),
	latestRunId: z.string().optional(),
	outcomeLabel: z.string().optional(),
	resultCommit: z.string().optional(),
	/** The verification's one line ("Checks passed at abc1234", "Checks failed: test (exit 1)"); absent before one. */
	verificationLabel: z.string().optional(),
	/** The active checkpoint's subject only: "Accepted automatically at abc1234 (checks passed)", or "Not accepted". */
	acceptanceLabel: z.string().optional(),
});
export type SlimTaskDto = z.infer<typeof slimTaskDto>;

/** The execution facts a compact snapshot carries. */
export const executionBriefDto = executionDto.pick({ executionId: true, status: true, graphRevision: true, activeCheckpointId: true });

/**
 * `tutti plan issue get` without `--full`: what the source agent acts on now, flat in the graph's size. `tasks` holds
 * the active checkpoint's subject task, the running tasks, the tasks changed since `sinceRevision` and the ready
 * tasks of `readyTaskIds`, in that order of precedence, at most 50 (`omittedTaskCount` counts the rest).
 */
export const compactPlanSnapshotDto = z.object({
	issueId: z.string(),
	title: z.string(),
	dispatchPaused: z.boolean(),
	pausedBy: pauserDto.optional(),
	execution: executionBriefDto,
	activeCheckpoint: checkpointDto.nullable(),
	/** Active and pending checkpoints, by sequence, at most 50 (`omittedCheckpointCount` counts the rest). */
	checkpoints: z.array(checkpointDto),
	omittedCheckpointCount: z.number().int(),
	allowedActions: z.array(planAction),
	recoveryHint: z.string(),
	/** What the issue has spent and what is left of its budget (at budget: nothing more starts). */
	spend: spendDto,
	/** The first 50 ready tasks in backlog order; `readyCount` counts them all. */
	readyTaskIds: z.array(z.string()),
	readyCount: z.number().int(),
	/** Active (not superseded) tasks by status. */
	counts: statusCountsDto,
	/** The issue's task change counter now (not graphRevision: every task write moves it, a Run settling too). */
	taskRevision: z.number().int(),
	/** `tasks` includes the tasks written after this revision: `--since-revision`, else the revision this session last read. */
	sinceRevision: z.number().int(),
	tasks: z.array(slimTaskDto),
	omittedTaskCount: z.number().int(),
	independentReview: planSnapshotDto.shape.independentReview,
});
export type CompactPlanSnapshotDto = z.infer<typeof compactPlanSnapshotDto>;

/** `tutti plan issue get --task-id T`: that one task in full (its commits included), with its latest Run's label. */
export const planTaskViewDto = z.object({
	issueId: z.string(),
	execution: executionBriefDto,
	taskRevision: z.number().int(),
	task: planTaskDto.extend({ outcomeLabel: z.string().nullable() }),
});
export type PlanTaskViewDto = z.infer<typeof planTaskViewDto>;

export const agentTargetDto = z.object({
	id: z.string(),
	adapter: z.enum(['command', 'claude', 'codex']),
	found: z.boolean(),
	path: z.string(),
	detail: z.string(),
	/** Where its tasks run: the shared folder, or a git worktree each. */
	isolation: z.enum(['none', 'worktree']),
	/** What a worktree task does when its parents' commits conflict. */
	onMergeConflict: z.enum(['fail', 'agent']),
	/**
	 * How a tool call outside the allowed tools is handled: `ask` (claude: an approval request you answer),
	 * `allowed-tools-only` (claude: denied without asking), `sandbox` (codex and command: never asked per call; codex
	 * runs under its sandbox setting).
	 */
	approvals: z.enum(['ask', 'allowed-tools-only', 'sandbox']).optional(),
	/**
	 * What `tutti run send` does while its agent works: `into-turn` (claude, codex app-server: the message reaches the
	 * running Turn), `queued-until-turn-ends` (codex exec: the next resume Turn takes it), `not-accepted` (command targets).
	 */
	messagesWhileRunning: z.enum(['into-turn', 'queued-until-turn-ends', 'not-accepted']),
	/** It can plan an issue as its source agent (claude, codex); a command target runs tasks only. */
	canPlan: z.boolean(),
	/** codex only: how its Runs speak with Codex — `app-server` (JSON-RPC driven by the Run's supervisor) or `exec`. */
	protocol: z.enum(['app-server', 'exec']).optional(),
});

/** The state of one agent in the Agents view (src/core/attention/vocabulary.ts names them). */
export const agentTurnState = z.enum(['working', 'waiting_on_you', 'waiting_on_approval', 'waiting_on_agents', 'setting_up', 'stalled']);
export type AgentTurnStateDto = z.infer<typeof agentTurnState>;

/**
 * One agent at work or waiting now (`turn/list`): a worker Run that has not settled, or a source or reviewer session
 * that runs a Turn or waits in a bounded call. Its state, words and controls are the Host's; the Agents view draws them.
 */
export const agentTurnDto = z.object({
	/** Stable while the agent is listed: `run:<runId>` for a worker, `session:<sessionId>` for a source or reviewer. */
	key: z.string(),
	role: sessionRole,
	issueId: z.string(),
	issueTitle: z.string(),
	/** The worker's task ('' for a source or reviewer session). */
	taskId: z.string(),
	taskTitle: z.string(),
	agentTargetId: z.string(),
	state: agentTurnState,
	/** The state's one name, with why when it is not plain: "Waiting on approval: 1 tool call". */
	label: z.string(),
	/** Since when it is in this Run, Turn or wait (Unix ms; elapsed time is now minus this). */
	sinceUnixMs: z.number().int(),
	/** Tokens its Turns used so far (input + output + cache), as recorded; a running Turn counts once it ends. */
	tokens: z.number().int(),
	/** USD of those Turns; null when a model's price is not known. */
	costUsd: z.number().nullable(),
	/** The newest line of its transcript ('' when none is known). */
	activity: z.string(),
	/** The worker's Run ('' for a session). */
	runId: z.string(),
	/** What the developer may press on it now. */
	controls: z.object({
		/** Stop the worker's Run (`tutti.stopRun`). */
		stopRun: z.boolean(),
		/** Stop the source session (`tutti.stopSourceSession`: archives its issue's execution). */
		stopSource: z.boolean(),
		/** The Run's output can be opened (`tutti.openRunOutput`). */
		transcript: z.boolean(),
	}),
});
export type AgentTurnDto = z.infer<typeof agentTurnDto>;

/** `issue/changes`: the whole issue as one diff, from its base commit to the combination of its accepted commits. */
export const issueChangesDto = z.object({
	issueId: z.string(),
	/** The commit the issue's first worktree started from ('' when no task worked in a worktree). */
	baseCommit: z.string(),
	/** The accepted commits combined (one of them, or a merge commit Tutti made without moving any ref); '' when none. */
	combinedCommit: z.string(),
	/** The tasks whose accepted commits are in it. */
	taskIds: z.array(z.string()),
	files: z.array(z.object({ path: z.string(), added: z.number().int(), deleted: z.number().int(), binary: z.boolean() })),
	/** The accepted commits do not combine: the conflicting paths (no files then; `note` names the tasks). */
	conflictPaths: z.array(z.string()),
	/** Why there is nothing to show ('' when there is). */
	note: z.string(),
});
export type IssueChangesDto = z.infer<typeof issueChangesDto>;
