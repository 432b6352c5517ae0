// "What is owed next": the single derivation behind `tutti agent resume`, the Stop hook,
// every bounded wait (`await-review`, `plan issue await`, `next-action`) and the UI. Pure: facts in, answer out.
import {
	awaitReviewCommand, nextActionCommand, planAwaitCommand, planGetCommand, raiseBudgetCommand,
} from './commands.js';
import { reviewOnlyOwedFrom, reviewToAwait } from '../execution/reviewOwed.js';
import { scheduleCommand } from '../execution/planCommands.js';
import { dependencySatisfied } from '../graph/blockers.js';
import type { IssueFacts, SessionFacts, TaskFacts } from './facts.js';
import { followUpCommand } from './followUp.js';
import { taskIndex } from './taskIndex.js';
import type { ReasonCode } from '../errors.js';

/** Every state an owed answer names; `waiting` alone means "run the same call again". */
export const owedStates = [
	'waiting', 'awaiting_review', 'awaiting_goal_review', 'awaiting_checkpoint', 'awaiting_budget', 'checkpoint', 'changes_requested',
	'accepted', 'settled', 'routed', 'completed', 'finished', 'follow_up', 'nothing_owed', 'working', 'taken',
] as const;
export type OwedState = (typeof owedStates)[number];

export type Owed =
	| {
		kind: 'answer';
		state: OwedState;
		/** true = a decision is available; false = still waiting (only with state "waiting"); undefined = omitted. */
		advanceAllowed?: boolean;
		/** The exact command owed now; absent = nothing to run. */
		next?: string;
		message: string;
		taskId?: string;
		/** The developer's note when changes were requested. */
		note?: string;
		/** Durable entry time of the wait (state "waiting" only): waited_seconds counts from here. */
		waitingSinceUnixMs?: number;
	}
	| { kind: 'failure'; reasonCode: ReasonCode; message: string; hint: string; next: string };

export type OwedAnswer = Extract<Owed, { kind: 'answer' }>;

const keepWaiting = 'This is expected: the developer decides in Tutti, and waiting is a normal part of the workflow. '
	+ 'Run the command in "next" again now; each call returns within a minute and the total wait has no limit.';

function inReview(facts: IssueFacts): readonly TaskFacts[] {
	return taskIndex(facts.tasks).withStatus('pending_acceptance');
}

function aborted(facts: IssueFacts): Owed | undefined {
	const status = facts.execution?.status;
	if (facts.issueStatus === 'archived' || status === 'archived' || status === 'archiving' || status === 'orphaned_source') {
		return {
			kind: 'failure', reasonCode: 'issue_aborted',
			message: `Issue ${facts.issueId} was stopped and archived; nothing more can run in it.`,
			hint: 'Read the final state, then tell the developer the issue was stopped; do not retry the wait.',
			next: planGetCommand(facts.issueId),
		};
	}
	return undefined;
}

/** After completion: Finish recorded → nothing more; otherwise the next-action choice is owed. */
function completed(facts: IssueFacts): OwedAnswer | undefined {
	// Manual issues have no next-action step: only a managed execution completes into it.
	if (facts.execution?.status !== 'completed') { return undefined; }
	if (facts.finishedAtUnixMs > 0) {
		return { kind: 'answer', state: 'finished', message: `The developer chose Finish for issue ${facts.issueId}. Nothing more to run: you may end your turn.` };
	}
	return {
		kind: 'answer', state: 'completed', advanceAllowed: true, next: nextActionCommand(facts.issueId),
		message: `Issue ${facts.issueId} is complete. Run the command in "next" to learn the developer's next step (a follow-up or Finish).`,
	};
}

