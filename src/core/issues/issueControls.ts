// What the developer may do to an issue as a whole right now (the board's and the panel's Pause, Resume, Stop and
// Start, Add Task on a manual issue, Accept / Request changes on one of its tasks, Confirm goal / Request changes /
// Switch to self review at Goal Review, Stop the source session, Integrate, Finish and Follow Up once a managed issue
// completed), and whether the issue is over.
// The Host derives both once per issue and sends them in every IssueDto; the UIs draw them and derive nothing (a
// rule written twice drifts).
import { isTerminalExecution } from '../execution/allowedActions.js';
import type { ExecutionStatus, IssueStatus } from '../model.js';

export interface IssueControlFacts {
	readonly issueStatus: IssueStatus;
	/** A managed issue's execution status; null for a manual issue. */
	readonly executionStatus: ExecutionStatus | null;
	readonly dispatchPaused: boolean;
	/** Some Run of the issue is running (Pause does not stop Runs, so Stop stays while one runs). */
	readonly hasRunningRun: boolean;
	/** Some active (not superseded) task is not started or running: a manual issue's open work. */
	readonly hasOpenTask: boolean;
	/** Some active (not superseded) task is pending acceptance: its result awaits the developer's decision. */
	readonly hasTaskAwaitingReview: boolean;
	/** Some active task was accepted (bound to a commit) after the issue's last integration, or never integrated. */
	readonly hasUnintegratedAcceptance: boolean;
	/** The developer recorded Finish on the completed issue (absent: not finished). */
	readonly finished?: boolean;
	/** A manual issue whose tasks are each completed or canceled (delivery.ts manualWorkOver; absent: not over). */
	readonly manualWorkOver?: boolean;
	/** A managed execution's Goal Review mode (absent or null: self, or a manual issue). */
	readonly reviewMode?: 'self' | 'independent' | null;
	/**
	 * The developer's Goal Review confirmation is awaited: pending_goal_review with no checkpoint left for the source
	 * agent (with its all_tasks_terminal checkpoint active it still owes `complete`). Absent: the status alone says so.
	 */
	readonly goalReviewAwaited?: boolean;
	/** Some Run of the issue exists, settled or not (absent: none). */
	readonly hasRun?: boolean;
	/** Some active task's acceptance is bound to a commit: there is work to show as one combined diff (absent: none). */
	readonly hasAcceptedCommit?: boolean;
}

export interface IssueControls {
	readonly pause: boolean;
	readonly resume: boolean;
	readonly stop: boolean;
	readonly confirmGoal: boolean;
	readonly requestGoalChanges: boolean;
	/** Some task awaits the developer's Accept or Request changes (each such task's own controls say which). */
	readonly reviewTask: boolean;
	/** `tutti issue integrate` has accepted work to bring back (also once the issue is completed; never once archived). */
	readonly integrate: boolean;
	/** A manual issue still open to new tasks. */
	readonly addTask: boolean;
	/** A manual issue held back before its first Run (created paused so its tasks can be added first): start dispatch. */
	readonly start: boolean;
	/**
	 * The issue's work is over and the developer has not finished it yet: a completed managed issue, or a manual one
	 * whose tasks are each completed or canceled. With accepted work not integrated it is "Finish without integrating".
	 */
	readonly finish: boolean;
	readonly followUp: boolean;
	/** A managed issue whose execution is not over: stop its source session (archives the execution). */
	readonly stopSource: boolean;
	/** A managed issue under independent Goal Review: turn it back to self review. */
	readonly switchReviewToSelf: boolean;
	/** Some Run of the issue exists: its output can be opened. */
	readonly runOutput: boolean;
	/** Accepted commits to show as one multi-file diff of the whole issue, at Goal Review or before Integrate. */
	readonly combinedChanges: boolean;
}

/**
 * The issue is over: it is completed or archived, or its execution is terminal (orphaned_source, completed,
 * archiving, archived). Nothing can be paused, resumed or stopped any more, and its goal is not reviewed.
 */
