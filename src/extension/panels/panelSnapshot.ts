// Builds the one message the panel draws from: a complete snapshot of the issue, its plan and its Runs.
// Validated against the protocol before it is posted, so a Host bug shows as an error instead of a broken page.
import { type PanelSnapshot, type PanelViewState, toWebview } from '../../protocol/webview.js';
import type { PanelHostApi } from './panelHostApi.js';

export async function buildPanelSnapshot(api: PanelHostApi, issueId: string, view: PanelViewState, seq: number, handBack: { command: string; decision: string } | null = null): Promise<PanelSnapshot> {
	const issue = await api.issue(issueId);
	// The task form's agent choices, only where tasks can be added or edited.
	const formOpen = issue.controls.addTask || issue.tasks.some((t) => t.controls.edit);
	const [plan, runs, agentTargets] = await Promise.all([
		issue.planningSource === 'tutti' ? api.planSnapshot(issueId) : Promise.resolve(null),
		api.runs(issueId),
		formOpen && api.agentTargets ? api.agentTargets() : Promise.resolve(undefined),
	]);
	const snapshot = {
		type: 'snapshot' as const,
		seq,
		issue,
		plan,
		runs: [...runs.runs],
		...(agentTargets !== undefined ? { agentTargets } : {}),
		view: {
			selectedTaskId: view.selectedTaskId,
			showHistory: view.showHistory,
			taskForm: view.taskForm ?? null,
			nowUnixMs: Math.max(0, Math.floor(api.now?.() ?? Date.now())),
			agentWaiting: api.agentWaiting?.(issueId) ?? null,
			handBack,
		},
	};
	const checked = toWebview.safeParse(snapshot);
	if (!checked.success) {
		throw new Error(`The Host produced a snapshot the panel cannot read: ${checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
	}
	return checked.data as PanelSnapshot;
}
