// Answer Approval: from the panel (approvalId, choice, message, and a question's answers or Allow's edited input) or
// the palette (pick a pending request, then Allow once / Allow with an edited input / Allow for the task / Deny, or a
// question's Answer… / Decline…). The answer goes through the same helper as the notification's buttons.
import * as vscode from 'vscode';
import { updatedInputSchema, type UpdatedInput } from '../../protocol/approvalInput.js';
import type { ApprovalDto } from '../../protocol/approvals.js';
import { type ApprovalChoice, answerApproval, editApprovalInput } from '../approvals/approvalNotifications.js';
import { approvalAction } from '../approvals/approvalText.js';
import { type ActionContext, runAction } from './actionContext.js';
import type { CommandArgs } from './commandArgs.js';

const choices: readonly ApprovalChoice[] = ['allow', 'allowForTask', 'deny', 'answer'];

export function answerApprovalCommand(ctx: ActionContext, args: CommandArgs): Promise<string | undefined> {
	return runAction(ctx, 'Answer Approval', async () => {
		// The fourth argument is a question's answers with `answer`, or the edited input with `allow`.
		const [givenId, givenChoice, givenMessage, givenExtra] = args;
		let approvalId = typeof givenId === 'string' ? givenId : undefined;
		let approval: Pick<ApprovalDto, 'approvalId' | 'tool'> & Partial<Pick<ApprovalDto, 'kind' | 'questions' | 'input'>> | undefined;
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
		const answers = Array.isArray(givenExtra) && givenExtra.every((a) => typeof a === 'string') ? givenExtra as string[] : undefined;
		let updatedInput: UpdatedInput | undefined;
		if (choice === 'allow' && givenExtra !== undefined) {
			const given = updatedInputSchema.safeParse(givenExtra);
			if (!given.success || Array.isArray(givenExtra)) { throw new Error('the edited input must be a JSON object'); }
			updatedInput = given.data;
		}
		if (choice === undefined || (choice === 'answer' && answers === undefined)) {
			// A question is answered in its own words: read it when only its id was given.
			approval ??= (await ctx.services.client().call('approval/list', {})).approvals.find((a) => a.approvalId === approvalId);
		}
		if (choice === undefined) {
			const asked = approval;
			const picked = await vscode.window.showQuickPick<{ label: string; choice: ApprovalChoice; edit?: true }>(asked?.kind === 'question' ? [
				{ label: 'Answer…', choice: 'answer' },
				{ label: 'Decline…', choice: 'deny' },
			] : [
				{ label: 'Allow once', choice: 'allow' },
				...(asked?.input !== undefined ? [{ label: 'Allow once with an edited input…', choice: 'allow' as const, edit: true as const }] : []),
				{ label: 'Allow for the rest of the task', choice: 'allowForTask' },
				{ label: 'Deny…', choice: 'deny' },
			], { title: 'Your answer' });
			if (picked === undefined) { return undefined; }
			choice = picked.choice;
			if (picked.edit === true && asked !== undefined) {
				updatedInput = await editApprovalInput({ tool: asked.tool, input: asked.input });
				if (updatedInput === undefined) { return undefined; }
			}
		}
		const message = typeof givenMessage === 'string' ? givenMessage : undefined;
		const extra = choice === 'answer' && answers !== undefined ? { answers } : choice === 'allow' && updatedInput !== undefined ? { updatedInput } : {};
		const label = await answerApproval(ctx.services, approval ?? { approvalId, tool: 'the tool call' }, choice, message, extra);
		if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: ${label}.`); }
		return label;
	});
}