export function isIssueTerminal(issueStatus: IssueStatus, executionStatus: ExecutionStatus | null): boolean {
	return issueStatus === 'completed' || issueStatus === 'archived' || (executionStatus !== null && isTerminalExecution(executionStatus));
}

/**
 * The issue is closed: completed or archived (or being archived). Unlike a gone source session (orphaned_source, also
 * terminal), nothing on it awaits the developer: its tasks' results are decided on no more.
 */
export function isIssueClosed(issueStatus: IssueStatus, executionStatus: ExecutionStatus | null): boolean {
	return issueStatus === 'completed' || issueStatus === 'archived'
		|| executionStatus === 'completed' || executionStatus === 'archiving' || executionStatus === 'archived';
}

/**
 * A manual issue held back before its first Run: created paused so its tasks can be added first, never started (its
 * status is still open). The developer's Start begins it; the attention state calls it "Not started", not "Paused".
 */
export function isUnstartedManualIssue(facts: { readonly issueStatus: IssueStatus; readonly managed: boolean; readonly dispatchPaused: boolean }): boolean {
	return !facts.managed && facts.dispatchPaused && facts.issueStatus === 'open';
}

/**
 * Pause xor Resume (xor Start), by the durable dispatchPaused flag. Start instead of Resume for a paused manual issue
 * that has never run a task (status open): it was created paused so its graph can be built first. Stop while the
 * issue has work that is not paused, or a Run still running (read from the store, never from one Turn's end): for a
 * managed issue an execution at work (its source agent owes the next step; at Goal Review only the developer does,
 * so there is nothing to stop), for a manual one a task not started or running. Confirm goal and Request changes at
 * Goal Review only. Accept / Request changes on a task while one awaits the developer and the issue is not closed
 * (a gone source session leaves its tasks' results to the developer). Open Run output once any Run exists; Open
 * combined diff where accepted commits exist, at Goal Review or while Integrate is offered. A terminal issue offers
 * none of the others; Finish comes once the work is over (a managed execution completed; a manual issue's tasks each
 * completed or canceled) until Finish is recorded, Follow Up after a managed execution completed. Integrate while
 * accepted work is not integrated yet, completed issues included, archived ones not.
 */
export function issueControls(facts: IssueControlFacts): IssueControls {
	const archived = facts.issueStatus === 'archived' || facts.executionStatus === 'archiving' || facts.executionStatus === 'archived';
	const integrate = !archived && facts.hasUnintegratedAcceptance;
	const managed = facts.executionStatus !== null;
	const runOutput = facts.hasRun === true;
	const manualFinish = !managed && !archived && facts.manualWorkOver === true && facts.finished !== true;
	if (isIssueTerminal(facts.issueStatus, facts.executionStatus)) {
		const afterCompletion = facts.executionStatus === 'completed' && facts.finished !== true;
		return {
			pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false,
			reviewTask: facts.hasTaskAwaitingReview && !isIssueClosed(facts.issueStatus, facts.executionStatus), integrate,
			addTask: false, start: false, finish: afterCompletion || manualFinish, followUp: afterCompletion, stopSource: false, switchReviewToSelf: false,
			runOutput, combinedChanges: integrate && facts.hasAcceptedCommit === true,
		};
	}
	const paused = facts.dispatchPaused;
	const goalReview = facts.executionStatus === 'pending_goal_review' && (facts.goalReviewAwaited ?? true);
	const combinedChanges = (integrate || goalReview) && facts.hasAcceptedCommit === true;
	const openWork = managed ? !goalReview : facts.hasOpenTask;
	const start = isUnstartedManualIssue({ issueStatus: facts.issueStatus, managed, dispatchPaused: paused });
	return {
		pause: !paused,
		resume: paused && !start,
		stop: facts.hasRunningRun || (!paused && openWork),
		confirmGoal: goalReview,
		requestGoalChanges: goalReview,
		reviewTask: facts.hasTaskAwaitingReview,
		integrate,
		addTask: !managed,
		start,
		finish: manualFinish,
		followUp: false,
		stopSource: managed,
		switchReviewToSelf: managed && facts.reviewMode === 'independent',
		runOutput,
		combinedChanges,
	};
}
