// Context keys the package.json `when` clauses read (menus, welcome views).
import * as vscode from 'vscode';
import type { ConnectionKind } from './connection/hostConnection.js';

export const contextKeys = {
	/** noFolder | noStore | starting | owner | viewer | failed */
	state: 'tutti:state',
	/** True when a Host answers (owner or viewer): actions are available. */
	connected: 'tutti:connected',
	/** True in a read-only viewer window. */
	viewer: 'tutti:viewer',
} as const;

export function setConnectionContext(kind: ConnectionKind): void {
	void vscode.commands.executeCommand('setContext', contextKeys.state, kind);
	void vscode.commands.executeCommand('setContext', contextKeys.connected, kind === 'owner' || kind === 'viewer');
	void vscode.commands.executeCommand('setContext', contextKeys.viewer, kind === 'viewer');
}
