// What the developer may do to one task right now (the panel's Accept, Request changes, Open changes, Retry, Update
// from base, Edit and Delete). The Host derives it once per task and sends it with the task; the panel and the pickers
// draw it and derive nothing (a rule written twice drifts).
import type { PlanningSource, TaskStatus } from '../model.js';

export interface TaskControlFacts {
	readonly status: TaskStatus;
	/** The task was superseded: history, decided on no more. */
	readonly superseded: boolean;
	/** The issue is closed (isIssueClosed): nothing on it awaits the developer. */
	readonly issueClosed: boolean;
	/** Some Run of the task recorded the commit it started from, so its changes can be shown. */
	readonly hasRecordedBase: boolean;
	/** manual or managed (`tutti`); absent reads as manual. */
	readonly planningSource?: PlanningSource;
	/** The issue was stopped and archived: nothing runs in it any more. */
	readonly issueArchived?: boolean;
	/** The managed execution is over (completed after Goal Review): its tasks are the developer's to deliver. */
	readonly executionCompleted?: boolean;
	/** The task's acceptance is bound to a commit of its own worktree (its work can be merged, and updated). */
	readonly hasAcceptedCommit?: boolean;
	/**
	 * The developer edits the issue's tasks (a manual issue that is not over); false for a managed issue, whose plan is
	 * its source agent's. Absent: false.
	 */
	readonly tasksEditable?: boolean;
	/** Some active task depends on this one (it cannot be deleted before that dependency is removed). Absent: false. */
	readonly hasActiveDependents?: boolean;
	/** A Run of the task was recorded (a task waiting for its next attempt): its Runs are history. Absent: false. */
	readonly hasRun?: boolean;
}

export interface TaskControls {
	readonly accept: boolean;
	readonly requestChanges: boolean;
	/** Open the task's latest Run's own diff (`tutti.openTaskChanges`). */
	readonly openChanges: boolean;
	/** Run a failed or canceled task of a manual issue again, as a new attempt in its tree (`tutti task retry`). */
	readonly retry: boolean;
	/** Merge its base branch into an accepted task's tree in a new Run (`tutti task update-from-base`). */
	readonly updateFromBase: boolean;
	/** Change its title, content, dependencies and agent (`task/update`). */
	readonly edit: boolean;
	/** Delete it (`task/delete`). */
	readonly delete: boolean;
}

/**
 * Accept and Request changes while an active task awaits the developer's decision and its issue is not closed (the
 * attention state calls such a task "awaiting your acceptance"). Open changes for an active task with a recorded base
 * commit: the command finds only active tasks, and without a base there is no diff to show. Retry for a failed or
 * canceled task of a manual issue that is not archived (on a managed issue the failure is the source agent's to
 * rework). Update from base for an accepted task with a commit of its own tree, on a manual issue or a managed one
 * whose execution completed (before that, its tasks are the source agent's). Edit while an active task of an
 * editable issue has not started (the Host changes launch settings and dependencies of such a task only, also one waiting
 * for its next attempt), and Delete when, besides, it never ran (its Runs are history) and no active task depends on it
 * (the Host refuses to leave a dependency dangling).
 */
export function taskControls(facts: TaskControlFacts): TaskControls {
	const review = !facts.issueClosed && !facts.superseded && facts.status === 'pending_acceptance';
	const manual = (facts.planningSource ?? 'manual') === 'manual';
	const edit = facts.tasksEditable === true && !facts.issueClosed && !facts.superseded && facts.status === 'not_started';
	const live = !facts.superseded && facts.issueArchived !== true;
	return {
		accept: review,
		requestChanges: review,
		openChanges: !facts.superseded && facts.hasRecordedBase,
		edit,
		delete: edit && facts.hasRun !== true && facts.hasActiveDependents !== true,
		retry: live && manual && (facts.status === 'failed' || facts.status === 'canceled'),
		updateFromBase: live && (manual || facts.executionCompleted === true) && facts.status === 'completed' && facts.hasAcceptedCommit === true,
	};
}
