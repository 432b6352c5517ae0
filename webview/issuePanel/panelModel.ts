// What the panel shows, drawn purely from one snapshot and the UI state: the header, the issue's controls, the graph
// and the selected task's detail. The rules — readiness and blockers, superseded history, whether the issue is
// terminal, which issue, task and Run controls apply, a wake prompt's marker — are the Host's, sent in the snapshot;
// nothing here re-derives them. No DOM; tested in plain mocha.
import { type DetailModel, detailModel } from './detailModel.js';
import { activityByTask, type GraphModel, graphModel, type GraphUi } from './graphModel.js';
import { type HeaderModel, headerModel } from './headerModel.js';
import { panelTasks } from './panelTasks.js';
import type { IssueControlsDto, PanelSnapshot } from './snapshotTypes.js';

/** The UI state: the selection, the history toggle and the webview's own graph options (default: none). */
export type PanelUi = GraphUi;

export interface PanelModel {
	readonly header: HeaderModel;
	readonly controls: IssueControlsDto;
	readonly graph: GraphModel;
	readonly detail: DetailModel | null;
}

export function derivePanelModel(s: PanelSnapshot, ui: PanelUi): PanelModel {
	const tasks = panelTasks(s);
	return {
		header: headerModel(s, tasks),
		controls: s.issue.controls,
		graph: graphModel(tasks, ui, activityByTask(s.runs)),
		detail: detailModel(s, tasks, ui.selectedTaskId),
	};
}
