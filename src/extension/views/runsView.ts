// The sidebar "Runs" view: the Runs that need attention (failed, stopped, waiting for review, stalled), as the Host listed
// them per issue (runsModel.ts). A click opens the issue; inline, the Run's output.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { commandIds } from '../commands/ids.js';
import type { ExtensionServices } from '../services.js';
import { type RunAttentionKind, type RunItem, runsNeedingAttention } from './runsModel.js';

export const runsViewId = 'tutti.runs';

// The warning colour only for what the developer must act on because it failed, or because it stalled (a watch, never
// the error icon: a stalled Run has not failed).
const icons: Readonly<Record<RunAttentionKind, (needsYou: boolean) => vscode.ThemeIcon>> = {
	failed: (needsYou) => new vscode.ThemeIcon('error', needsYou ? new vscode.ThemeColor('notificationsWarningIcon.foreground') : undefined),
	stalled: () => new vscode.ThemeIcon('watch', new vscode.ThemeColor('notificationsWarningIcon.foreground')),
	stopped: () => new vscode.ThemeIcon('debug-stop'),
	waiting: () => new vscode.ThemeIcon('eye'),
};

class RunsProvider implements vscode.TreeDataProvider<RunItem> {
	readonly #changed = new vscode.EventEmitter<RunItem | undefined>();
	readonly onDidChangeTreeData = this.#changed.event;
	items: readonly RunItem[] = [];

	update(items: readonly RunItem[]): void {
		this.items = items;
		this.#changed.fire(undefined);
	}

	getChildren(element?: RunItem): RunItem[] {
		return element === undefined ? [...this.items] : [];
	}

	getTreeItem(run: RunItem): vscode.TreeItem {
		const item = new vscode.TreeItem(run.taskTitle, vscode.TreeItemCollapsibleState.None);
		item.id = `run:${run.runId}`;
		item.description = `${run.label} · ${run.issueTitle}`;
		item.tooltip = `${run.taskTitle}\n${run.label}\nIssue: ${run.issueTitle}\nRun ${run.runId}`;
		item.iconPath = icons[run.kind](run.needsYou);
		item.contextValue = run.contextValue;
		item.command = { command: commandIds.openIssue, title: 'Open Issue', arguments: [run.issueId] };
		item.accessibilityInformation = { label: `${run.taskTitle}, ${run.label}, issue ${run.issueTitle}` };
		return item;
	}

	dispose(): void {
		this.#changed.dispose();
	}
}

export function registerRunsView(services: ExtensionServices): Disposable {
	const store = new DisposableStore();
	const provider = store.add(new RunsProvider());
	const view = store.add(vscode.window.createTreeView(runsViewId, { treeDataProvider: provider }));
	const render = (): void => {
		const current = services.changes.current;
		const items = services.connection.client !== undefined && current ? runsNeedingAttention(current.issues) : [];
		provider.update(items);
		view.message = items.length === 0 && current ? 'No Run needs attention.' : undefined;
	};
	store.add(services.changes.onDidChange(render));
	store.add(services.connection.onDidChange(render));
	render();
	return store;
}
