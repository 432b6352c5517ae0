// The control-plane method table: `POST /v1/<method>` with a JSON body of `params`.
// Shared by the server (src/control-plane) and the client (src/cli). Validate on receipt, every time.
import { z } from 'zod';
import { agentResponse, owedState } from './agentResponse.js';
import { approvalDto, approvalMethods } from './approvals.js';
import { checksInput, integrationChecksDto } from './checks.js';
import {
	agentTargetDto, agentTurnDto, archiveStatus, checkpointKind, checkpointStatus, compactPlanSnapshotDto, transcriptEntryDto, executionStatus, issueDto, issueWithTasksDto,
	issueChangesDto, planSnapshotDto, planTaskViewDto, runDto, sessionRole, stopAnswer, taskDto, taskStatus,
} from './dto.js';
import { mutationOperations } from './operations.js';
import { operationsShapeMessage } from './operationsShape.js';
import { type WireReasonCode, wireReasonCodes } from './reasonCodes.js';

export const protocolVersion = 1;

/** Every reason code an error may carry: a closed list, equal to core's. */
export const reasonCode = z.enum(wireReasonCodes);

const id = z.string().min(1).max(200);
const requestId = z.string().min(1).max(200);
const revision = z.number().int().min(1);
const text = (max: number) => z.string().max(max);

/** One worktree or `tutti/*` branch of an issue, as Finish and `tutti worktree prune` see it. */
export const cleanupItemDto = z.object({
	kind: z.enum(['tree', 'branch']),
	taskId: z.string(),
	/** The tree's absolute path, or the branch's name. */
	name: z.string(),
	/** A tree's disk use in bytes (0 for a branch). */
	bytes: z.number().int().nonnegative(),
	/** removable: would go (an offer); removed: went; kept: stays, for `reason`. */
	state: z.enum(['removable', 'removed', 'kept']),
	/** Why it is kept ('' otherwise). */
	reason: z.string(),
});
export type CleanupItemDto = z.infer<typeof cleanupItemDto>;

/** What removing an issue's trees and merged branches would do or did, and the disk that frees. */
export const cleanupReportDto = z.object({
	issueId: z.string(),
	items: z.array(cleanupItemDto),
	/** The disk the removable (or removed) trees free, in bytes. */
	bytes: z.number().int().nonnegative(),
	/** One sentence: "Removing its 4 worktrees and 4 merged branches frees 12.3 MB." */
	summary: z.string(),
});
export type CleanupReportDto = z.infer<typeof cleanupReportDto>;

/** Optional launch settings accepted by generic task writers. */
const launchFields = {
	agentTargetId: text(200).optional(),
	model: text(200).optional(),
	permissionModeId: text(200).optional(),
	reasoningEffort: text(50).optional(),
	executionDirectory: text(4096).optional(),
	autoAccept: z.boolean().optional(),
};

/** An issue's budget: USD and/or tokens (input + output + cache); null removes that kind of budget. */
const budgetFields = {
	budgetUsd: z.number().nonnegative().max(1_000_000).nullable().optional(),
	budgetTokens: z.number().int().nonnegative().max(1e15).nullable().optional(),
};

const fenced = {
	issueId: id,
	checkpointId: id,
	expectedGraphRevision: revision,
	requestId,
};

/**
 * Task ids one `plan issue schedule` may name: every task of a 5,000-task plan and twice that, while 10,000 ids of the
 * longest length (200 characters) still fit in the 8 MiB request cap (`maxBodyBytes`).
 */
export const maxScheduleTaskIds = 10_000;
const scheduleCapMessage = `at most 10,000 task ids per schedule (10,000 ids of up to 200 characters fit in the Host's 8 MiB request cap); schedule the rest at a later checkpoint`;

/** A Run's message queue: paused is derived from person Stops and later Resumes. */
const runQueueResult = z.object({
	runId: z.string(),
	paused: z.boolean(),
	pausedByStopEventIds: z.array(z.string()),
	messages: z.array(z.object({
		messageId: z.string(), text: z.string(), atUnixMs: z.number().int(), delivered: z.boolean(),
		/** `sent`: written into the running Turn, not echoed by the agent yet; `delivered`: echoed, or started its own Turn. */
		state: z.enum(['queued', 'sent', 'delivered']),
	})),
});

