// Developer confirmation: Accept Task, Request Changes (a task, or the goal at Goal Review), Confirm Goal.
// The Host methods arrive with the developer-confirmation feature; until then these fail with a clear
// "not available in this version" and never pretend to succeed.
import type { ExtensionServices } from '../services.js';
import { notAvailable } from '../client/hostClient.js';
import { type ActionContext, runAction } from './actionContext.js';
import { issueIdOf, noteOf, taskRefOf } from './commandArgs.js';
import { askText, pickIssue, pickPendingTask } from './pickers.js';
import { type ReviewAction, reviewMethod } from './reviewMethods.js';

function methodFor(services: ExtensionServices, action: ReviewAction, label: string): string {
	const client = services.client();
	const method = reviewMethod(action, (m) => client.has(m));
	if (method === undefined) {
		throw notAvailable(label);
	}
	return method;
}

export function acceptTask(ctx: ActionContext, arg: unknown): Promise<unknown> {
	return runAction(ctx, 'Accept Task', async () => {
		const method = methodFor(ctx.services, 'acceptTask', 'Accept Task');
		const task = taskRefOf(arg) ?? await pickPendingTask(ctx.services, 'Accept which task?');
		return task === undefined ? undefined : ctx.services.client().callByName(method, { issueId: task.issueId, taskId: task.taskId });
	});
}

/**
 * Request changes on a task (`{issueId, taskId}`, or picked), or on the goal at Goal Review (`{issueId}` without a
 * task). The note is required: from the arguments or asked for.
 */
export function requestChanges(ctx: ActionContext, arg: unknown): Promise<unknown> {
	return runAction(ctx, 'Request Changes', async () => {
		const task = taskRefOf(arg);
		const goalIssueId = task === undefined ? issueIdOf(arg) : undefined;
		const method = methodFor(ctx.services, goalIssueId !== undefined ? 'requestGoalChanges' : 'requestTaskChanges', 'Request Changes');
		const target = task ?? (goalIssueId !== undefined ? undefined : await pickPendingTask(ctx.services, 'Request changes on which task?'));
		if (target === undefined && goalIssueId === undefined) {
			return undefined;
		}
		const note = noteOf(arg) ?? await askText('What should change? (sent to the source agent)', { required: true });
		if (note === undefined || note.trim() === '') {
			return undefined;
		}
		const params = target ? { issueId: target.issueId, taskId: target.taskId, note: note.trim() } : { issueId: goalIssueId, note: note.trim() };
		return ctx.services.client().callByName(method, params);
	});
}

export function confirmGoal(ctx: ActionContext, arg: unknown): Promise<unknown> {
	return runAction(ctx, 'Confirm Goal', async () => {
		const method = methodFor(ctx.services, 'confirmGoal', 'Confirm Goal');
		const current = ctx.services.changes.current;
		const atGoalReview = (issueId: string): boolean => current?.executions.get(issueId)?.status === 'pending_goal_review';
		const issueId = issueIdOf(arg) ?? await pickIssue(ctx.services, 'Confirm the goal of which issue?', (i) => atGoalReview(i.issueId));
		return issueId === undefined ? undefined : ctx.services.client().callByName(method, { issueId });
	});
}
