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

/** Kept by key across renders, so a tick that changes only the words redraws those rows, not the whole tree. */
type AgentNode = { readonly kind: 'issue'; group: AgentIssueGroup } | { readonly kind: 'agent'; item: AgentItem; readonly issueId: string; readonly runId: string };

// The warning colour only for a stalled agent; a question for the developer is not a failure.
const icons: Readonly<Record<AgentTurnDto['state'], vscode.ThemeIcon>> = {
	working: new vscode.ThemeIcon('sync~spin'),
	waiting_on_you: new vscode.ThemeIcon('bell'),
	waiting_on_approval: new vscode.ThemeIcon('shield'),
	waiting_on_agents: new vscode.ThemeIcon('watch'),
	setting_up: new vscode.ThemeIcon('loading~spin'),
	stalled: new vscode.ThemeIcon('warning', new vscode.ThemeColor('notificationsWarningIcon.foreground')),
};

function shapeOf(groups: readonly AgentIssueGroup[]): string {
	return JSON.stringify(groups.map((g) => [g.issueId, g.title, g.agents.map((a) => [a.key, a.contextValue])]));
}

class AgentsProvider implements vscode.TreeDataProvider<AgentNode> {
	readonly #changed = new vscode.EventEmitter<AgentNode | AgentNode[] | undefined>();
	readonly onDidChangeTreeData = this.#changed.event;
	#issues: Extract<AgentNode, { kind: 'issue' }>[] = [];
	#agents = new Map<string, Extract<AgentNode, { kind: 'agent' }>>();
	#shape = '';

	/** The same issues and agents with new words: those rows are redrawn; otherwise the whole tree. */
	update(groups: readonly AgentIssueGroup[]): void {
		const shape = shapeOf(groups);
		if (shape === this.#shape) {
			const changed: AgentNode[] = [];
			for (const [i, group] of groups.entries()) {
				this.#issues[i]!.group = group;
				for (const item of group.agents) {
					const node = this.#agents.get(item.key)!;
					if (node.item.description !== item.description || node.item.tooltip !== item.tooltip || node.item.state !== item.state) { changed.push(node); }
					node.item = item;
				}
			}
			if (changed.length > 0) { this.#changed.fire(changed); }
			return;
		}
		this.#shape = shape;
		this.#issues = groups.map((group) => ({ kind: 'issue', group }));
		this.#agents = new Map(groups.flatMap((g) => g.agents.map((item) => [item.key, { kind: 'agent' as const, item, issueId: item.issueId, runId: item.runId }] as const)));
		this.#changed.fire(undefined);
	}

	getChildren(element?: AgentNode): AgentNode[] {
		if (element === undefined) { return this.#issues; }
		return element.kind === 'issue' ? element.group.agents.map((a) => this.#agents.get(a.key)!) : [];
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
		const agent = node.item;
		const item = new vscode.TreeItem(agent.label, vscode.TreeItemCollapsibleState.None);
		item.id = `agent:${agent.key}`;
		item.description = agent.description;
		item.tooltip = agent.tooltip;
		item.iconPath = icons[agent.state];
		item.contextValue = agent.contextValue;
		item.accessibilityInformation = { label: `${agent.label}, ${agent.description}` };
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