/** A developer decision on a task's result. `checkpointId`: the changes_requested checkpoint ('' otherwise). */
const reviewDecisionResult = z.object({
	decisionId: z.string(), issueId: z.string(), taskId: z.string(), runId: z.string(),
	decision: z.enum(['accepted', 'changes_requested']), note: z.string(), checkpointId: z.string(),
	taskStatus, acceptanceState: z.enum(['', 'agent_claimed', 'auto_checked', 'user_accepted']), replayed: z.boolean(),
	/** Set when no agent is waiting for this decision: the exact command that hands the source session back. */
	handBackCommand: z.string().optional(),
	/** Changes requested on a manual issue: the task's next attempt, which carries the note (its Run starts as capacity allows). */
	rework: z.object({ reworkId: z.string(), attempt: z.number().int().positive() }).optional(),
});

/** A developer decision at Goal Review. `checkpointId`: the goal_changes_requested checkpoint ('' for confirmed). */
const goalDecisionResult = z.object({
	goalReviewId: z.string(), issueId: z.string(), executionId: z.string(), status: z.enum(['confirmed', 'changes_requested']),
	note: z.string(), checkpointId: z.string(), executionStatus, replayed: z.boolean(),
	/** Set when no agent is waiting for this decision: the exact command that hands the source session back. */
	handBackCommand: z.string().optional(),
});

