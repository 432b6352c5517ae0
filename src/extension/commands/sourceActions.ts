// A managed issue's source session, from the UI: Stop Source Session (`session/stop`, archives every execution that
// session owns) and Switch to Self Review (`goalReview/switchToSelf`, audited with the developer's reason).
import * as vscode from 'vscode';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, isConfirmed, issueIdOf } from './commandArgs.js';
import { askText, pickIssue } from './pickers.js';

/** `(issueId)` asks first; `(issueId, { confirmed: true })` or `({ issueId, confirmed: true })` does not. */
export function stopSourceSession(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Stop Source Session', async () => {
		const client = ctx.services.client();
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Stop the source session of which issue?', (i) => i.controls.stopSource);
		if (issueId === undefined) { return undefined; }
		const issue = await client.call('issue/get', { issueId, status: 'running' });
		if (issue.sourceSessionId === '') { throw new Error(`"${issue.title}" has no source session (it is a manual issue).`); }
		const others = (await client.call('issue/list', {})).issues
			.filter((i) => i.sourceSessionId === issue.sourceSessionId && i.issueId !== issueId && i.controls.stopSource);
		const also = others.length === 0 ? '' : ` The same session also drives ${others.map((i) => `"${i.title}"`).join(', ')}: ${others.length === 1 ? 'it stops' : 'they stop'} too.`;
		if (!isConfirmed(args)) {
			const answer = await vscode.window.showWarningMessage(
				`Stop the source session of "${issue.title}"? Its execution is archived: the source agent gets no more checkpoints and no new task starts.${also}`,
				{ modal: true }, 'Stop Source Session');
			if (answer !== 'Stop Source Session') { return undefined; }
		}
		return client.call('session/stop', { sessionId: issue.sourceSessionId });
	});
}

/** `(issueId, reason?)`: the reason is recorded for audit (asked when not given). */
export function switchReviewToSelf(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Switch to Self Review', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Switch which issue back to self review?', (i) => i.controls.switchReviewToSelf);
		if (issueId === undefined) { return undefined; }
		const given = typeof args[1] === 'string' && args[1].trim() !== '' ? args[1] : undefined;
		const reason = given ?? await askText('Why switch back to self review? (recorded for audit; the open independent review is canceled)', { required: true });
		if (reason === undefined || reason.trim() === '') { return undefined; }
		return ctx.services.client().call('goalReview/switchToSelf', { issueId, reason });
	});
}
