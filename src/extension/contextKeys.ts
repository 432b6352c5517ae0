// Context keys the package.json `when` clauses read (menus, welcome views).
import * as vscode from 'vscode';
import type { StoreChangeSource } from './changes/storeChangeSource.js';
import type { ConnectionKind } from './connection/hostConnection.js';
import { workspaceContext } from './workspaceContext.js';

export const contextKeys = {
	/** noFolder | noStore | unknownStore | starting | owner | viewer | failed */
	state: 'tutti:state',
	/** True when a Host answers (owner or viewer): actions are available. */
	connected: 'tutti:connected',
	/** True in a read-only viewer window. */
	viewer: 'tutti:viewer',
	/** Some agent target is configured (the walkthrough's "Add an agent" step is done only then). */
	hasAgentTargets: 'tutti:hasAgentTargets',
} as const;

/** Keeps `tutti:hasAgentTargets` true exactly while `tutti.agentTargets` lists a target. */
export function followAgentTargetsContext(): vscode.Disposable {
	const apply = (): void => {
		const targets = vscode.workspace.getConfiguration('tutti').get<unknown>('agentTargets');
		void vscode.commands.executeCommand('setContext', contextKeys.hasAgentTargets, Array.isArray(targets) && targets.length > 0);
	};
	apply();
	return vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('tutti.agentTargets')) { apply(); } });
}

export function setConnectionContext(kind: ConnectionKind): void {
	void vscode.commands.executeCommand('setContext', contextKeys.state, kind);
	void vscode.commands.executeCommand('setContext', contextKeys.connected, kind === 'owner' || kind === 'viewer');
	void vscode.commands.executeCommand('setContext', contextKeys.viewer, kind === 'viewer');
}

/** Keeps the workspace context keys (src/extension/workspaceContext.ts) in step with the store; sets only what changed. */
export function followWorkspaceContext(changes: StoreChangeSource): vscode.Disposable {
	const last = new Map<string, boolean>();
	const apply = (): void => {
		for (const [key, value] of Object.entries(workspaceContext(changes.current))) {
			if (last.get(key) === value) { continue; }
			last.set(key, value);
			void vscode.commands.executeCommand('setContext', key, value);
		}
	};
	apply();
	const sub = changes.onDidChange(apply);
	return new vscode.Disposable(() => sub.dispose());
}
