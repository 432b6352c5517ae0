// The managed guard: every generic writer on a `tutti` issue is rejected with
// `tutti_issue_managed`; there is no bypass. The one exception is the compat resume
// `issue update --issue-id X --dispatch-paused=false`, routed to the source-scoped resume.
import { rejection } from '../../core/hints.js';
import type { Issue } from '../../core/model.js';
import type { ParsedParams } from '../../protocol/controlPlane.js';

/** Throws `tutti_issue_managed` when `issue` is owned by a source session. */
export function guardGenericWriter(issue: Issue, command: string): void {
	if (issue.planningSource !== 'tutti') { return; }
	throw rejection(
		'tutti_issue_managed',
		`Issue ${issue.issueId} is managed by source session ${issue.sourceSessionId}; \`${command}\` cannot change it.`,
		{ issueId: issue.issueId },
		{ issueId: issue.issueId, sourceSessionId: issue.sourceSessionId, recommendedAction: 'open_source_session' },
	);
}

/** Exactly `{issueId, dispatchPaused:false}`: the compat form of `plan issue resume`. */
export function isCompatResume(params: ParsedParams<'issue/update'>): boolean {
	return params.dispatchPaused === false && params.title === undefined && params.content === undefined;
}
