// Every contributed command, registered in one place. The board's inline actions, its context menu, the issue
// panel's buttons (executeCommand(commandIds.x, args)) and the palette all run these same handlers.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import type { ActionContext } from './actionContext.js';
import { type CommandId, commandIds } from './ids.js';
import { issueVerb, newIssue, openIssue } from './issueActions.js';
import { acceptTask, acceptTaskInDiff, confirmGoal, finishIssue, followUpIssue, requestChanges, requestChangesInDiff } from './reviewActions.js';
import { newAgentTerminal, openRunOutput, resumeRunQueue, sendRunMessage, showAgentTerminal, stopRun } from './runActions.js';
import { openIssueChanges, openTaskChanges } from './taskChanges.js';
import { answerApprovalCommand } from './approvalActions.js';
import { integrateIssue, openTaskTree, retryTask, updateTaskFromBase } from './deliveryActions.js';
import { exportIssue, showStoreLocation, startInFolder } from './storeActions.js';
import { addAgent } from './agentActions.js';
import { addTask, deleteTask, editTask } from './taskActions.js';
import { nextTaskNeedingYou } from './nextTaskActions.js';
import { stopSourceSession, switchReviewToSelf } from './sourceActions.js';

type Handler = (...args: unknown[]) => unknown;

export function commandHandlers(ctx: ActionContext): Record<CommandId, Handler> {
	return {
		[commandIds.startInFolder]: () => startInFolder(ctx),
		[commandIds.newIssue]: (...args) => newIssue(ctx, args),
		[commandIds.openIssue]: (...args) => openIssue(ctx, args),
		[commandIds.pauseIssue]: (...args) => issueVerb(ctx, 'issue/pause', args),
		[commandIds.resumeIssue]: (...args) => issueVerb(ctx, 'issue/resume', args),
		[commandIds.stopIssue]: (...args) => issueVerb(ctx, 'issue/stop', args),
		[commandIds.stopRun]: (...args) => stopRun(ctx, args),
		[commandIds.acceptTask]: (...args) => acceptTask(ctx, args),
		[commandIds.requestChanges]: (...args) => requestChanges(ctx, args),
		[commandIds.confirmGoal]: (...args) => confirmGoal(ctx, args),
		[commandIds.finishIssue]: (...args) => finishIssue(ctx, args),
		[commandIds.integrateIssue]: (...args) => integrateIssue(ctx, args),
		[commandIds.followUpIssue]: (...args) => followUpIssue(ctx, args),
		[commandIds.openTaskChanges]: (...args) => openTaskChanges(ctx, args),
		[commandIds.answerApproval]: (...args) => answerApprovalCommand(ctx, args),
		[commandIds.newAgentTerminal]: (...args) => newAgentTerminal(ctx, args),
		[commandIds.showAgentTerminal]: (...args) => showAgentTerminal(ctx, args),
		[commandIds.openRunOutput]: (...args) => openRunOutput(ctx, args),
		[commandIds.showStoreLocation]: () => showStoreLocation(ctx),
		[commandIds.exportIssue]: (...args) => exportIssue(ctx, args),
		[commandIds.refreshBoard]: () => ctx.services.refresh(),
		[commandIds.addReviewComment]: (reply) => ctx.diffComments.addComment(reply),
		[commandIds.deleteReviewComment]: (comment) => ctx.diffComments.deleteComment(comment),
		[commandIds.addAgent]: (...args) => addAgent(ctx, args),
		[commandIds.addTask]: (...args) => addTask(ctx, args),
		[commandIds.startIssue]: (...args) => issueVerb(ctx, 'issue/start', args),
		[commandIds.stopSourceSession]: (...args) => stopSourceSession(ctx, args),
		[commandIds.switchReviewToSelf]: (...args) => switchReviewToSelf(ctx, args),
		[commandIds.sendRunMessage]: (...args) => sendRunMessage(ctx, args),
		[commandIds.resumeRunQueue]: (...args) => resumeRunQueue(ctx, args),
		[commandIds.openIssueChanges]: (...args) => openIssueChanges(ctx, args),
		[commandIds.diffAcceptTask]: () => acceptTaskInDiff(ctx),
		// Every count's Request Changes runs the same handler (their titles differ only in the count they show).
		[commandIds.diffRequestChanges]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges1]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges2]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges3]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges4]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges5]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges6]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges7]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges8]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChanges9]: () => requestChangesInDiff(ctx),
		[commandIds.diffRequestChangesMany]: () => requestChangesInDiff(ctx),
		[commandIds.editTask]: (...args) => editTask(ctx, args),
		[commandIds.deleteTask]: (...args) => deleteTask(ctx, args),
		[commandIds.retryTask]: (...args) => retryTask(ctx, args),
		[commandIds.updateTaskFromBase]: (...args) => updateTaskFromBase(ctx, args),
		[commandIds.openTaskTree]: (...args) => openTaskTree(ctx, args),
		[commandIds.nextTaskNeedingYou]: () => nextTaskNeedingYou(ctx),
	};
}

export function registerCommands(ctx: ActionContext): Disposable {
	const store = new DisposableStore();
	for (const [id, handler] of Object.entries(commandHandlers(ctx))) {
		store.add(vscode.commands.registerCommand(id, handler));
	}
	return store;
}
