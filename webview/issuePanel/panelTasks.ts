// The tasks the panel draws, exactly as the Host sent them: readiness and blocker, whether a task is superseded
// history, and what the developer may press on it are the Host's (src/core), never re-derived here. Pure.
import type { PanelSnapshot, PlanTaskDto } from './snapshotTypes.js';

/** A task as the panel draws it. */
export type PanelTask = PlanTaskDto;

/** The plan's tasks (managed, superseded history included) or the issue's, in plan order. */
export function panelTasks(s: PanelSnapshot): PanelTask[] {
	return [...(s.plan ? s.plan.tasks : s.issue.tasks)].sort((a, b) => a.sortIndex - b.sortIndex || a.createdAtUnixMs - b.createdAtUnixMs);
}
