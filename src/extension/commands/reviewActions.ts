// Developer confirmation: Accept Task, Request Changes (a task, or the goal at Goal Review), Confirm Goal, and the
// next step after completion: Follow Up (the source agent's `tutti next-action` gets it) or Finish. Accept and Request
// Changes also run from the title bar of a task's diff editor, on that task.
// A Host without these methods (an older owner window) answers `version_mismatch`, shown as such: nothing pretends.
import * as vscode from 'vscode';
import { noteWithComments } from '../review/reviewCommentBook.js';
import type { Result } from '../../protocol/controlPlane.js';
import { HostCallError } from '../client/hostClient.js';
import { commandIds } from './ids.js';
import { reviewNoteMaxChars } from '../../protocol/webview.js';
// No success notification: the board and the panel show the result (and a hand-back command, when one is owed).
import type { IssueDto } from '../../protocol/dto.js';
import type { ExtensionServices } from '../services.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, followUpTextOf, isGoalRequest, issueIdOf, noteOf, type TaskRef, taskRefOf } from './commandArgs.js';
import { askText, pickIssue, pickPendingTask } from './pickers.js';

function currentIssue(services: ExtensionServices, issueId: string): IssueDto | undefined {
	return services.changes.current?.issues.find((i) => i.issueId === issueId);
}

/** The Host offers Confirm goal (and Request changes on the goal): the issue is at Goal Review. */
function atGoalReview(services: ExtensionServices, issueId: string): boolean {
	return currentIssue(services, issueId)?.controls.confirmGoal ?? false;
}

/** The Host offers Accept / Request changes on some task of the issue. */
function taskAwaitsReview(services: ExtensionServices, issueId: string): boolean {
	return currentIssue(services, issueId)?.controls.reviewTask ?? false;
}

/**
 * The task selected in the issue panel the developer is in, when the Host offers `control` on it (a keybinding or the
 * palette pressed there acts on what the developer looks at); undefined otherwise.
 */
async function selectedInPanel(ctx: ActionContext, args: CommandArgs, control: 'accept' | 'requestChanges'): Promise<TaskRef | undefined> {
	if (args.length > 0) { return undefined; }
	const active = ctx.panel.active?.();
	if (active === undefined || active.selectedTaskId === null) { return undefined; }
	const taskId = active.selectedTaskId;
	const issue = await ctx.services.client().call('issue/get', { issueId: active.issueId, taskId }).catch(() => undefined);
	return issue?.tasks[0]?.controls[control] === true ? { issueId: active.issueId, taskId } : undefined;
}

/** The issue of the panel the developer is in, when some task of it awaits their decision (the picker narrows to it). */
function panelIssueInReview(ctx: ActionContext): string | undefined {
	const issueId = ctx.panel.active?.()?.issueId;
	return issueId !== undefined && taskAwaitsReview(ctx.services, issueId) ? issueId : undefined;
}

/** `(issueId, taskId)`; from the board `(element)` picks among that issue's tasks; from the palette among all (in an issue panel: its selected task). */
export function acceptTask(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Accept Task', async () => {
		const task = taskRefOf(args) ?? await selectedInPanel(ctx, args, 'accept')
			?? await pickPendingTask(ctx.services, 'Accept which task?', issueIdOf(args) ?? panelIssueInReview(ctx));
		if (task === undefined) {
			return undefined;
		}
		const decision = await ctx.services.client().call('review/accept', { issueId: task.issueId, taskId: task.taskId });
		ctx.services.reviewComments.markAccepted(task.taskId);
		return decision;
	});
}

/** The task of the active diff editor (its title bar's buttons); a clear error when the active editor is not one. */
function diffTask(ctx: ActionContext): { readonly issueId: string; readonly taskId: string; readonly taskTitle: string } {
	const task = ctx.reviewDiffs.active();
	if (task === undefined) { throw new Error('the active editor is not a task\'s diff: open one with Open Changes (the panel\'s Open Diff)'); }
	return task;
}

/** Accept Task from the diff editor's title bar: the task whose diff it shows. */
export function acceptTaskInDiff(ctx: ActionContext): Promise<unknown> {
	return runAction(ctx, 'Accept Task', async () => {
		const task = diffTask(ctx);
		const decision = await ctx.services.client().call('review/accept', { issueId: task.issueId, taskId: task.taskId });
		ctx.services.reviewComments.markAccepted(task.taskId);
		await ctx.reviewDiffs.refresh();
		vscode.window.setStatusBarMessage(`Tutti: accepted "${task.taskTitle}"`, 5000);
		return decision;
	});
}

/** Request Changes from the diff editor's title bar: the diff's comments go with it, the note is optional then. */
export function requestChangesInDiff(ctx: ActionContext): Promise<unknown> {
	return runAction(ctx, 'Request Changes', async () => {
		const task = diffTask(ctx);
		const comments = ctx.services.reviewComments.of(task.taskId).length;
		const note = comments > 0
			? await askText(`A note for the agent of "${task.taskTitle}" (optional: your ${comments} comment${comments === 1 ? '' : 's'} on the diff go with it)`)
			: await askText(`What should change in "${task.taskTitle}"? (sent to the source agent)`, { required: true });
		if (note === undefined || (comments === 0 && note.trim() === '')) { return undefined; }
		const decision = await sendTaskChanges(ctx, task, note);
		await ctx.reviewDiffs.refresh();
		return decision;
	});
}

