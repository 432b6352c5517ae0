// What the developer may do to an issue as a whole right now (the board's and the panel's Pause, Resume and Stop,
// Confirm goal / Request changes at Goal Review, and Integrate), and whether the issue is over. The Host derives both once per
// issue and sends them in every IssueDto; the UIs draw them and derive nothing (a rule written twice drifts).
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
	/** Some active task was accepted (bound to a commit) after the issue's last integration, or never integrated. */
	readonly hasUnintegratedAcceptance: boolean;
}

export interface IssueControls {
	readonly pause: boolean;
	readonly resume: boolean;
	readonly stop: boolean;
	readonly confirmGoal: boolean;
	readonly requestGoalChanges: boolean;
	/** `tutti issue integrate` has accepted work to bring back (also once the issue is completed; never once archived). */
	readonly integrate: boolean;
}

/**
 * The issue is over: it is completed or archived, or its execution is terminal (orphaned_source, completed,
 * archiving, archived). Nothing can be paused, resumed, stopped or reviewed any more.
 */
export function isIssueTerminal(issueStatus: IssueStatus, executionStatus: ExecutionStatus | null): boolean {
	return issueStatus === 'completed' || issueStatus === 'archived' || (executionStatus !== null && isTerminalExecution(executionStatus));
}

/**
 * Pause xor Resume, by the durable dispatchPaused flag. Stop while the issue has work that is not paused, or a Run
 * still running (read from the store, never from one Turn's end): for a managed issue an execution at work (its
 * source agent owes the next step; at Goal Review only the developer does, so there is nothing to stop), for a
 * manual one a task not started or running. Confirm goal and Request changes at Goal Review only. A terminal issue
 * offers none of these. Integrate while accepted work is not integrated yet, completed issues included, archived ones not.
 */
export function issueControls(facts: IssueControlFacts): IssueControls {
	const archived = facts.issueStatus === 'archived' || facts.executionStatus === 'archiving' || facts.executionStatus === 'archived';
	const integrate = !archived && facts.hasUnintegratedAcceptance;
	if (isIssueTerminal(facts.issueStatus, facts.executionStatus)) {
		return { pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, integrate };
	}
	const paused = facts.dispatchPaused;
	const goalReview = facts.executionStatus === 'pending_goal_review';
	const openWork = facts.executionStatus !== null ? !goalReview : facts.hasOpenTask;
	return {
		pause: !paused,
		resume: paused,
		stop: facts.hasRunningRun || (!paused && openWork),
		confirmGoal: goalReview,
		requestGoalChanges: goalReview,
		integrate,
	};
}
