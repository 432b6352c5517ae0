// Answer Approval: from the panel (approvalId, choice, message) or the palette (pick a pending request, then Allow
// once / Allow for the task / Deny). The answer goes through the same helper as the notification's buttons.
import * as vscode from 'vscode';
import { type ApprovalChoice, answerApproval } from '../approvals/approvalNotifications.js';
import { approvalAction } from '../approvals/approvalText.js';
import { type ActionContext, runAction } from './actionContext.js';
import type { CommandArgs } from './commandArgs.js';

const choices: readonly ApprovalChoice[] = ['allow', 'allowForTask', 'deny'];

export function answerApprovalCommand(ctx: ActionContext, args: CommandArgs): Promise<string | undefined> {
	return runAction(ctx, 'Answer Approval', async () => {
		const [givenId, givenChoice, givenMessage] = args;
		let approvalId = typeof givenId === 'string' ? givenId : undefined;
		let tool = 'the tool call';
		if (approvalId === undefined) {
			const { approvals } = await ctx.services.client().call('approval/list', {});
			if (approvals.length === 0) {
				void vscode.window.showInformationMessage('Tutti: no agent is waiting for an approval.');
				return undefined;
			}
			const picked = await vscode.window.showQuickPick(approvals.map((a) => ({
				label: `${a.tool}: ${approvalAction(a)}`, description: `task ${a.taskId}`, detail: a.approvalId, approval: a,
			})), { title: 'Answer which request?' });
			if (picked === undefined) { return undefined; }
			approvalId = picked.approval.approvalId;
			tool = picked.approval.tool;
		}
		let choice = typeof givenChoice === 'string' && (choices as readonly string[]).includes(givenChoice) ? givenChoice as ApprovalChoice : undefined;
		if (choice === undefined) {
			const picked = await vscode.window.showQuickPick([
				{ label: 'Allow once', choice: 'allow' as const },
				{ label: 'Allow for the rest of the task', choice: 'allowForTask' as const },
				{ label: 'Deny…', choice: 'deny' as const },
			], { title: 'Your answer' });
			if (picked === undefined) { return undefined; }
			choice = picked.choice;
		}
		const message = typeof givenMessage === 'string' ? givenMessage : undefined;
		const label = await answerApproval(ctx.services, { approvalId, tool }, choice, message);
		if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: ${label}.`); }
		return label;
	});
}