/** A request for changes the source agent has not reworked yet (a reworked one owes the replacement's schedule). */
function changesRequested(facts: IssueFacts, taskId?: string): OwedAnswer | undefined {
	const request = facts.changeRequests.find((r) => (r.reworkedInto ?? '') === '' && (taskId === undefined || r.taskId === taskId || r.taskId === ''));
	if (request === undefined) { return undefined; }
	const subject = request.taskId === '' ? 'the goal review' : `task ${request.taskId}`;
	return {
		kind: 'answer', state: 'changes_requested', advanceAllowed: true, next: planGetCommand(facts.issueId),
		note: request.note, ...(request.taskId !== '' ? { taskId: request.taskId } : {}),
		message: `The developer requested changes on ${subject}: ${request.note} Read the snapshot with the command in "next" and rework at the active checkpoint.`,
	};
}

/**
 * The developer's review is the only step owed (src/core/execution/reviewOwed.ts): the task(s) in review and the one
 * to await. undefined when the source agent (or a Run) can still move.
 */
function reviewOnly(facts: IssueFacts): { inReview: string[]; taskId: string | undefined } | undefined {
	if (facts.execution === null) { return undefined; }
	const active = facts.activeCheckpoint;
	const rule = {
		executionStatus: facts.execution.status,
		activeCheckpoint: active === null ? null : { kind: active.kind, subjectTaskId: active.subjectTaskId ?? '' },
		hasPendingCheckpoint: facts.hasPendingCheckpoint === true,
	};
	const index = taskIndex(facts.tasks);
	const inReview = reviewOnlyOwedFrom(rule, {
		anyRunning: index.withStatus('running').length > 0,
		inReview: index.withStatus('pending_acceptance').map((t) => t.taskId),
		notStartedCanMove: () => index.notStartedCanMove(),
	});
	return inReview.length === 0 ? undefined : { inReview, taskId: reviewToAwait(rule, inReview) };
}

function reviewOnlyMessage(inReview: readonly string[]): string {
	const which = inReview.length === 1 ? `task ${inReview[0]!}` : `tasks ${inReview.join(', ')}`;
	return `Only the developer can move next: ${which} wait(s) for the developer's review (Accept or Request changes in Tutti), `
		+ 'and nothing else can run before that. Scheduling or acknowledging does not accept a result. '
		+ 'Tutti wakes the source session with a checkpoint that says what the developer decided.';
}

/** The bounded wait for the developer's review, when that review is the only step owed. */
function reviewOnlyOwedAnswer(facts: IssueFacts): OwedAnswer | undefined {
	const only = reviewOnly(facts);
	if (only === undefined) { return undefined; }
	return {
		kind: 'answer', state: 'awaiting_review', next: awaitReviewCommand(facts.issueId, only.taskId), ...(only.taskId ? { taskId: only.taskId } : {}),
		message: `${reviewOnlyMessage(only.inReview)} Run the command in "next" and repeat it until it answers.`,
	};
}

/**
 * A managed issue whose budget lets nothing more start: whatever the checkpoint asks, nothing scheduled would start.
 * The developer raises the budget (their command, never the agent's); the agent waits.
 */
function budgetHold(facts: IssueFacts): string | undefined {
	const blocker = facts.budgetBlocker ?? '';
	if (blocker === '' || facts.execution === null) { return undefined; }
	return `The budget of issue ${facts.issueId} stops new work (${blocker}): nothing you schedule would start. `
		+ `Only the developer can raise it, with the developer's own command \`${raiseBudgetCommand(facts.issueId)}\` (never run it yourself); `
		+ 'tell them once if you have not.';
}

function budgetOwed(facts: IssueFacts): OwedAnswer | undefined {
	const hold = budgetHold(facts);
	if (hold === undefined) { return undefined; }
	return { kind: 'answer', state: 'awaiting_budget', next: planAwaitCommand(facts.issueId), message: `${hold} Run the command in "next" to wait until the budget lets work start.` };
}

/**
 * The source agent reworked the task the developer sent back (a replacement supersedes it) at the active
 * changes_requested checkpoint: what it owes now is the replacement's schedule, at that checkpoint and revision — not
 * the old rejection again. undefined when that is not the state, or when the replacement is not ready to schedule.
 */
