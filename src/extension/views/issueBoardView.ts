// The sidebar issue board: a TreeView of the board model (boardModel.ts), grouped Needs you · Agent working · Waiting on agent · Paused ·
// Planned · Done (the Host's attention state, drawn), with a view badge counting the issues that need the developer. Rebuilt on every store change.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { commandIds } from '../commands/ids.js';
import type { ConnectionState } from '../connection/hostConnection.js';
import type { ExtensionServices } from '../services.js';
import { type BoardGroup, type BoardGroupId, type BoardIssue, type BoardModel, buildBoard } from './boardModel.js';

export const issueBoardViewId = 'tutti.issueBoard';

export type BoardNode =
	| { readonly kind: 'group'; readonly group: BoardGroup }
	| { readonly kind: 'issue'; readonly item: BoardIssue };

// The warning colour is for failures and stalls only: a review that waits for the developer is not a failure.
const warning = new vscode.ThemeColor('notificationsWarningIcon.foreground');

const groupIcons: Readonly<Record<BoardGroupId, vscode.ThemeIcon>> = {
	needsYou: new vscode.ThemeIcon('bell-dot'),
	agentWorking: new vscode.ThemeIcon('sync~spin'),
	waitingOnAgent: new vscode.ThemeIcon('watch'),
	paused: new vscode.ThemeIcon('debug-pause'),
	notStarted: new vscode.ThemeIcon('debug-start'),
	planned: new vscode.ThemeIcon('circle-large-outline'),
	done: new vscode.ThemeIcon('pass'),
};

const issueIcons: Readonly<Record<BoardGroupId, vscode.ThemeIcon>> = {
	needsYou: new vscode.ThemeIcon('bell'),
	agentWorking: new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('charts.blue')),
	waitingOnAgent: new vscode.ThemeIcon('watch'),
	paused: new vscode.ThemeIcon('debug-pause'),
	notStarted: new vscode.ThemeIcon('debug-start'),
	planned: new vscode.ThemeIcon('circle-outline'),
	done: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
};

const stalledIcon = new vscode.ThemeIcon('warning', warning);

class IssueBoardProvider implements vscode.TreeDataProvider<BoardNode> {
	readonly #changed = new vscode.EventEmitter<BoardNode | undefined>();
	readonly onDidChangeTreeData = this.#changed.event;
	model: BoardModel = buildBoard([], new Map());

	update(model: BoardModel): void {
		this.model = model;
		this.#changed.fire(undefined);
	}

	getChildren(element?: BoardNode): BoardNode[] {
		if (element === undefined) {
			return this.model.groups.filter((g) => g.issues.length > 0).map((group) => ({ kind: 'group', group }));
		}
		if (element.kind === 'group') {
			return element.group.issues.map((item) => ({ kind: 'issue', item }));
		}
		return [];
	}

	getParent(element: BoardNode): BoardNode | undefined {
		if (element.kind === 'group') {
			return undefined;
		}
		const group = this.model.groups.find((g) => g.id === element.item.group);
		return group ? { kind: 'group', group } : undefined;
	}

	getTreeItem(element: BoardNode): vscode.TreeItem {
		if (element.kind === 'group') {
			const { group } = element;
			const item = new vscode.TreeItem(group.label, group.id === 'done' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
			item.id = `group:${group.id}`;
			item.description = String(group.issues.length);
			item.iconPath = groupIcons[group.id];
			item.contextValue = `group:${group.id}`;
			item.accessibilityInformation = { label: `${group.label}: ${group.issues.length} issue${group.issues.length === 1 ? '' : 's'}` };
			return item;
		}
		const { item: issue } = element;
		const item = new vscode.TreeItem(issue.title, vscode.TreeItemCollapsibleState.None);
		item.id = `issue:${issue.issueId}`;
		item.description = issue.description;
		item.tooltip = issue.tooltip;
		item.accessibilityInformation = { label: `${issue.title}, ${issue.stateLabel}, ${issue.description}` };
		item.iconPath = issue.stalled ? stalledIcon : issueIcons[issue.group];
		item.contextValue = issue.contextValue;
		item.command = { command: commandIds.openIssue, title: 'Open Issue', arguments: [issue.issueId] };
		return item;
	}

	dispose(): void {
		this.#changed.dispose();
	}
}

function viewMessage(state: ConnectionState): string | undefined {
	switch (state.kind) {
		case 'viewer': return `Read-only viewer: another window${state.ownerPid ? ` (pid ${state.ownerPid})` : ''} owns this store; your actions are sent to it.`;
		case 'starting': return 'Starting Tutti…';
		case 'failed': return `Tutti could not start: ${state.message}`;
		default: return undefined;
	}
}

export function registerIssueBoard(services: ExtensionServices): Disposable {
	const store = new DisposableStore();
	const provider = store.add(new IssueBoardProvider());
	const view = store.add(vscode.window.createTreeView(issueBoardViewId, { treeDataProvider: provider, showCollapseAll: true }));
	const render = (): void => {
		const current = services.changes.current;
		const connected = services.connection.client !== undefined;
		const model = connected && current ? buildBoard(current.issues, current.executions) : buildBoard([], new Map());
		provider.update(model);
		view.badge = model.needsYouCount > 0
			? { value: model.needsYouCount, tooltip: `${model.needsYouCount} issue${model.needsYouCount === 1 ? ' needs' : 's need'} you` }
			: undefined;
		view.message = viewMessage(services.connection.state);
	};
	store.add(services.changes.onDidChange(render));
	store.add(services.connection.onDidChange(render));
	render();
	return store;
}
