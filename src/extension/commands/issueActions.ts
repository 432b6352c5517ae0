// Issue actions: new (the form, or arguments), open, pause, resume, start, stop. The palette, the board and the panel
// all end up here.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { IssueDto } from '../../protocol/dto.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, isConfirmed, issueIdOf, optionsOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';
import type { NewIssueFormValues } from '../../protocol/newIssueForm.js';
import { NewIssueForm } from '../panels/newIssueForm.js';
import { readSettings } from '../settings/readSettings.js';
import { commandIds } from './ids.js';

/** Arguments that skip the form (tests, other extensions). */
export interface NewIssueArgs {
	readonly title?: string;
	readonly content?: string;
	readonly mode?: 'manual' | 'managed';
	/** Managed only: the source agent target Tutti launches and wakes, or null for "my own agent in a terminal". */
	readonly agentTargetId?: string | null;
	readonly autoAccept?: boolean;
	/** Manual only: start nothing until Start (the form's manual issues are created so). */
	readonly dispatchPaused?: boolean;
}

export interface NewIssueResult {
	readonly issueId: string;
	readonly managed: boolean;
	readonly sourceSessionId?: string;
}

/** The palette, the board and the welcome view open the New Issue form; arguments create the issue directly. */
export async function newIssue(ctx: ActionContext, commandArgs: CommandArgs): Promise<NewIssueResult | string | undefined> {
	const args = optionsOf<NewIssueArgs>(commandArgs);
	if (args.mode === undefined || args.title === undefined) {
		return openNewIssueForm(ctx);
	}
	return runAction(ctx, 'New Issue', () => createIssue(ctx, { ...args, mode: args.mode ?? 'manual', title: args.title ?? '' }));
}

function openNewIssueForm(ctx: ActionContext): Promise<string | undefined> {
	const form = NewIssueForm.show({
		extensionUri: ctx.services.extensionUri,
		agentTargets: async () => (await ctx.services.client().call('agent/list', {})).agentTargets
			.map((t) => ({ id: t.id, adapter: t.adapter, found: t.found, canPlan: t.canPlan, detail: (t.detail || t.path).slice(0, 1000) })),
		autoAcceptDefault: () => readSettings().autoAcceptDefault === true,
		create: async (values) => (await createIssue(ctx, argsOfForm(values))).issueId,
		addAgent: () => vscode.commands.executeCommand(commandIds.addAgent),
		warn: (message) => ctx.services.log.warn(message),
		onHostChanged: (listener) => ctx.services.connection.onDidChange(listener),
	});
	return new Promise((resolve) => { form.onDidClose(resolve); });
}

function argsOfForm(values: NewIssueFormValues): NewIssueArgs & { mode: 'manual' | 'managed'; title: string } {
	const base = { title: values.title.trim(), content: values.goal, autoAccept: values.autoAccept };
	switch (values.planner.kind) {
		case 'manual': return { ...base, mode: 'manual', dispatchPaused: true };
		case 'terminal': return { ...base, mode: 'managed', agentTargetId: null };
		case 'agent': return { ...base, mode: 'managed', agentTargetId: values.planner.agentTargetId };
	}
}

/**
 * Creates the issue through the Host API the CLI uses. Manual: `issue/create`, then its panel opens (add tasks,
 * Start). An agent target: `plan/create` with `sourceTargetId` — Tutti launches the source agent and wakes it. My own
 * agent: a source session, `plan/create` with its token, and an agent terminal holding that session.
 */
async function createIssue(ctx: ActionContext, args: NewIssueArgs & { mode: 'manual' | 'managed'; title: string }): Promise<NewIssueResult> {
	const client = ctx.services.client();
	const title = args.title.trim();
	const content = args.content ?? '';
	const autoAccept = args.autoAccept !== undefined ? { autoAccept: args.autoAccept } : {};
	if (args.mode === 'manual') {
		const issue = await client.call('issue/create', { title, ...(content ? { content } : {}), ...autoAccept, ...(args.dispatchPaused ? { dispatchPaused: true } : {}) });
		await revealIssue(ctx, issue.issueId);
		return { issueId: issue.issueId, managed: false };
	}
	const requestId = `vscode-${randomUUID()}`;
	if (typeof args.agentTargetId === 'string') {
		const plan = await client.call('plan/create', { title, content, requestId, ...autoAccept, sourceTargetId: args.agentTargetId });
		await revealIssue(ctx, plan.issueId);
		return { issueId: plan.issueId, managed: true, sourceSessionId: plan.sourceSessionId };
	}
	const session = await client.call('session/open', { role: 'source' });
	// The source session's token may not turn auto-accept on (an agent never widens it): the developer sets it, as the developer.
	const plan = await client.call('plan/create', { title, content, requestId }, { sessionToken: session.token });
	if (args.autoAccept !== undefined) { await client.call('issue/update', { issueId: plan.issueId, autoAccept: args.autoAccept }); }
	await ctx.terminals.open({ session: { sessionId: session.sessionId, token: session.token, issueId: plan.issueId }, label: title });
	await revealOnBoard(ctx);
	return { issueId: plan.issueId, managed: true, sourceSessionId: session.sessionId };
}

/** The new issue on the board and in its panel (the result is on screen, so no notification). */
async function revealIssue(ctx: ActionContext, issueId: string): Promise<void> {
	await revealOnBoard(ctx);
	await ctx.panel.show(issueId);
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

type IssueVerb = 'issue/pause' | 'issue/resume' | 'issue/start' | 'issue/stop';

const verbs: Record<IssueVerb, { what: string; placeHolder: string; applies: (i: IssueDto) => boolean }> = {
	'issue/pause': { what: 'Pause', placeHolder: 'Pause which issue?', applies: (i) => i.controls.pause },
	'issue/resume': { what: 'Resume', placeHolder: 'Resume which issue?', applies: (i) => i.controls.resume },
	// Start is Resume of a manual issue created paused, offered before its first Run.
	'issue/start': { what: 'Start', placeHolder: 'Start which issue?', applies: (i) => i.controls.start },
	'issue/stop': { what: 'Stop', placeHolder: 'Stop which issue?', applies: (i) => i.controls.stop },
};

/** Pause, Resume, Start or Stop an issue. Stop asks first unless the arguments say `confirmed: true`. */
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
		return ctx.services.client().call(method === 'issue/start' ? 'issue/resume' : method, { issueId });
	});
}