function reworkScheduleOwed(facts: IssueFacts): OwedAnswer | undefined {
	const cp = facts.activeCheckpoint;
	if (cp === null || cp.kind !== 'changes_requested' || cp.sequence === undefined || cp.graphRevision === undefined) { return undefined; }
	const request = facts.changeRequests.find((r) => (r.reworkedInto ?? '') !== '' && r.taskId === (cp.subjectTaskId ?? ''));
	const byId = taskIndex(facts.tasks).byId;
	const replacement = request ? byId.get(request.reworkedInto!) : undefined;
	if (request === undefined || replacement === undefined || replacement.superseded || replacement.status !== 'not_started') { return undefined; }
	const ready = (replacement.dependencyTaskIds ?? []).every((id) => {
		const dep = byId.get(id);
		return dependencySatisfied(dep && { status: dep.status, acceptanceState: dep.acceptanceState, supersededAtUnixMs: dep.superseded ? 1 : 0 });
	});
	if (!ready) { return undefined; }
	const fence = { issueId: facts.issueId, checkpointId: cp.checkpointId, checkpointSequence: cp.sequence, graphRevision: cp.graphRevision };
	return {
		kind: 'answer', state: 'checkpoint', advanceAllowed: true, next: scheduleCommand(fence, [replacement.taskId]), taskId: replacement.taskId,
		message: `You reworked task ${request.taskId} into ${replacement.taskId} for the developer's requested changes; schedule the replacement now with the command in "next".`,
	};
}

function checkpointOwed(facts: IssueFacts): OwedAnswer | undefined {
	const rework = reworkScheduleOwed(facts);
	if (rework) { return rework; }
	const cp = facts.activeCheckpoint;
	if (cp === null) { return undefined; }
	return {
		kind: 'answer', state: 'checkpoint', advanceAllowed: true, next: planGetCommand(facts.issueId),
		message: `Checkpoint ${cp.checkpointId} (${cp.kind}) is yours to act on. Run the command in "next", then use its allowedActions.`,
	};
}

/**
 * The developer's Goal Review confirmation is awaited: a request is open, or the execution is in
 * `pending_goal_review` with no checkpoint left for the source (with one active, the source still owes `complete`).
 */
function awaitingGoalReview(facts: IssueFacts): boolean {
	return facts.goalReviewRequestedAtUnixMs > 0 || (facts.execution?.status === 'pending_goal_review' && facts.activeCheckpoint === null);
}

function latest(tasks: readonly TaskFacts[]): number {
	return tasks.reduce((max, t) => Math.max(max, t.updatedAtUnixMs), 0);
}

function waiting(next: string, since: number, message: string, taskId?: string): OwedAnswer {
	return { kind: 'answer', state: 'waiting', advanceAllowed: false, next, message: `${message} ${keepWaiting}`, waitingSinceUnixMs: since, ...(taskId ? { taskId } : {}) };
}

/** What a source session (or any session bound to the issue) owes now. Read-only; the lifecycle order matters. */
export function owedOnIssue(facts: IssueFacts): Owed {
	const boundary = aborted(facts) ?? completed(facts);
	if (boundary) { return boundary; }
	const owed = changesRequested(facts) ?? reviewOnlyOwedAnswer(facts) ?? budgetOwed(facts) ?? checkpointOwed(facts);
	if (owed) { return owed; }
	if (awaitingGoalReview(facts)) {
		return { kind: 'answer', state: 'awaiting_goal_review', next: planAwaitCommand(facts.issueId), message: `Issue ${facts.issueId} waits for the developer's Goal Review. Run the command in "next" and repeat it until it answers.` };
	}
	const review = inReview(facts);
	if (review.length > 0) {
		return { kind: 'answer', state: 'awaiting_review', next: awaitReviewCommand(facts.issueId), message: `${review.length} task(s) wait for the developer's review. Run the command in "next" and repeat it until it answers.` };
	}
	if (facts.execution !== null) {
		return { kind: 'answer', state: 'awaiting_checkpoint', next: planAwaitCommand(facts.issueId), message: `Tasks of issue ${facts.issueId} are running. Run the command in "next" to wait for your next checkpoint.` };
	}
	return { kind: 'answer', state: 'nothing_owed', message: `Nothing is owed on issue ${facts.issueId} right now.` };
}

