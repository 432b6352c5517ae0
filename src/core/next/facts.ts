// The facts "what is owed next" is derived from (src/core/next/owed.ts). The Host reads them from the store in
// one read; the derivation is pure so resume, the Stop hook, every waiting response and the UI cannot disagree.
import type { AcceptanceState, ExecutionStatus, IssueStatus, ReworkKind, TaskStatus } from '../model.js';

export interface TaskFacts {
	taskId: string;
	title: string;
	status: TaskStatus;
	acceptanceState: AcceptanceState;
	/** Logically removed (history); never owed anything. */
	superseded: boolean;
	/** When the task last changed: for `pending_acceptance` that is when it entered review (durable). */
	updatedAtUnixMs: number;
	/** The tasks it depends on (absent = none): tells whether it waits on a task in review. */
	dependencyTaskIds?: readonly string[];
	/** A new attempt the developer asked for that has not started yet (absent or '' = none). */
	pendingRework?: ReworkKind | '';
	/** Its latest Run (absent or '' = none, or not read). */
	latestRunId?: string;
}

/** A developer's request for changes that the source agent has not taken up yet ("unstarted rejection"). */
export interface ChangeRequest {
	/** The task the note is about; '' for a Goal Review request. */
	taskId: string;
	note: string;
	requestedAtUnixMs: number;
	/**
	 * The active task that replaces `taskId` when the source agent already reworked it at the checkpoint (its
	 * `plan issue mutate` kind "rework" superseded the task): the request is taken up, scheduling the replacement is
	 * owed. Absent or '' while the rework has not been made.
	 */
	reworkedInto?: string;
}

export interface ExecutionFacts {
	status: ExecutionStatus;
	createdAtUnixMs: number;
	updatedAtUnixMs: number;
	completedAtUnixMs: number;
}

/** A follow-up the developer picked after completion (issue 4 "Next steps after completion"). */
export interface FollowUpFact {
	followUpId: string;
	text: string;
	requestedAtUnixMs: number;
}

export interface IssueFacts {
	issueId: string;
	issueStatus: IssueStatus;
	/** A `tutti` (managed) issue; null execution for manual issues. */
	execution: ExecutionFacts | null;
	/** The checkpoint the source agent must act on now, if any. */
	activeCheckpoint: {
		checkpointId: string; kind: string; createdAtUnixMs: number; subjectTaskId?: string;
		/** Its sequence and bound graph revision: the fence of the exact command owed at it (absent: unknown). */
		sequence?: number; graphRevision?: number;
	} | null;
	/** A `pending` checkpoint is queued behind the active one (absent = none). */
	hasPendingCheckpoint?: boolean;
	/** When the source agent last resolved a checkpoint (its wait for the next one starts there); 0 = never. */
	lastCheckpointResolvedAtUnixMs: number;
	/** When the execution entered `pending_goal_review`; 0 = unknown (then the execution's updatedAt is used). */
	goalReviewRequestedAtUnixMs: number;
	tasks: TaskFacts[];
	/** Unstarted change requests only (taken-up requests are not facts any more). */
	changeRequests: ChangeRequest[];
	/** When the developer picked Finish; 0 = not finished. */
	finishedAtUnixMs: number;
	/** The oldest follow-up the developer picked that no `next-action` call has taken yet (absent/null = none). */
	pendingFollowUp?: FollowUpFact | null;
	/** The latest change of the issue, its execution or its tasks (the UI's idle rule). */
	lastChangeUnixMs: number;
	/**
	 * Why the issue's budget lets nothing more start (src/core/usage/budget.ts decideBudget: at or over it, or a Turn of
	 * unknown cost under a USD budget); absent or '' = it lets work start. Only the developer changes it.
	 */
	budgetBlocker?: string;
}

export type SessionKind = 'source' | 'worker' | 'reviewer';

export interface SessionFacts {
	sessionId: string;
	role: SessionKind;
	/** The issue the session belongs to ('' = none). */
	issueId: string;
	/** The issue's facts when the session belongs to one that exists. */
	issue: IssueFacts | null;
	/** Tutti delivers this session's wakes itself (a source session bound to an agent target): it need not wait in a call. */
	wakesDelivered?: boolean;
}
