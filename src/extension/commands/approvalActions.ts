// Answer Approval: from the panel (approvalId, choice, message, a question's answers) or the palette (pick a pending
// request, then Allow once / Allow for the task / Deny, or a question's Answer… / Decline…). The answer goes through
// the same helper as the notification's buttons.
import * as vscode from 'vscode';
import type { ApprovalDto } from '../../protocol/approvals.js';
import { type ApprovalChoice, answerApproval } from '../approvals/approvalNotifications.js';
import { approvalAction } from '../approvals/approvalText.js';
import { type ActionContext, runAction } from './actionContext.js';
import type { CommandArgs } from './commandArgs.js';

const choices: readonly ApprovalChoice[] = ['allow', 'allowForTask', 'deny', 'answer'];

export function answerApprovalCommand(ctx: ActionContext, args: CommandArgs): Promise<string | undefined> {
	return runAction(ctx, 'Answer Approval', async () => {
		const [givenId, givenChoice, givenMessage, givenAnswers] = args;
		let approvalId = typeof givenId === 'string' ? givenId : undefined;
		let approval: Pick<ApprovalDto, 'approvalId' | 'tool'> & Partial<Pick<ApprovalDto, 'kind' | 'questions'>> | undefined;
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
			approval = picked.approval;
			approvalId = picked.approval.approvalId;
		}
		let choice = typeof givenChoice === 'string' && (choices as readonly string[]).includes(givenChoice) ? givenChoice as ApprovalChoice : undefined;
		const answers = Array.isArray(givenAnswers) && givenAnswers.every((a) => typeof a === 'string') ? givenAnswers as string[] : undefined;
		if (choice === undefined || (choice === 'answer' && answers === undefined)) {
			// A question is answered in its own words: read it when only its id was given.
			approval ??= (await ctx.services.client().call('approval/list', {})).approvals.find((a) => a.approvalId === approvalId);
		}
		if (choice === undefined) {
			const picked = await vscode.window.showQuickPick<{ label: string; choice: ApprovalChoice }>(approval?.kind === 'question' ? [
				{ label: 'Answer…', choice: 'answer' },
				{ label: 'Decline…', choice: 'deny' },
			] : [
				{ label: 'Allow once', choice: 'allow' },
				{ label: 'Allow for the rest of the task', choice: 'allowForTask' },
				{ label: 'Deny…', choice: 'deny' },
			], { title: 'Your answer' });
			if (picked === undefined) { return undefined; }
			choice = picked.choice;
		}
		const message = typeof givenMessage === 'string' ? givenMessage : undefined;
		const label = await answerApproval(ctx.services, approval ?? { approvalId, tool: 'the tool call' }, choice, message, answers);
		if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: ${label}.`); }
		return label;
	});
}
