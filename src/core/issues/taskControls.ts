// What the developer may do to one task right now (the panel's Accept, Request changes, Open changes, Edit and
// Delete). The Host
// derives it once per task and sends it with the task; the panel and the pickers draw it and derive nothing (a rule
// written twice drifts).
import type { TaskStatus } from '../model.js';

export interface TaskControlFacts {
	readonly status: TaskStatus;
	/** The task was superseded: history, decided on no more. */
	readonly superseded: boolean;
	/** The issue is closed (isIssueClosed): nothing on it awaits the developer. */
	readonly issueClosed: boolean;
	/** Some Run of the task recorded the commit it started from, so its changes can be shown. */
	readonly hasRecordedBase: boolean;
	/**
	 * The developer edits the issue's tasks (a manual issue that is not over); false for a managed issue, whose plan is
	 * its source agent's. Absent: false.
	 */
	readonly tasksEditable?: boolean;
	/** Some active task depends on this one (it cannot be deleted before that dependency is removed). Absent: false. */
	readonly hasActiveDependents?: boolean;
}

export interface TaskControls {
	readonly accept: boolean;
	readonly requestChanges: boolean;
	/** Open the task's latest Run's own diff (`tutti.openTaskChanges`). */
	readonly openChanges: boolean;
	/** Change its title, content, dependencies and agent (`task/update`). */
	readonly edit: boolean;
	/** Delete it (`task/delete`). */
	readonly delete: boolean;
}

/**
 * Accept and Request changes while an active task awaits the developer's decision and its issue is not closed (the
 * attention state calls such a task "awaiting your acceptance"). Open changes for an active task with a recorded base
 * commit: the command finds only active tasks, and without a base there is no diff to show. Edit while an active task
 * of an editable issue has not started (the Host changes launch settings and dependencies of such a task only), and
 * Delete when, besides, no active task depends on it (the Host refuses to leave a dependency dangling).
 */
export function taskControls(facts: TaskControlFacts): TaskControls {
	const review = !facts.issueClosed && !facts.superseded && facts.status === 'pending_acceptance';
	const edit = facts.tasksEditable === true && !facts.issueClosed && !facts.superseded && facts.status === 'not_started';
	return {
		accept: review, requestChanges: review, openChanges: !facts.superseded && facts.hasRecordedBase,
		edit, delete: edit && facts.hasActiveDependents !== true,
	};
}