/** `tutti agent resume` for a session: read-only. */
export function owedBySession(session: SessionFacts): Owed {
	if (session.issue === null) {
		return { kind: 'answer', state: 'nothing_owed', message: `Session ${session.sessionId} is not bound to an issue; nothing is owed.` };
	}
	if (session.role === 'worker') {
		return { kind: 'answer', state: 'working', message: 'A worker session owes only the task it was started for; finish it and end your turn.' };
	}
	const owed = owedOnIssue(session.issue);
	if (session.wakesDelivered === true && owed.kind === 'answer' && waitOnlyStates.has(owed.state)) {
		// Tutti starts this session's next Turn itself when the next checkpoint comes: waiting in a call is not owed.
		const wait = owed.next === undefined ? '' : ` (or wait in \`${owed.next}\`)`;
		return { kind: 'answer', state: owed.state, message: `Nothing to decide yet on issue ${session.issueId} (${owed.state}). Tutti wakes this session with the next checkpoint; you may end your turn${wait}.` };
	}
	return owed;
}

/** Answers that only ask the session to wait in a bounded call (nothing to decide yet). */
const waitOnlyStates: ReadonlySet<string> = new Set(['awaiting_checkpoint', 'awaiting_review', 'awaiting_goal_review', 'awaiting_budget']);

/** One `tutti await-review` evaluation: a decision, the next step, or "waiting". */
export function owedForReview(facts: IssueFacts, taskId?: string): Owed {
	const boundary = aborted(facts) ?? completed(facts);
	if (boundary) { return boundary; }
	const self = awaitReviewCommand(facts.issueId, taskId);
	// A rejection recorded between two calls is reported first: never fall through to "moved on".
	const rejected = changesRequested(facts, taskId);
	if (rejected) { return rejected; }
	// So is an acceptance that gave the source agent a step (its task_accepted checkpoint), whichever review is awaited.
	if (facts.activeCheckpoint?.kind === 'task_accepted' && reviewOnly(facts) === undefined) {
		const step = checkpointOwed(facts);
		if (step) { return step; }
	}
	if (taskId !== undefined) {
		const task = taskIndex(facts.tasks).byId.get(taskId);
		if (task === undefined) {
			return { kind: 'failure', reasonCode: 'task_not_found', message: `Issue ${facts.issueId} has no task ${taskId}.`, hint: 'Read the snapshot for the task ids, then await the right task.', next: planGetCommand(facts.issueId) };
		}
		if (task.status === 'pending_acceptance' && !task.superseded) {
			return waiting(self, task.updatedAtUnixMs, `Task ${taskId} waits for the developer's review.`, taskId);
		}
		if (task.status === 'running' || task.status === 'not_started') {
			return waiting(self, task.updatedAtUnixMs, `Task ${taskId} is still being worked on; its review starts when it settles.`, taskId);
		}
		const settled = { ...routeOn(facts), taskId };
		return task.status === 'completed' ? { ...settled, state: 'accepted', message: `Task ${taskId} was accepted. ${settled.message}` } : { ...settled, state: 'settled', message: `Task ${taskId} settled as ${task.status}. ${settled.message}` };
	}
	const review = inReview(facts);
	if (review.length > 0) {
		return waiting(self, latest(review), `${review.length} task(s) wait for the developer's review.`);
	}
	const route = routeOn(facts);
	return { ...route, state: 'accepted', message: `No task waits for review. ${route.message}` };
}

