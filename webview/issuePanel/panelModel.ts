// What the panel shows, drawn purely from one snapshot and the UI state: the header, the issue's controls, the graph
// and the selected task's detail. The rules — readiness and blockers, superseded history, whether the issue is
// terminal, which issue, task and Run controls apply, a wake prompt's marker — are the Host's, sent in the snapshot;
// nothing here re-derives them. No DOM; tested in plain mocha.
import type { TaskFormState } from '../../src/protocol/webview.js';
import { type DetailModel, detailModel } from './detailModel.js';
import { activityByTask, type GraphModel, graphModel, type GraphUi, type ListUi } from './graphModel.js';
import { type HeaderModel, headerModel } from './headerModel.js';
import { panelTasks } from './panelTasks.js';
import { taskRunFacts } from './runModel.js';
import type { IssueControlsDto, PanelSnapshot } from './snapshotTypes.js';
import { type TaskFormModel, taskFormModel, type TaskFormValues } from './taskFormModel.js';

/**
 * The UI state: the selection, the history toggle and the webview's own graph options (default: none), the list's
 * checked rows, the open task form with what was picked in it, a Delete being confirmed, and a hidden detail pane.
 */
export interface PanelUi extends GraphUi, ListUi {
	readonly taskForm?: TaskFormState;
	readonly taskFormValues?: TaskFormValues;
	readonly confirmDeleteTaskId?: string | null;
	readonly detailCollapsed?: boolean;
}

export interface PanelModel {
	readonly header: HeaderModel;
	readonly controls: IssueControlsDto;
	readonly graph: GraphModel;
	readonly detail: DetailModel | null;
	/** The task form, when one is open (it takes the detail pane's place). */
	readonly form: TaskFormModel | null;
}

export function derivePanelModel(s: PanelSnapshot, ui: PanelUi): PanelModel {
	const tasks = panelTasks(s);
	const header = headerModel(s, tasks, ui.selectedTaskId);
	const detail = detailModel(s, tasks, ui.selectedTaskId);
	// The conflict block offers Update from base for its task: the task's detail does not offer it a second time.
	const offeredAbove = detail !== null && header.conflict?.updateFromBase === true && header.conflict.taskId === detail.taskId;
	return {
		header,
		controls: s.issue.controls,
		graph: graphModel(tasks, ui, activityByTask(s.runs), ui.graphView?.mode === 'list' ? taskRunFacts(s.runs) : undefined),
		detail: offeredAbove ? { ...detail, controls: { ...detail.controls, updateFromBase: false } } : detail,
		form: taskFormModel(s, tasks, ui.taskForm, ui.taskFormValues),
	};
}