/** Run messages and worktrees, part of `methods`. */
export const runAgentMethods = {
	/**
	 * A message to a running claude/codex agent (developer), appended durably. `into-turn`: handed to the running claude
	 * Turn (delivered once the agent echoes it); `queued`: it waits for the Turn to end and starts the next one.
	 */
	'run/send': {
		params: z.strictObject({ runId: id, text: z.string().min(1).max(100_000) }),
		result: z.object({
			runId: z.string(), messageId: z.string(), position: z.number().int(), pending: z.number().int(),
			queuePaused: z.boolean(), delivery: z.enum(['queued', 'into-turn']),
		}),
	},
	'run/queue': { params: z.strictObject({ runId: id }), result: runQueueResult },
	/** Resumes a queue paused by a person's Stop (developer). */
	'run/resume-queue': { params: z.strictObject({ runId: id }), result: runQueueResult.extend({ eventId: z.string() }) },
	/** Removes a task's git worktree (developer); refused while it has uncommitted changes or a Run uses it. */
	'worktree/remove': {
		params: z.strictObject({ issueId: id, taskId: id }),
		result: z.object({ issueId: z.string(), taskId: z.string(), path: z.string(), branch: z.string(), removed: z.literal(true) }),
	},
	/**
	 * Removes the worktrees and merged `tutti/*` branches of finished issues (developer; all of them, or one issue's):
	 * never a tree with uncommitted changes or a branch whose work is not merged, each one kept named with its reason.
	 */
	'worktree/prune': {
		params: z.strictObject({ issueId: id.optional() }),
		result: z.object({ issues: z.array(cleanupReportDto), bytes: z.number().int().nonnegative(), summary: z.string() }),
	},
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

/** What a new attempt of a task answers: the rework recorded, and the task as it is now. */
const reworkResult = z.object({
	issueId: z.string(), taskId: z.string(), reworkId: z.string(), attempt: z.number().int().positive(),
	/** The Run carrying it out ('' while it waits for the dispatcher: a manual issue starts it as capacity allows). */
	runId: z.string(),
	task: taskDto,
});

/** Code delivery, part of `methods`. */
export const deliveryMethods = {
	/**
	 * Run a failed or canceled task of a manual issue again (developer): a new attempt in its own tree, after optional
	 * edits of its not-started fields (Edit and retry); `note` goes into the new attempt's prompt.
	 */
	'task/retry': {
		params: z.strictObject({
			issueId: id, taskId: id, note: text(10_000).optional(), title: z.string().min(1).max(500).optional(), content: text(100_000).optional(),
			dependencyTaskIds: z.array(id).max(1000).optional(), ...launchFields,
		}),
		result: reworkResult,
	},
	/**
	 * Update an accepted task from its base branch (developer): a new Run of it in its own tree merges the branch (and the
	 * accepted work integrated before it) in. Merged cleanly: no agent, the merge is its result. Conflicts: its agent
	 * resolves them (`onMergeConflict: "agent"`), or the merge is left in the tree for the developer (`"fail"`). Either
	 * way the new result is reviewed and accepted again. `upToDate`: the tree has it all already, nothing was started.
	 */
	'task/updateFromBase': {
		params: z.strictObject({ issueId: id, taskId: id, into: z.string().min(1).max(250).optional() }),
		result: z.object({
			issueId: z.string(), taskId: z.string(), into: z.string(), upToDate: z.boolean(),
			/** What is merged in, the branch first ([] when up to date). */
			sources: z.array(z.object({ label: z.string(), commit: z.string() })),
			/** The paths that conflict ([] when it merges cleanly or is up to date). */
			conflictPaths: z.array(z.string()),
			/** Who settles the merge: nobody (`merge`: it is clean), the task's `agent`, or the `developer` in the tree. */
			resolvedBy: z.enum(['none', 'merge', 'agent', 'developer']),
			/** The task's tree, relative to the workspace. */
			tree: z.string(),
			reworkId: z.string(), attempt: z.number().int().nonnegative(), runId: z.string(),
			/** One sentence: what happens now and what the developer does next. */
			message: z.string(),
		}),
	},
	/** Merges the accepted commits of an issue's tasks into a branch (developer). */
	'issue/integrate': {
		params: z.strictObject({
			issueId: id,
			/** A branch name; default: the issue's base branch. */
			into: z.string().min(1).max(250).optional(),
			/** Integrate what is accepted and leave the rest (default: refuse while a task is not accepted). */
			acceptedOnly: z.boolean().optional(),
			/** Push the branch once it moved: to this remote, or (true) to the branch's upstream. */
			push: z.union([z.literal(true), z.string().min(1).max(250)]).optional(),
			/** One commit per task titled by the task, or one for the issue (default: the tasks' history as it is). */
			squash: z.enum(['task', 'issue']).optional(),
			/** The developer's explicit choice to move the branch without running the issue's checks (recorded). */
			skipChecks: z.boolean().optional(),
		}),
		result: z.object({
			issueId: z.string(), into: z.string(), integratedCommit: z.string(), previousCommit: z.string(),
			fastForward: z.boolean(), mergedTaskIds: z.array(z.string()), workspaceMoved: z.boolean(),
			/** How the tasks' work became commits: their own history (none), one commit per task, or one for the issue. */
			squash: z.enum(['none', 'task', 'issue']),
			/** With push: where the branch went (the push never undoes the integration; a failed push is an error). */
			pushed: z.object({ remote: z.string(), branch: z.string() }).optional(),
			/** How the integrated commit was verified before the branch moved (passed, skipped by the developer, none). */
			checks: integrationChecksDto.optional(),
		}),
	},
	/**
	 * The whole issue as one diff: its base commit against its accepted commits combined (`git merge-tree` in the object
	 * database; no ref, worktree or task changes). Read-only for everyone; a conflict between them is answered with its paths.
	 */
	'issue/changes': { params: z.strictObject({ issueId: id }), result: issueChangesDto },
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

/** Every agent at work or waiting, across issues (the Agents view), part of `methods`. */
export const turnMethods = {
	'turn/list': { params: z.strictObject({}), result: z.object({ turns: z.array(agentTurnDto) }) },
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const methods = {
	...runAgentMethods,
	...approvalMethods,
	...deliveryMethods,
	...turnMethods,
	'hello': {
		params: z.strictObject({ client: text(100), protocol: z.number().int() }),
		result: z.object({ protocol: z.number().int(), workspace: z.string(), pid: z.number().int(), caller: z.string(), notice: z.string().optional() }),
	},
	'session/open': {
		params: z.strictObject({ role: sessionRole, issueId: id.optional(), agentTargetId: id.optional() }),
		result: z.object({ sessionId: z.string(), token: z.string(), role: sessionRole }),
	},
	/** Source-session Stop (developer): archives every nonterminal execution of that source session, durably. */
	'session/stop': {
		params: z.strictObject({ sessionId: id }),
		result: z.object({ sessionId: z.string(), markerId: z.string(), archivedExecutionIds: z.array(z.string()) }),
	},
	'agent/list': {
		params: z.strictObject({}),
		result: z.object({ agentTargets: z.array(agentTargetDto) }),
	},
	'issue/create': {
		/** `dispatchPaused`: nothing starts until the developer's Start (`issue/resume`), so a graph can be built first. */
		params: z.strictObject({ title: z.string().min(1).max(500), content: text(100_000).optional(), autoAccept: z.boolean().optional(), dispatchPaused: z.boolean().optional(), ...budgetFields }),
		result: issueDto,
	},
	/** `taskId` / `status`: only that task, or only the tasks in that status (the counts stay the issue's). */
	'issue/get': { params: z.strictObject({ issueId: id, taskId: id.optional(), status: taskStatus.optional() }), result: issueWithTasksDto },
	'issue/list': { params: z.strictObject({}), result: z.object({ issues: z.array(issueDto) }) },
	'issue/update': {
		params: z.strictObject({
			issueId: id,
			title: z.string().min(1).max(500).optional(),
			content: text(100_000).optional(),
			dispatchPaused: z.boolean().optional(),
			/** Developer only; also on a managed issue: the issue's auto-accept, for new tasks and its tasks not completed yet. */
			autoAccept: z.boolean().optional(),
			/** Developer only; also on a managed issue. Raising it lets the issue go on (what was owed starts). */
			...budgetFields,
		}),
		result: issueDto,
	},
	/** Developer actions (user only). */
	/**
	 * The developer's checks of an issue (no taskId) or of one of its tasks: replaces what was set there ([] drops
	 * them). A task runs the union of the workspace's, its agent target's, its issue's and its own.
	 */
	'issue/setChecks': {
		params: z.strictObject({ issueId: id, taskId: id.optional(), checks: checksInput }),
		result: z.object({
			issueId: z.string(), taskId: z.string(),
			checks: z.array(z.object({ name: z.string(), argv: z.array(z.string()), shell: z.boolean(), timeoutSeconds: z.number().int() })),
		}),
	},
	'issue/pause': { params: z.strictObject({ issueId: id }), result: issueDto },
	'issue/resume': { params: z.strictObject({ issueId: id }), result: issueDto },
	/** Developer Stop for the whole issue: pause dispatch, then stop every running Run (person Stop events). */
	'issue/stop': { params: z.strictObject({ issueId: id }), result: issueDto },
	'task/add': {
		params: z.strictObject({
			issueId: id, taskId: id.optional(), title: z.string().min(1).max(500), content: text(100_000).optional(),
			dependencyTaskIds: z.array(id).max(1000).optional(), ...launchFields,
		}),
		result: taskDto,
	},
	'task/update': {
		params: z.strictObject({
			issueId: id, taskId: id, title: z.string().min(1).max(500).optional(), content: text(100_000).optional(),
			dependencyTaskIds: z.array(id).max(1000).optional(), ...launchFields,
		}),
		result: taskDto,
	},
	'task/delete': { params: z.strictObject({ issueId: id, taskId: id }), result: z.object({ issueId: z.string(), taskId: z.string(), deleted: z.literal(true) }) },

	// Managed (`tutti`) issues. Caller authority comes from the session token only.
	'plan/create': {
		/** `sourceTargetId` (developer only): Tutti starts the source session itself on that agent target. */
		params: z.strictObject({ title: z.string().min(1).max(500), content: text(100_000), requestId, autoAccept: z.boolean().optional(), sourceTargetId: id.optional(),
			/** Goal Review waits for the developer's confirmation (default: the Host's developerConfirmation setting, on). */
			developerConfirmation: z.boolean().optional(),
			/** An independent reviewer on this agent target reviews the goal at Goal Review (review_mode independent). */
			reviewTargetId: id.optional(), ...budgetFields }),
		result: z.object({ issueId: z.string(), executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), sourceSessionId: z.string(), replayed: z.boolean() }),
	},
	/** The complete snapshot (`plan issue get --full`; the extension's view). */
	'plan/get': { params: z.strictObject({ issueId: id }), result: planSnapshotDto },
	/** The compact snapshot (`plan issue get`): what the agent acts on now and what changed since it last read. */
	'plan/getCompact': {
		params: z.strictObject({ issueId: id, sinceRevision: z.number().int().nonnegative().optional() }),
		result: compactPlanSnapshotDto,
	},
	/** One task in full (`plan issue get --task-id`). */
	'plan/getTask': { params: z.strictObject({ issueId: id, taskId: id }), result: planTaskViewDto },
	'plan/schedule': {
		params: z.strictObject({ ...fenced, taskIds: z.array(id).min(1).max(maxScheduleTaskIds, { error: scheduleCapMessage }) }),
		result: z.object({ executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), runIds: z.array(z.string()), replayed: z.boolean() }),
	},
	'plan/mutate': {
		/** The operations as structured JSON, checked here strictly (a malformed one: `paramReasons`). */
		params: z.strictObject({ ...fenced, operations: mutationOperations }),
		result: z.object({
			executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(),
			addedTaskIds: z.array(z.string()), updatedTaskIds: z.array(z.string()), supersededTaskIds: z.array(z.string()), replayed: z.boolean(),
		}),
	},
	'plan/acknowledge': {
		params: z.strictObject(fenced),
		result: z.object({
			executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(),
			/** The checkpoint promoted to active, if any ('' for each when none was pending). */
			nextCheckpointId: z.string(), nextCheckpointKind: z.union([checkpointKind, z.literal('')]), nextCheckpointState: z.union([checkpointStatus, z.literal('')]),
			replayed: z.boolean(),
		}),
	},
	'plan/complete': {
		params: z.strictObject({ ...fenced, decision: z.literal('goal_satisfied'), disagreementReason: text(10_000).optional() }),
		result: z.object({
			executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), decision: z.literal('goal_satisfied'), replayed: z.boolean(),
			/** `completed`, or `pending_goal_review` while the developer's confirmation is awaited (then `goalReviewId` names the request). */
			executionStatus: executionStatus.optional(),
			goalReviewId: z.string().optional(),
		}),
	},
	'plan/stop': {
		params: z.strictObject({ ...fenced, reason: z.string().min(1).max(10_000) }),
		result: z.object({ executionId: z.string(), issueId: z.string(), operationId: z.string(), requestId: z.string(), status: archiveStatus, reason: z.string(), replayed: z.boolean() }),
	},
	/** Answers the compact snapshot, like `plan issue get`. The source lifts only its own pause, never the developer's. */
	'plan/resume': { params: z.strictObject({ issueId: id }), result: compactPlanSnapshotDto },
	/** The source session pauses its own issue (its resume lifts it; the developer's resume too). Compact snapshot. */
	'plan/pause': { params: z.strictObject({ issueId: id }), result: compactPlanSnapshotDto },

	// Developer confirmation: developer only; an agent token is refused (forbidden).
	'review/accept': { params: z.strictObject({ issueId: id, taskId: id, note: text(10_000).optional() }), result: reviewDecisionResult },
	/** The note is required and must not be blank (checked by the Host: invalid_input). */
	'review/requestChanges': { params: z.strictObject({ issueId: id, taskId: id, note: text(10_000) }), result: reviewDecisionResult },
	'goal/confirm': { params: z.strictObject({ issueId: id }), result: goalDecisionResult },
	'goal/requestChanges': { params: z.strictObject({ issueId: id, note: text(10_000) }), result: goalDecisionResult },
	/** The independent reviewer's one advisory verdict at Goal Review (reviewer session only). */
	'goalReview/verdict': {
		params: z.strictObject({ ...fenced, reviewId: id, verdict: z.enum(['goal_satisfied', 'more_work_required', 'inconclusive']), summary: z.string().min(1).max(10_000) }),
		result: z.object({ reviewId: z.string(), verdict: z.enum(['goal_satisfied', 'more_work_required', 'inconclusive']), replayed: z.boolean() }),
	},
	/** Developer only, audited: turn an independent execution back to self review (cancels the open reviewer review). */
	'goalReview/switchToSelf': {
		params: z.strictObject({ issueId: id, reason: z.string().min(1).max(10_000) }),
		result: z.object({ issueId: z.string(), executionId: z.string(), reviewMode: z.literal('self'), switchId: z.string(), changed: z.boolean() }),
	},

	// Runs.
	'run/get': { params: z.strictObject({ runId: id }), result: runDto },
	'run/list': { params: z.strictObject({ issueId: id }), result: z.object({ runs: z.array(runDto) }) },
	'run/stop': { params: z.strictObject({ runId: id }), result: z.object({ runId: z.string(), eventId: z.string(), answer: stopAnswer }) },
	'run/log': {
		params: z.strictObject({ runId: id, stream: z.enum(['stdout', 'stderr']).default('stdout'), offset: z.number().int().nonnegative().default(0), maxBytes: z.number().int().positive().max(1_048_576).default(262_144) }),
		result: z.object({ runId: z.string(), data: z.string(), nextOffset: z.number().int(), done: z.boolean() }),
	},
	/**
	 * A readable transcript of the Run's stdout from `offset` (whole lines only; a partial last line waits for the rest):
	 * assistant text, tool calls, files edited, errors, the developer's messages, the final result; with its stderr
	 * lines from `stderrOffset` among them (`stderr` entries, in the order they were written). Continue with both
	 * `nextOffset` and `stderrNextOffset`.
	 */
	'run/transcript': {
		params: z.strictObject({
			runId: id, offset: z.number().int().nonnegative().default(0), stderrOffset: z.number().int().nonnegative().default(0),
			maxBytes: z.number().int().positive().max(1_048_576).default(262_144),
		}),
		result: z.object({
			runId: z.string(), entries: z.array(transcriptEntryDto), nextOffset: z.number().int(), stderrNextOffset: z.number().int(), done: z.boolean(),
			/** Every tool call of the Run that asked the developer, with its answer and who gave it (not part of stdout). */
			approvals: z.array(approvalDto).optional(),
		}),
	},
	/** From a Run's supervisor: its process started or exited (the exit record on disk stays authoritative). */
	'run/report': {
		params: z.strictObject({ runId: id, event: z.enum(['started', 'exited']) }),
		result: z.object({ ok: z.literal(true) }),
	},
	// Bounded waits and lifecycle queries for agents. Each wait returns within `waitMs` (≤ 45 s).
	'await/review': {
		params: z.strictObject({ issueId: id, taskId: id.optional(), waitMs: z.number().int().nonnegative().max(45_000).optional() }),
		result: agentResponse,
	},
	'await/checkpoint': {
		params: z.strictObject({ issueId: id, waitMs: z.number().int().nonnegative().max(45_000).optional() }),
		result: agentResponse,
	},
	'await/next-action': {
		params: z.strictObject({ issueId: id, waitMs: z.number().int().nonnegative().max(45_000).optional() }),
		result: agentResponse,
	},
	/** Read-only: what the session owes now (a session reads its own; the developer may name any). */
	'agent/resume': { params: z.strictObject({ sessionId: id.optional() }), result: agentResponse },
	/** For the UI: is the agent waiting in a live call, working, or idle; and the exact hand-back command. */
	'session/state': {
		params: z.strictObject({ sessionId: id }),
		result: z.object({
			sessionId: z.string(), activity: z.enum(['waiting', 'working', 'idle']), lastHeartbeatAtUnixMs: z.number().int(),
			/** What the session owes now, or why that cannot be said (the reason code of the failure). */
			handBackCommand: z.string(), state: z.union([owedState, reasonCode]), next: z.string().optional(),
		}),
	},
	/** Developer action: Finish after a completed issue (nothing more is offered to the agent). */
	'issue/finish': {
		params: z.strictObject({
			issueId: id,
			/** Also remove the issue's worktrees and merged `tutti/*` branches (what holds work is kept, named). */
			removeWorktrees: z.boolean().optional(),
			/** Finish although accepted work is not integrated (recorded: the issue then reads "not integrated"). */
			withoutIntegrating: z.boolean().optional(),
		}),
		result: z.object({
			issueId: z.string(), finishedAtUnixMs: z.number().int(), replayed: z.boolean(),
			/** Finish left accepted work not integrated (as recorded). */
			notIntegrated: z.boolean(),
			/** Without removeWorktrees: what removing would do and free (the offer); with it: what was removed and kept. */
			cleanup: cleanupReportDto,
		}),
	},
	/** Developer action: a follow-up after a completed issue; `tutti next-action` offers it once (`next` = the command it hands the agent). */
	'issue/followUp': {
		params: z.strictObject({ issueId: id, text: z.string().min(1).max(10_000) }),
		result: z.object({ followUpId: z.string(), issueId: z.string(), text: z.string(), requestedAtUnixMs: z.number().int(), next: z.string(), replayed: z.boolean() }),
	},
	/** The Stop hook of a launched agent (session token only): block with the owed command, or allow. */
	'hook/stop': {
		params: z.strictObject({}),
		result: z.object({ decision: z.enum(['allow', 'block']), reason: z.string().optional(), systemMessage: z.string().optional() }),
	},
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export type RunAgentMethod = keyof typeof runAgentMethods;
export type RunAgentParams<M extends RunAgentMethod> = z.output<(typeof runAgentMethods)[M]['params']>;
export type RunAgentResult<M extends RunAgentMethod> = z.output<(typeof runAgentMethods)[M]['result']>;

export type Method = keyof typeof methods;
export type Params<M extends Method> = z.input<(typeof methods)[M]['params']>;
export type ParsedParams<M extends Method> = z.output<(typeof methods)[M]['params']>;
export type Result<M extends Method> = z.output<(typeof methods)[M]['result']>;

/** Who is calling, derived by the Host from the bearer token (never from a flag). */
export type Caller =
	| { kind: 'user' }
	| { kind: 'session'; sessionId: string; role: 'source' | 'worker' | 'reviewer' };

export const wireError = z.object({
	reasonCode,
	message: z.string(),
	hint: z.string(),
	retryable: z.boolean().optional(),
	details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof wireError>;
/** Every reply body: `{ok:true,result}` (HTTP 200) or `{ok:false,error}` (HTTP 400 invalid input, 401/403/404/409/500/503 otherwise). */
export const wireReply = z.union([
	z.object({ ok: z.literal(true), result: z.unknown() }),
	z.object({ ok: z.literal(false), error: wireError }),
]);

/**
 * An error reply as a Host of another Tutti version may send it: any reason code, checked apart against this
 * version's list (`isWireReasonCode`, else `fromUnknownReason` in reasonCodes.ts) so a newer code degrades clearly.
 */
export const peerErrorReply = z.object({ ok: z.literal(false), error: wireError.extend({ reasonCode: z.string() }) });

/**
 * Params whose malformed value is answered with their own reason code instead of `invalid_input`, and a message
 * that says how to write them: a bad plan operation, whatever is wrong with it, is told the operation's shape.
 */
export const paramReasons: Partial<Record<Method, { param: string; reasonCode: WireReasonCode; message: string }>> = {
	'plan/mutate': { param: 'operations', reasonCode: 'invalid_mutation_operation', message: `--operations-json is malformed: ${operationsShapeMessage}` },
};

/** Bearer token header. `TUTTI_SESSION_TOKEN` for agents, the user credential for `--as-user`. */
export const authHeader = 'authorization';
/** The request cap: 8 MiB fits a plan of about 5,000 tasks in one `plan issue mutate`. */
export const maxBodyBytes = 8_388_608;