/** Sends a task's Request changes: the note, then the task's comments on its diff (cleared once sent). */
async function sendTaskChanges(ctx: ActionContext, task: { readonly issueId: string; readonly taskId: string }, note: string): Promise<unknown> {
	const comments = ctx.services.reviewComments.of(task.taskId);
	const fullNote = noteWithComments(note, comments);
	if (fullNote.length > reviewNoteMaxChars) {
		throw new Error(`the note with its ${comments.length} comments on the diff is ${fullNote.length.toLocaleString('en-US')} characters, and a note takes at most ${reviewNoteMaxChars.toLocaleString('en-US')}: shorten the note or delete some comments (each comment's trash icon in the diff)`);
	}
	const decision = await ctx.services.client().call('review/requestChanges', { issueId: task.issueId, taskId: task.taskId, note: fullNote });
	ctx.services.reviewComments.clear(task.taskId);
	return decision;
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
			&& (isGoalRequest(args) || (atGoalReview(ctx.services, issueId) && !taskAwaitsReview(ctx.services, issueId)));
		const task = goal ? undefined : given ?? await selectedInPanel(ctx, args, 'requestChanges')
			?? await pickPendingTask(ctx.services, 'Request changes on which task?', issueId ?? panelIssueInReview(ctx));
		if (!goal && task === undefined) {
			return undefined;
		}
		const note = noteOf(args) ?? await askText(goal ? 'What should change before the goal is met? (sent to the source agent)' : 'What should change? (sent to the source agent)', { required: true });
		if (note === undefined || note.trim() === '') {
			return undefined;
		}
		if (task !== undefined) {
			return sendTaskChanges(ctx, task, note);
		}
		const decision = await ctx.services.client().call('goal/requestChanges', { issueId: issueId ?? '', note });
		return decision;
	});
}

export function confirmGoal(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Confirm Goal', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Confirm the goal of which issue?', (i) => atGoalReview(ctx.services, i.issueId));
		if (issueId === undefined) {
			return undefined;
		}
		const decision = await ctx.services.client().call('goal/confirm', { issueId });
		return decision;
	});
}

function completedManaged(services: ExtensionServices, issueId: string): boolean {
	return currentIssue(services, issueId)?.executionStatus === 'completed';
}

/**
 * `(issueId)`: nothing more is offered to the source agent; its Stop hook lets it exit. With accepted work not
 * integrated the developer chooses Integrate or Finish Without Integrating; then the removal of the issue's trees and
 * merged branches is offered with the disk it frees.
 */
export function finishIssue(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Finish', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Finish which issue?', (i) => currentIssue(ctx.services, i.issueId)?.controls.finish === true);
		if (issueId === undefined) {
			return undefined;
		}
		const client = ctx.services.client();
		let finished: Result<'issue/finish'>;
		try {
			finished = await client.call('issue/finish', { issueId });
		} catch (e) {
			if (!(e instanceof HostCallError) || e.reasonCode !== 'not_integrated') { throw e; }
			const choice = await vscode.window.showWarningMessage(e.message, { modal: true }, 'Integrate', 'Finish Without Integrating');
			if (choice === 'Integrate') {
				await vscode.commands.executeCommand(commandIds.integrateIssue, issueId);
				return undefined;
			}
			if (choice !== 'Finish Without Integrating') { return undefined; }
			finished = await client.call('issue/finish', { issueId, withoutIntegrating: true });
		}
		if (!finished.cleanup.items.some((i) => i.state === 'removable')) { return finished; }
		const remove = await vscode.window.showInformationMessage(`Tutti: finished. ${finished.cleanup.summary}`, 'Remove Worktrees');
		if (remove !== 'Remove Worktrees') { return finished; }
		const removed = await client.call('issue/finish', { issueId, removeWorktrees: true });
		void vscode.window.showInformationMessage(`Tutti: ${removed.cleanup.summary}`);
		return removed;
	});
}

/** `(issueId, text?)`: a follow-up the source agent's next `tutti next-action` receives once, with the command to start it. */
export function followUpIssue(ctx: ActionContext, args: CommandArgs): Promise<unknown> {
	return runAction(ctx, 'Follow Up', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Follow up on which completed issue?', (i) => completedManaged(ctx.services, i.issueId));
		if (issueId === undefined) {
			return undefined;
		}
		const text = followUpTextOf(args) ?? await askText('What should the source agent do next? (it starts a new issue for it)', { required: true });
		if (text === undefined || text.trim() === '') {
			return undefined;
		}
		const followUp = await ctx.services.client().call('issue/followUp', { issueId, text });
		return followUp;
	});
}
