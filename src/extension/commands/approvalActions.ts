// Answer Approval: from the panel (approvalId, choice, message, updatedInput?) or the palette (pick a pending request,
// then Allow once / Allow with an edited input / Allow for the task / Deny). The answer goes through the same helper as
// the notification's buttons.
import * as vscode from 'vscode';
import { updatedInputSchema } from '../../protocol/approvalInput.js';
import type { ApprovalDto } from '../../protocol/approvals.js';
import { type ApprovalChoice, answerApproval, editApprovalInput } from '../approvals/approvalNotifications.js';
import { approvalAction } from '../approvals/approvalText.js';
import { type ActionContext, runAction } from './actionContext.js';
import type { CommandArgs } from './commandArgs.js';

const choices: readonly ApprovalChoice[] = ['allow', 'allowForTask', 'deny'];

export function answerApprovalCommand(ctx: ActionContext, args: CommandArgs): Promise<string | undefined> {
	return runAction(ctx, 'Answer Approval', async () => {
		const [givenId, givenChoice, givenMessage, givenInput] = args;
		let approvalId = typeof givenId === 'string' ? givenId : undefined;
		let tool = 'the tool call';
		let picked: ApprovalDto | undefined;
		if (approvalId === undefined) {
			const { approvals } = await ctx.services.client().call('approval/list', {});
			if (approvals.length === 0) {
				void vscode.window.showInformationMessage('Tutti: no agent is waiting for an approval.');
				return undefined;
			}
			const chosen = await vscode.window.showQuickPick(approvals.map((a) => ({
				label: `${a.tool}: ${approvalAction(a)}`, description: `task ${a.taskId}`, detail: a.approvalId, approval: a,
			})), { title: 'Answer which request?' });
			if (chosen === undefined) { return undefined; }
			approvalId = chosen.approval.approvalId;
			tool = chosen.approval.tool;
			picked = chosen.approval;
		}
		let choice = typeof givenChoice === 'string' && (choices as readonly string[]).includes(givenChoice) ? givenChoice as ApprovalChoice : undefined;
		const given = updatedInputSchema.safeParse(givenInput);
		let updatedInput = givenInput !== undefined && given.success ? given.data : undefined;
		if (givenInput !== undefined && !given.success) { throw new Error('the edited input must be a JSON object'); }
		if (choice === undefined) {
			const answer = await vscode.window.showQuickPick([
				{ label: 'Allow once', choice: 'allow' as const, edit: false },
				...(picked !== undefined ? [{ label: 'Allow once with an edited input…', choice: 'allow' as const, edit: true }] : []),
				{ label: 'Allow for the rest of the task', choice: 'allowForTask' as const, edit: false },
				{ label: 'Deny…', choice: 'deny' as const, edit: false },
			], { title: 'Your answer' });
			if (answer === undefined) { return undefined; }
			choice = answer.choice;
			if (answer.edit && picked !== undefined) {
				updatedInput = await editApprovalInput(picked);
				if (updatedInput === undefined) { return undefined; }
			}
		}
		const message = typeof givenMessage === 'string' ? givenMessage : undefined;
		const label = await answerApproval(ctx.services, { approvalId, tool }, choice, message, updatedInput);
		if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: ${label}.`); }
		return label;
	});
}
