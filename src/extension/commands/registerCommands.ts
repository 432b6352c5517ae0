// Every contributed command, registered in one place. The board's inline actions, its context menu, the issue
// panel's buttons (executeCommand(commandIds.x, args)) and the palette all run these same handlers.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import type { ActionContext } from './actionContext.js';
import { type CommandId, commandIds } from './ids.js';
import { issueVerb, newIssue, openIssue } from './issueActions.js';
import { acceptTask, confirmGoal, requestChanges } from './reviewActions.js';
import { newAgentTerminal, openRunOutput, stopRun } from './runActions.js';
import { exportIssue, showStoreLocation, startInFolder } from './storeActions.js';

type Handler = (arg: unknown) => unknown;

export function commandHandlers(ctx: ActionContext): Record<CommandId, Handler> {
	return {
		[commandIds.startInFolder]: () => startInFolder(ctx),
		[commandIds.newIssue]: (arg) => newIssue(ctx, arg),
		[commandIds.openIssue]: (arg) => openIssue(ctx, arg),
		[commandIds.pauseIssue]: (arg) => issueVerb(ctx, 'issue/pause', arg),
		[commandIds.resumeIssue]: (arg) => issueVerb(ctx, 'issue/resume', arg),
		[commandIds.stopIssue]: (arg) => issueVerb(ctx, 'issue/stop', arg),
		[commandIds.stopRun]: (arg) => stopRun(ctx, arg),
		[commandIds.acceptTask]: (arg) => acceptTask(ctx, arg),
		[commandIds.requestChanges]: (arg) => requestChanges(ctx, arg),
		[commandIds.confirmGoal]: (arg) => confirmGoal(ctx, arg),
		[commandIds.newAgentTerminal]: (arg) => newAgentTerminal(ctx, arg),
		[commandIds.openRunOutput]: (arg) => openRunOutput(ctx, arg),
		[commandIds.showStoreLocation]: () => showStoreLocation(ctx),
		[commandIds.exportIssue]: (arg) => exportIssue(ctx, arg),
		[commandIds.refreshBoard]: () => ctx.services.refresh(),
	};
}

export function registerCommands(ctx: ActionContext): Disposable {
	const store = new DisposableStore();
	for (const [id, handler] of Object.entries(commandHandlers(ctx))) {
		store.add(vscode.commands.registerCommand(id, handler));
	}
	return store;
}
