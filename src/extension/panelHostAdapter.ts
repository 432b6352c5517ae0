// The issue panel's view of the Host (src/extension/panels/panelHostApi.ts), over this window's client: the
// owner's in-process Host or, in a viewer window, the owner's socket. Change events come from the store's
// change source, so the panel updates from any source (CLI, agents, UI) like the board does.
import type { PanelHostApi } from './panels/panelHostApi.js';
import type { ExtensionServices } from './services.js';

export function panelHostApi(services: ExtensionServices): PanelHostApi {
	return {
		issue: (issueId) => services.client().call('issue/get', { issueId }),
		planSnapshot: (issueId) => services.client().call('plan/get', { issueId }),
		runs: (issueId) => services.client().call('run/list', { issueId }),
		transcript: (runId, offset, stderrOffset) => services.client().call('run/transcript', { runId, offset, stderrOffset }),
		agentTargets: async () => (await services.client().call('agent/list', {})).agentTargets
			.map((t) => ({ id: t.id, adapter: t.adapter, found: t.found, detail: t.detail || t.path })),
		reviewComments: (taskId) => services.reviewComments.of(taskId),
		onDidChange: (listener) => {
			const store = services.changes.onDidChange(() => listener());
			const comments = services.reviewComments.onDidChange(() => listener());
			return { dispose: () => { store.dispose(); comments.dispose(); } };
		},
		now: () => Date.now(),
	};
}
