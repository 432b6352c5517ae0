// The sidebar "Agents" view: every agent at work or waiting across issues (workers, source agents, reviewers),
// under their issue, with the Host's state, elapsed time, tokens and cost; Stop, Open transcript and Open issue
// inline (the same commands as everywhere). Elapsed time ticks once a second while the view is visible.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import type { AgentTurnDto } from '../../protocol/dto.js';
import { commandIds } from '../commands/ids.js';
import type { ExtensionServices } from '../services.js';
import { type AgentIssueGroup, type AgentItem, agentGroups } from './agentsModel.js';

export const agentsViewId = 'tutti.agents';

type AgentNode = { readonly kind: 'issue'; readonly group: AgentIssueGroup } | ({ readonly kind: 'agent' } & AgentItem);

// The warning colour only for a stalled agent; a question for the developer is not a failure.
const icons: Readonly<Record<AgentTurnDto['state'], vscode.ThemeIcon>> = {
	working: new vscode.ThemeIcon('sync~spin'),
	waiting_on_you: new vscode.ThemeIcon('bell'),
	waiting_on_approval: new vscode.ThemeIcon('shield'),
	waiting_on_agents: new vscode.ThemeIcon('watch'),
	setting_up: new vscode.ThemeIcon('loading~spin'),
	stalled: new vscode.ThemeIcon('warning', new vscode.ThemeColor('notificationsWarningIcon.foreground')),
};

class AgentsProvider implements vscode.TreeDataProvider<AgentNode> {
	readonly #changed = new vscode.EventEmitter<AgentNode | undefined>();
	readonly onDidChangeTreeData = this.#changed.event;
	groups: readonly AgentIssueGroup[] = [];

	update(groups: readonly AgentIssueGroup[]): void {
		this.groups = groups;
		this.#changed.fire(undefined);
	}

	getChildren(element?: AgentNode): AgentNode[] {
		if (element === undefined) { return this.groups.map((group) => ({ kind: 'issue', group })); }
		return element.kind === 'issue' ? element.group.agents.map((a) => ({ kind: 'agent', ...a })) : [];
	}

	getTreeItem(node: AgentNode): vscode.TreeItem {
		if (node.kind === 'issue') {
			const { group } = node;
			const item = new vscode.TreeItem(group.title, vscode.TreeItemCollapsibleState.Expanded);
			item.id = `agents-issue:${group.issueId}`;
			item.description = `${group.agents.length} agent${group.agents.length === 1 ? '' : 's'}`;
			item.iconPath = new vscode.ThemeIcon('issues');
			item.contextValue = 'agentIssue';
			item.command = { command: commandIds.openIssue, title: 'Open Issue', arguments: [group.issueId] };
			item.accessibilityInformation = { label: `${group.title}: ${item.description}` };
			return item;
		}
		const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
		item.id = `agent:${node.key}`;
		item.description = node.description;
		item.tooltip = node.tooltip;
		item.iconPath = icons[node.state];
		item.contextValue = node.contextValue;
		item.accessibilityInformation = { label: `${node.label}, ${node.description}` };
		return item;
	}

	dispose(): void {
		this.#changed.dispose();
	}
}

export function registerAgentsView(services: ExtensionServices): Disposable {
	const store = new DisposableStore();
	const provider = store.add(new AgentsProvider());
	const view = store.add(vscode.window.createTreeView(agentsViewId, { treeDataProvider: provider }));
	const turns = (): readonly AgentTurnDto[] => (services.connection.client !== undefined ? services.changes.current?.agentTurns ?? [] : []);
	const render = (): void => {
		const groups = agentGroups(turns(), Date.now());
		provider.update(groups);
		const count = groups.reduce((n, g) => n + g.agents.length, 0);
		view.description = count > 0 ? String(count) : undefined;
		view.message = count === 0 && services.changes.current !== undefined ? 'No agent is at work or waiting.' : undefined;
	};
	const ticker = setInterval(() => { if (view.visible && turns().length > 0) { render(); } }, 1000);
	store.add({ dispose: () => { clearInterval(ticker); } });
	store.add(services.changes.onDidChange(render));
	store.add(services.connection.onDidChange(render));
	store.add(view.onDidChangeVisibility(() => { if (view.visible) { render(); } }));
	render();
	return store;
}
