// The Runs view as plain data: each open issue's Runs that failed, were stopped, wait for review or are stalled, as
// the Host listed them in the issue's attention state. Those the developer must
// act on first. vscode-free (unit-tested in test/unit/extension/runsModel.test.ts).
import type { IssueDto } from '../../protocol/dto.js';

export type RunAttentionKind = IssueDto['attention']['runs'][number]['kind'];

export interface RunItem {
	readonly runId: string;
	readonly issueId: string;
	readonly issueTitle: string;
	readonly taskId: string;
	readonly taskTitle: string;
	readonly kind: RunAttentionKind;
	/** The Host's words: "Failed: nobody is acting on it", "Stopped", "Waiting for your review", "Stalled: no activity for 12 min". */
	readonly label: string;
	readonly needsYou: boolean;
	/** `run:<kind>` plus `:needsYou`. */
	readonly contextValue: string;
}

const kindOrder: Readonly<Record<RunAttentionKind, number>> = { failed: 0, stalled: 1, waiting: 2, stopped: 3 };

export function runsNeedingAttention(issues: readonly IssueDto[]): RunItem[] {
	const items = issues
		.filter((issue) => issue.attention.state !== 'done')
		.flatMap((issue) => issue.attention.runs.map((run): RunItem => ({
			runId: run.runId, issueId: issue.issueId, issueTitle: issue.title, taskId: run.taskId, taskTitle: run.taskTitle,
			kind: run.kind, label: run.label, needsYou: run.needsYou,
			contextValue: `run:${run.kind}${run.needsYou ? ':needsYou' : ''}`,
		})));
	return items.sort((a, b) => Number(b.needsYou) - Number(a.needsYou) || kindOrder[a.kind] - kindOrder[b.kind]
		|| a.issueTitle.localeCompare(b.issueTitle) || a.taskTitle.localeCompare(b.taskTitle));
}
