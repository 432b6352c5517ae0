// Run and terminal actions: Stop Run, Open Run Output, New Agent Terminal.
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { issueIdOf, runIdOf } from './commandArgs.js';
import { pickAgentTarget, pickRun } from './pickers.js';

export function stopRun(ctx: ActionContext, arg: unknown): Promise<unknown> {
	return runAction(ctx, 'Stop Run', async () => {
		const runId = runIdOf(arg) ?? (await pickRun(ctx.services, 'Stop which Run?', true))?.runId;
		if (runId === undefined) {
			return undefined;
		}
		const result = await ctx.services.client().call('run/stop', { runId });
		const said = result.answer === 'took' ? 'stopped' : `Stop answered "${result.answer}"`;
		void vscode.window.showInformationMessage(`Tutti: Run ${runId} ${said}.`);
		return result;
	});
}

export function openRunOutput(ctx: ActionContext, arg: unknown): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'Open Run Output', async () => {
		const given = runIdOf(arg);
		const run = given !== undefined ? { runId: given, taskId: given } : await pickRun(ctx.services, 'Show the output of which Run?', false);
		return run === undefined ? undefined : ctx.terminals.openRunOutput(run.runId, run.taskId);
	});
}

/** `{issueId?, agentTargetId?}` skips the prompt; from the palette it asks for the agent target. */
export function newAgentTerminal(ctx: ActionContext, arg: unknown): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'New Agent Terminal', async () => {
		const given = typeof arg === 'object' && arg !== null ? (arg as { agentTargetId?: unknown }).agentTargetId : undefined;
		let agentTargetId: string | undefined = typeof given === 'string' ? given : undefined;
		if (arg === undefined) {
			const picked = await pickAgentTarget(ctx.services);
			if (picked === undefined) {
				return undefined;
			}
			agentTargetId = picked ?? undefined;
		}
		const issueId = issueIdOf(arg);
		return ctx.terminals.open({ ...(agentTargetId ? { agentTargetId } : {}), ...(issueId ? { issueId } : {}) });
	});
}
