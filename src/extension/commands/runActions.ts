// Run and terminal actions: Stop Run, Open Run Output, New Agent Terminal.
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, optionsOf, runIdOf } from './commandArgs.js';
import { pickAgentTarget, pickRun } from './pickers.js';

export function stopRun(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Stop Run', async () => {
		const runId = runIdOf(args) ?? (await pickRun(ctx.services, 'Stop which Run?', true))?.runId;
		if (runId === undefined) {
			return undefined;
		}
		const result = await ctx.services.client().call('run/stop', { runId });
		// A Stop that took shows on the board and in the panel; any other answer is news.
		if (result.answer !== 'took') {
			void vscode.window.showWarningMessage(`Tutti: Stop answered "${result.answer}" for Run ${runId}.`);
		}
		return result;
	});
}

export function openRunOutput(ctx: ActionContext, args: CommandArgs): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'Open Run Output', async () => {
		const given = runIdOf(args);
		const run = given !== undefined ? { runId: given, taskId: given } : await pickRun(ctx.services, 'Show the output of which Run?', false);
		return run === undefined ? undefined : ctx.terminals.openRunOutput(run.runId, run.taskId);
	});
}

/** `{issueId?, agentTargetId?}` skips the prompt; from the palette it asks for the agent target. */
export function newAgentTerminal(ctx: ActionContext, args: CommandArgs): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'New Agent Terminal', async () => {
		const given = optionsOf<{ agentTargetId: unknown }>(args).agentTargetId;
		let agentTargetId: string | undefined = typeof given === 'string' ? given : undefined;
		if (args.length === 0 || args[0] === undefined) {
			const picked = await pickAgentTarget(ctx.services);
			if (picked === undefined) {
				return undefined;
			}
			agentTargetId = picked ?? undefined;
		}
		const issueId = issueIdOf(args);
		return ctx.terminals.open({ ...(agentTargetId ? { agentTargetId } : {}), ...(issueId ? { issueId } : {}) });
	});
}

/** `(issueId)`: shows the agent terminal Tutti opened for the issue's source session, to paste a hand-back command. */
export function showAgentTerminal(ctx: ActionContext, args: CommandArgs): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'Open Agent Terminal', async () => {
		const issueId = issueIdOf(args);
		const terminal = issueId === undefined ? undefined : ctx.terminals.agentTerminalOf(issueId);
		if (terminal === undefined) {
			void vscode.window.showInformationMessage('Tutti: no agent terminal of this issue is open in this window; paste the command where its source agent runs.');
			return undefined;
		}
		terminal.show();
		return terminal;
	});
}
