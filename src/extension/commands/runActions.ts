// Run and terminal actions: Stop Run, Open Run Output, Send Message to a running agent, Resume a Run's message
// queue, New Agent Terminal. Runs are named by their task's title.
import * as vscode from 'vscode';
import type { RunDto } from '../../protocol/dto.js';
import type { ExtensionServices } from '../services.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, optionsOf, runIdOf } from './commandArgs.js';
import { askText, pickAgentTarget, pickRun, taskTitle } from './pickers.js';

/** The Run given by id (with its task's title), or the developer's pick. */
async function givenOrPickedRun(services: ExtensionServices, args: CommandArgs, placeHolder: string, runningOnly: boolean): Promise<(RunDto & { readonly taskTitle: string }) | undefined> {
	const runId = runIdOf(args);
	if (runId === undefined) { return pickRun(services, placeHolder, runningOnly); }
	const run = await services.client().call('run/get', { runId });
	return { ...run, taskTitle: await taskTitle(services, run.issueId, run.taskId) };
}

export function stopRun(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Stop Run', async () => {
		const run = await givenOrPickedRun(ctx.services, args, 'Stop which Run?', true);
		if (run === undefined) {
			return undefined;
		}
		const result = await ctx.services.client().call('run/stop', { runId: run.runId });
		// A Stop that took shows on the board and in the panel; any other answer is news.
		if (result.answer !== 'took') {
			void vscode.window.showWarningMessage(`Tutti: Stop answered "${result.answer}" for the Run of "${run.taskTitle}".`);
		}
		return result;
	});
}

export function openRunOutput(ctx: ActionContext, args: CommandArgs): Promise<vscode.Terminal | undefined> {
	return runAction(ctx, 'Open Run Output', async () => {
		const run = await givenOrPickedRun(ctx.services, args, 'Show the output of which Run?', false);
		return run === undefined ? undefined : ctx.terminals.openRunOutput(run.runId, run.taskTitle);
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

/** `(runId, text?)`: a message for a running claude/codex agent (`run/send`): into a claude Turn while it runs, else after it. */
export function sendRunMessage(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Send Message', async () => {
		const run = await givenOrPickedRun(ctx.services, args, 'Send a message to the agent of which Run?', true);
		if (run === undefined) { return undefined; }
		const given = typeof args[1] === 'string' && args[1].trim() !== '' ? args[1] : undefined;
		const text = given ?? await askText(`Message for the agent working on "${run.taskTitle}" (claude: while it works; codex: after its current turn)`, { required: true });
		if (text === undefined || text.trim() === '') { return undefined; }
		const sent = await ctx.services.client().call('run/send', { runId: run.runId, text });
		const where = sent.delivery === 'into-turn' ? 'sent into its running turn'
			: sent.queuePaused ? 'queued; the queue is paused (Tutti: Resume Message Queue delivers it)' : `queued (${sent.pending} pending)`;
		ctx.services.log.info(`message ${sent.messageId} for Run ${run.runId} ${where}`);
		vscode.window.setStatusBarMessage(`Tutti: message for "${run.taskTitle}" ${where}`, 5000);
		return sent;
	});
}

/** `(runId)`: resumes a Run's message queue paused by a person's Stop (`run/resume-queue`). */
export function resumeRunQueue(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Resume Message Queue', async () => {
		const run = await givenOrPickedRun(ctx.services, args, 'Resume the message queue of which Run?', false);
		if (run === undefined) { return undefined; }
		const client = ctx.services.client();
		const queue = await client.call('run/queue', { runId: run.runId });
		if (!queue.paused) {
			void vscode.window.showInformationMessage(`Tutti: the message queue of "${run.taskTitle}" is not paused.`);
			return queue;
		}
		return client.call('run/resume-queue', { runId: run.runId });
	});
}
