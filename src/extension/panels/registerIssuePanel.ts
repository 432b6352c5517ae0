// Registers the Issue panel: one panel per issue, held while it is open (panelRegistry.ts), and the serializer that
// restores open panels after a reload (VS Code hands back the state the webview saved with setState).
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/lifecycle.js';
import { type PanelViewState, parsePersistedState, type TaskFormState } from '../../protocol/webview.js';
import { IssuePanel, issuePanelOptions, issuePanelViewType } from './issuePanel.js';
import type { PanelHostApi } from './panelHostApi.js';
import { PanelRegistry } from './panelRegistry.js';
import { SelectionContext } from './selectionContext.js';

export interface ShowIssuePanelOptions {
	readonly column?: vscode.ViewColumn;
	readonly preserveFocus?: boolean;
	/** Open with this task selected (its detail shown). */
	readonly selectTaskId?: string;
	/** Open with the task form open (adding a task, or editing one). */
	readonly taskForm?: TaskFormState;
}

export interface IssuePanelRegistration extends vscode.Disposable {
	/** Opens (or reveals) the panel of an issue. */
	showIssuePanel(issueId: string, options?: ShowIssuePanelOptions): IssuePanel;
	/** The open panel of an issue, if any. */
	panelFor(issueId: string): IssuePanel | undefined;
	/** The issue panel that is the active editor, if any. */
	activePanel(): IssuePanel | undefined;
	/** The open panels, and what the registration holds for them (a closed panel leaves both at once). */
	readonly held: { readonly panels: number; readonly disposables: number };
}

export function registerIssuePanel(ctx: { extensionUri: vscode.Uri; api: PanelHostApi }): IssuePanelRegistration {
	const store = new DisposableStore();
	const panels = store.add(new PanelRegistry<IssuePanel>());
	const track = (panel: IssuePanel): IssuePanel => panels.track(panel);
	// What the active panel's selection offers, for the keybindings' `when` clauses (one set of keys for all panels).
	const selectionKeys = store.add(new SelectionContext());

	store.add(vscode.window.registerWebviewPanelSerializer(issuePanelViewType, {
		deserializeWebviewPanel: async (webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> => {
			const restored = parsePersistedState(state);
			if (!restored.ok) {
				// Nothing says which issue this was (a state from another version, or none saved yet): close it.
				webviewPanel.dispose();
				return;
			}
			const { issueId, selectedTaskId, showHistory } = restored.value;
			const existing = panels.get(issueId);
			if (existing) {
				webviewPanel.dispose();
				existing.reveal(undefined, true);
				return;
			}
			track(new IssuePanel(webviewPanel, ctx.extensionUri, ctx.api, issueId, { selectedTaskId, showHistory }, selectionKeys));
		},
	}));

	return {
		showIssuePanel(issueId: string, options: ShowIssuePanelOptions = {}): IssuePanel {
			const existing = panels.get(issueId);
			if (existing) {
				existing.reveal(options.column, options.preserveFocus ?? false);
				if (options.selectTaskId !== undefined) { existing.selectTask(options.selectTaskId); }
				if (options.taskForm !== undefined) { existing.openTaskForm(options.taskForm); }
				return existing;
			}
			const view: PanelViewState = { selectedTaskId: options.selectTaskId ?? null, showHistory: false, ...(options.taskForm !== undefined ? { taskForm: options.taskForm } : {}) };
			const webviewPanel = vscode.window.createWebviewPanel(
				issuePanelViewType,
				'Tutti issue',
				{ viewColumn: options.column ?? vscode.ViewColumn.Active, preserveFocus: options.preserveFocus ?? false },
				issuePanelOptions(ctx.extensionUri),
			);
			return track(new IssuePanel(webviewPanel, ctx.extensionUri, ctx.api, issueId, view, selectionKeys));
		},
		panelFor(issueId: string): IssuePanel | undefined {
			return panels.get(issueId);
		},
		activePanel(): IssuePanel | undefined {
			return panels.find((p) => p.panel.active);
		},
		get held(): { panels: number; disposables: number } {
			return { panels: panels.size, disposables: panels.heldDisposables };
		},
		dispose(): void {
			store.dispose();
		},
	};
}
