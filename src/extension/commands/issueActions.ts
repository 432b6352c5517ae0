// Issue actions: new, open, pause, resume, stop. The palette, the board and the panel all end up here.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { IssueDto } from '../../protocol/dto.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, isConfirmed, issueIdOf, optionsOf } from './commandArgs.js';
import { askText, pickAgentTarget, pickIssue } from './pickers.js';

/** Arguments that skip the prompts (tests, other extensions). */
export interface NewIssueArgs {
	readonly title?: string;
	readonly content?: string;
	readonly mode?: 'manual' | 'managed';
	/** Managed only: the source agent target, or null for "my own agent in a terminal". */
	readonly agentTargetId?: string | null;
}

export interface NewIssueResult {
	readonly issueId: string;
	readonly managed: boolean;
	readonly sourceSessionId?: string;
}

async function askMode(): Promise<'manual' | 'managed' | undefined> {
	const picked = await vscode.window.showQuickPick([
		{ label: 'Managed issue', description: 'a source agent plans it into a task graph and drives it', mode: 'managed' as const },
		{ label: 'Manual issue', description: 'you (or any agent) add the tasks; Tutti runs them as they become ready', mode: 'manual' as const },
	], { placeHolder: 'What kind of issue?' });
	return picked?.mode;
}

export function newIssue(ctx: ActionContext, commandArgs: CommandArgs): Promise<NewIssueResult | undefined> {
	const args = optionsOf<NewIssueArgs>(commandArgs);
	return runAction(ctx, 'New Issue', async () => {
		const client = ctx.services.client();
		const mode = args.mode ?? await askMode();
		if (mode === undefined) {
			return undefined;
		}
		const title = args.title ?? await askText('Issue title (the goal in a few words)', { required: true, placeHolder: 'Fix the login flow' });
		if (title === undefined || title.trim() === '') {
			return undefined;
		}
		const content = args.content ?? await askText('Describe the goal (optional)', { placeHolder: 'Users are logged out after 5 minutes' });
		if (content === undefined) {
			return undefined;
		}
		if (mode === 'manual') {
			const issue = await client.call('issue/create', { title: title.trim(), ...(content ? { content } : {}) });
			await revealOnBoard(ctx);
			return { issueId: issue.issueId, managed: false };
		}
		const target = args.agentTargetId !== undefined ? args.agentTargetId : await pickAgentTarget(ctx.services);
		if (target === undefined) {
			return undefined;
		}
		// The source session owns the plan. Delivering checkpoints to a configured agent is the agent-sessions
		// feature; here the developer's agent drives it from the terminal that carries the session's token.
		const session = await client.call('session/open', { role: 'source', ...(target ? { agentTargetId: target } : {}) });
		const plan = await client.call('plan/create', { title: title.trim(), content, requestId: `vscode-${randomUUID()}` }, { sessionToken: session.token });
		await ctx.terminals.open({ session: { sessionId: session.sessionId, token: session.token, issueId: plan.issueId } });
		await revealOnBoard(ctx);
		return { issueId: plan.issueId, managed: true, sourceSessionId: session.sessionId };
	});
}

async function revealOnBoard(ctx: ActionContext): Promise<void> {
	await ctx.services.refresh();
	await vscode.commands.executeCommand('tutti.issueBoard.focus');
}

export async function openIssue(ctx: ActionContext, args: CommandArgs): Promise<void> {
	await runAction(ctx, 'Open Issue', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Open which issue?');
		if (issueId !== undefined) {
			await ctx.panel.show(issueId);
		}
	});
}

type IssueVerb = 'issue/pause' | 'issue/resume' | 'issue/stop';

const verbs: Record<IssueVerb, { what: string; placeHolder: string; applies: (i: IssueDto) => boolean }> = {
	'issue/pause': { what: 'Pause', placeHolder: 'Pause which issue?', applies: (i) => i.controls.pause },
	'issue/resume': { what: 'Resume', placeHolder: 'Resume which issue?', applies: (i) => i.controls.resume },
	'issue/stop': { what: 'Stop', placeHolder: 'Stop which issue?', applies: (i) => i.controls.stop },
};

/** Pause, Resume or Stop an issue. Stop asks first unless the arguments say `confirmed: true`. */
export function issueVerb(ctx: ActionContext, method: IssueVerb, args: CommandArgs): Promise<IssueDto | undefined> {
	const verb = verbs[method];
	return runAction(ctx, `${verb.what} Issue`, async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, verb.placeHolder, verb.applies);
		if (issueId === undefined) {
			return undefined;
		}
		if (method === 'issue/stop' && !isConfirmed(args)) {
			const answer = await vscode.window.showWarningMessage(
				'Stop this issue? Dispatch is paused and every running Run is interrupted (recorded as stopped by you).',
				{ modal: true }, 'Stop');
			if (answer !== 'Stop') {
				return undefined;
			}
		}
		return ctx.services.client().call(method, { issueId });
	});
}
