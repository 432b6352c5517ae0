// Next Task Needing You (a keybinding, the palette): opens the issue panel on the next task the Host says needs the
// developer, after the one shown in the panel they are in.
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { nextNeedingYou } from './nextNeedingYou.js';

export function nextTaskNeedingYou(ctx: ActionContext): Promise<unknown> {
	return runAction(ctx, 'Next Task Needing You', async () => {
		const issues = ctx.services.changes.current?.issues ?? (await ctx.services.client().call('issue/list', {})).issues;
		const next = nextNeedingYou(issues, ctx.panel.active?.());
		if (next === undefined) {
			void vscode.window.showInformationMessage('Tutti: nothing needs you right now.');
			return undefined;
		}
		await ctx.panel.show(next.issueId, next.taskId !== null ? { selectTaskId: next.taskId } : {});
		return next;
	});
}