/** After a decision: the step the source owes next, as an advancing answer. */
function routeOn(facts: IssueFacts): OwedAnswer {
	const owed = owedOnIssue(facts);
	if (owed.kind === 'failure') {
		return { kind: 'answer', state: 'routed', advanceAllowed: true, next: owed.next, message: owed.message };
	}
	if (owed.next === undefined) { return owed; }
	return { ...owed, advanceAllowed: true };
}

/** One `tutti plan issue await` evaluation: the source agent waits for its next checkpoint (or the Goal Review). */
export function owedForCheckpoint(facts: IssueFacts): Owed {
	const boundary = aborted(facts) ?? completed(facts);
	if (boundary) { return boundary; }
	const self = planAwaitCommand(facts.issueId);
	const owed = changesRequested(facts);
	if (owed) { return owed; }
	const only = reviewOnly(facts);
	if (only !== undefined && facts.execution !== null) {
		// The next checkpoint is the developer's decision: keep waiting here (never bounce to a snapshot that moves nothing).
		const byId = taskIndex(facts.tasks).byId;
		const since = Math.max(...only.inReview.map((id) => byId.get(id)?.updatedAtUnixMs ?? 0), facts.execution.createdAtUnixMs);
		return waiting(self, since, `${reviewOnlyMessage(only.inReview)} Your next checkpoint is that decision.`, only.taskId);
	}
	const hold = budgetHold(facts);
	if (hold !== undefined && facts.execution !== null) {
		const since = Math.max(facts.activeCheckpoint?.createdAtUnixMs ?? 0, facts.lastCheckpointResolvedAtUnixMs, facts.execution.createdAtUnixMs);
		return waiting(self, since, `${hold} Your next step comes once the developer has raised it.`);
	}
	const active = checkpointOwed(facts);
	if (active) { return active; }
	const execution = facts.execution;
	if (execution === null) {
		return { kind: 'failure', reasonCode: 'not_managed', message: `Issue ${facts.issueId} is a manual issue; it has no checkpoints.`, hint: 'Wait for task reviews instead.', next: awaitReviewCommand(facts.issueId) };
	}
	if (awaitingGoalReview(facts)) {
		const since = facts.goalReviewRequestedAtUnixMs > 0 ? facts.goalReviewRequestedAtUnixMs : execution.updatedAtUnixMs;
		return waiting(self, since, `Issue ${facts.issueId} waits for the developer to confirm the Goal Review.`);
	}
	const since = Math.max(facts.lastCheckpointResolvedAtUnixMs, execution.createdAtUnixMs);
	return waiting(self, since, `Your next checkpoint arrives when a task settles.`);
}

/**
 * The developer's follow-up, when one is pending and was picked before any Finish (Finish wins if recorded
 * first). The Host records that the call took it, so it is offered once.
 */
function followUpOwed(facts: IssueFacts): OwedAnswer | undefined {
	const followUp = facts.pendingFollowUp;
	if (followUp === undefined || followUp === null) { return undefined; }
	if (facts.finishedAtUnixMs > 0 && facts.finishedAtUnixMs < followUp.requestedAtUnixMs) { return undefined; }
	return {
		kind: 'answer', state: 'follow_up', advanceAllowed: true, next: followUpCommand(followUp), note: followUp.text,
		message: `The developer picked a follow-up for issue ${facts.issueId}: ${followUp.text} Start it now with the command in "next": it creates a new managed issue for it.`,
	};
}

/** One `tutti next-action` evaluation: after completion, wait for the developer's follow-up or Finish. */
export function owedForNextAction(facts: IssueFacts): Owed {
	const boundary = aborted(facts);
	if (boundary) { return boundary; }
	const done = completed(facts);
	if (done === undefined) {
		// Not complete yet: route to what is owed instead of failing.
		return routeOn(facts);
	}
	const followUp = followUpOwed(facts);
	if (followUp) { return followUp; }
	if (done.state === 'finished') { return done; }
	const since = facts.execution?.completedAtUnixMs ?? 0;
	return waiting(nextActionCommand(facts.issueId), since, `Issue ${facts.issueId} is complete and the developer has not picked the next step yet.`);
}
