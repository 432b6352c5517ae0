// A manual issue's status follows its tasks: open until a Run starts, in_progress while work remains,
// completed when every active task is completed. Managed issues complete only through `plan issue complete`.
import type { Issue, IssueStatus } from '../model.js';

/** How many of an issue's tasks are in each status (superseded tasks excluded). */
export interface StatusCounts {
	notStarted: number;
	running: number;
	pendingAcceptance: number;
	completed: number;
	failed: number;
	canceled: number;
}

export function manualIssueStatus(current: IssueStatus, counts: StatusCounts, runStarted: boolean): IssueStatus {
	if (current === 'archived') { return current; }
	const total = counts.notStarted + counts.running + counts.pendingAcceptance + counts.completed + counts.failed + counts.canceled;
	if (total > 0 && counts.completed === total) { return 'completed'; }
	if (current === 'open' && !runStarted && counts.running === 0) { return 'open'; }
	return 'in_progress';
}

/** The issue's status after a change of its tasks (`runStarted`: a Run was just admitted). */
export function nextIssueStatus(issue: Issue, counts: StatusCounts, runStarted: boolean): IssueStatus {
	if (issue.planningSource === 'manual') { return manualIssueStatus(issue.status, counts, runStarted); }
	return runStarted && issue.status === 'open' ? 'in_progress' : issue.status;
}
