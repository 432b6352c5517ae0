// The panel's selection follows a task's line of work: when the task shown is superseded by a rework while it is
// selected, the next attempt is selected instead (history the developer selected on purpose stays selected). Pure.
import type { PanelSnapshot } from '../../protocol/webview.js';

type Tasks = PanelSnapshot['issue']['tasks'] | NonNullable<PanelSnapshot['plan']>['tasks'];

function tasksOf(s: PanelSnapshot): Tasks {
	return s.plan ? s.plan.tasks : s.issue.tasks;
}

function isSuperseded(t: Tasks[number]): boolean {
	return t.superseded;
}

/** The task to select instead of `next`'s selection, or null to keep it. */
export function followNewAttempt(previous: PanelSnapshot | null, next: PanelSnapshot): string | null {
	const selected = next.view.selectedTaskId;
	if (selected === null || previous === null) { return null; }
	const before = tasksOf(previous).find((t) => t.taskId === selected);
	const byId = new Map(tasksOf(next).map((t) => [t.taskId, t] as const));
	const now = byId.get(selected);
	if (before === undefined || isSuperseded(before) || now === undefined || !isSuperseded(now)) { return null; }
	let last = now;
	const seen = new Set([last.taskId]);
	for (let n = byId.get(last.supersededByTaskId); n !== undefined && !seen.has(n.taskId); n = isSuperseded(n) ? byId.get(n.supersededByTaskId) : undefined) {
		seen.add(n.taskId);
		last = n;
	}
	return last.taskId !== selected ? last.taskId : null;
}
