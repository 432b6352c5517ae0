// "Next task needing you": every task (or issue, for a reason about the issue itself, like Goal Review) the Host says
// needs the developer, in the board's order, and the one after what the developer looks at now. The Host's attention
// reasons decide what needs them; nothing is re-derived here. vscode-free (unit-tested).
import type { IssueDto } from '../../protocol/dto.js';

export interface NeedingYou {
	readonly issueId: string;
	/** null: the issue itself (Goal Review, an idle source agent, a budget…). */
	readonly taskId: string | null;
	/** The Host's words for why ("1 task to accept", "goal review"). */
	readonly why: string;
}

/** In issue order, each issue's tasks in the order of its reasons (most urgent first), then the issue itself if a reason names no task. */
export function needingYou(issues: readonly IssueDto[]): NeedingYou[] {
	const out: NeedingYou[] = [];
	for (const issue of issues) {
		if (issue.attention.state !== 'needs_you') { continue; }
		const seen = new Set<string>();
		for (const reason of issue.attention.reasons) {
			for (const taskId of reason.taskIds) {
				if (!seen.has(taskId)) { seen.add(taskId); out.push({ issueId: issue.issueId, taskId, why: reason.label }); }
			}
		}
		const aboutIssue = issue.attention.reasons.find((r) => r.taskIds.length === 0);
		if (aboutIssue !== undefined || seen.size === 0) {
			out.push({ issueId: issue.issueId, taskId: null, why: aboutIssue?.label ?? issue.attention.label });
		}
	}
	return out;
}

/** The entry after `current` (wrapping), or the first when `current` is none of them; undefined when nothing needs the developer. */
export function nextNeedingYou(issues: readonly IssueDto[], current: { readonly issueId: string; readonly selectedTaskId: string | null } | undefined): NeedingYou | undefined {
	const all = needingYou(issues);
	if (all.length === 0) { return undefined; }
	const at = current === undefined ? -1 : all.findIndex((n) => n.issueId === current.issueId && n.taskId === current.selectedTaskId);
	if (at >= 0) { return all[(at + 1) % all.length]; }
	// Looking at an issue (no task of it in the list selected): its first entry after nothing, else the next issue's.
	const sameIssue = current === undefined ? -1 : all.findIndex((n) => n.issueId === current.issueId);
	return sameIssue >= 0 && current?.selectedTaskId === null ? all[sameIssue] : all[0];
}
