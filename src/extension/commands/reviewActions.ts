// Developer confirmation: Accept Task, Request Changes (a task, or the goal at Goal Review), Confirm Goal.
// The Host methods arrive with the developer-confirmation feature; until then these fail with a clear
// "not available in this version" and never pretend to succeed.
import type { ExtensionServices } from '../services.js';
import { notAvailable } from '../client/hostClient.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, isGoalRequest, issueIdOf, noteOf, taskRefOf } from './commandArgs.js';
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

function atGoalReview(services: ExtensionServices, issueId: string): boolean {
	return services.changes.current?.executions.get(issueId)?.status === 'pending_goal_review';
}

function pendingTasks(services: ExtensionServices, issueId: string): number {
	return services.changes.current?.issues.find((i) => i.issueId === issueId)?.counts.pendingAcceptance ?? 0;
}

/** `(issueId, taskId)`; from the board `(element)` picks among that issue's tasks; from the palette among all. */
export function acceptTask(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Accept Task', async () => {
		const method = methodFor(ctx.services, 'acceptTask', 'Accept Task');
		const task = taskRefOf(args) ?? await pickPendingTask(ctx.services, 'Accept which task?', issueIdOf(args));
		return task === undefined ? undefined : ctx.services.client().callByName(method, { issueId: task.issueId, taskId: task.taskId });
	});
}

/**
 * Request changes on a task `(issueId, taskId, note?)`, or on the goal at Goal Review `(issueId, undefined, note)`.
 * From the board, an issue at Goal Review with no task waiting means the goal. The note is required (asked for).
 */
export function requestChanges(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Request Changes', async () => {
		const given = taskRefOf(args);
		const issueId = issueIdOf(args);
		const goal = given === undefined && issueId !== undefined
			&& (isGoalRequest(args) || (atGoalReview(ctx.services, issueId) && pendingTasks(ctx.services, issueId) === 0));
		const method = methodFor(ctx.services, goal ? 'requestGoalChanges' : 'requestTaskChanges', 'Request Changes');
		const task = goal ? undefined : given ?? await pickPendingTask(ctx.services, 'Request changes on which task?', issueId);
		if (!goal && task === undefined) {
			return undefined;
		}
		const note = noteOf(args) ?? await askText(goal ? 'What should change before the goal is met? (sent to the source agent)' : 'What should change? (sent to the source agent)', { required: true });
		if (note === undefined || note.trim() === '') {
			return undefined;
		}
		return ctx.services.client().callByName(method, task ? { issueId: task.issueId, taskId: task.taskId, note } : { issueId, note });
	});
}

export function confirmGoal(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Confirm Goal', async () => {
		const method = methodFor(ctx.services, 'confirmGoal', 'Confirm Goal');
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Confirm the goal of which issue?', (i) => atGoalReview(ctx.services, i.issueId));
		return issueId === undefined ? undefined : ctx.services.client().callByName(method, { issueId });
	});
}
