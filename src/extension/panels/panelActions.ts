// What each validated webview message means on the Host side. The panel's buttons run the SAME palette commands
// as the board and the command palette (src/extension/commands/ids.ts), with ids as arguments. Pure: no 'vscode'.
import type { PanelViewState, ToHost } from '../../protocol/webview.js';
import { type CommandId, commandIds } from '../commands/ids.js';

export type PanelAction =
	| { readonly kind: 'ready' }
	| { readonly kind: 'view'; readonly view: Partial<PanelViewState> }
	| { readonly kind: 'copy'; readonly text: string }
	| { readonly kind: 'command'; readonly command: CommandId; readonly args: readonly unknown[] }
	/** Several commands, one after the other (Accept selected). */
	| { readonly kind: 'commands'; readonly calls: readonly { readonly command: CommandId; readonly args: readonly unknown[] }[] }
	| { readonly kind: 'reject'; readonly message: string };

/** Ids the last posted snapshot showed: a message naming anything else is refused (untrusted input). */
export interface KnownIds {
	readonly taskIds: ReadonlySet<string>;
	readonly runIds: ReadonlySet<string>;
	/** Approval requests the snapshot showed pending (answerable from the panel). */
	readonly approvalIds?: ReadonlySet<string>;
	/** The tree of the conflicting task the snapshot's conflict block showed ('' or absent: none). */
	readonly conflictTree?: string;
}

/**
 * The action for a message. Arguments, by command:
 * pauseIssue/resumeIssue/stopIssue/confirmGoal/integrateIssue(issueId) · stopRun/openRunOutput(runId) · acceptTask(issueId, taskId) ·
 * requestChanges(issueId, taskId, note) for a task, requestChanges(issueId, undefined, note) for the goal ·
 * openTaskChanges(issueId, taskId) · showAgentTerminal(issueId) ·
 * startIssue/finishIssue/followUpIssue/stopSourceSession/switchReviewToSelf/openIssueChanges(issueId) ·
 * addTask({ issueId, title, content, dependencyTaskIds, agentTargetId }) from the task form ·
 * editTask(issueId, taskId, fields) · deleteTask(issueId, taskId, { confirmed: true }) (the panel asked) ·
 * acceptTask(issueId, taskId) once per selected task · retryTask(issueId, taskId, fields?) (fields: Edit and retry) ·
 * updateTaskFromBase(issueId, taskId) · openTaskTree(issueId, tree) with the tree the conflict block showed.
 */
export function panelActionFor(issueId: string, msg: ToHost, known: KnownIds | null): PanelAction {
	const task = (taskId: string, make: () => PanelAction): PanelAction =>
		known && !known.taskIds.has(taskId) ? { kind: 'reject', message: `Task ${taskId} is not part of this issue.` } : make();
	const run = (runId: string, make: () => PanelAction): PanelAction =>
		known && !known.runIds.has(runId) ? { kind: 'reject', message: `Run ${runId} is not part of this issue.` } : make();
	switch (msg.type) {
		case 'ready': return { kind: 'ready' };
		case 'task/select': return msg.taskId === null
			? { kind: 'view', view: { selectedTaskId: null } }
			: task(msg.taskId, () => ({ kind: 'view', view: { selectedTaskId: msg.taskId } }));
		case 'history/toggle': return { kind: 'view', view: { showHistory: msg.show } };
		case 'command/copy': return { kind: 'copy', text: msg.text };
		case 'issue/pause': return { kind: 'command', command: commandIds.pauseIssue, args: [issueId] };
		case 'issue/resume': return { kind: 'command', command: commandIds.resumeIssue, args: [issueId] };
		case 'issue/stop': return { kind: 'command', command: commandIds.stopIssue, args: [issueId] };
		case 'issue/integrate': return { kind: 'command', command: commandIds.integrateIssue, args: msg.push === true ? [issueId, { push: true }] : [issueId] };
		case 'goal/confirm': return { kind: 'command', command: commandIds.confirmGoal, args: [issueId] };
		case 'goal/requestChanges': return { kind: 'command', command: commandIds.requestChanges, args: [issueId, undefined, msg.note] };
		case 'run/stop': return run(msg.runId, () => ({ kind: 'command', command: commandIds.stopRun, args: [msg.runId] }));
		case 'run/openOutput': return run(msg.runId, () => ({ kind: 'command', command: commandIds.openRunOutput, args: [msg.runId] }));
		case 'task/accept': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.acceptTask, args: [issueId, msg.taskId] }));
		case 'task/requestChanges': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.requestChanges, args: [issueId, msg.taskId, msg.note] }));
		case 'task/openChanges': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.openTaskChanges, args: [issueId, msg.taskId] }));
		case 'agent/showTerminal': return { kind: 'command', command: commandIds.showAgentTerminal, args: [issueId] };
		case 'run/send': return known && !known.runIds.has(msg.runId)
			? { kind: 'reject', message: `Run ${msg.runId} is not a Run of this issue.` }
			: { kind: 'command', command: commandIds.sendRunMessage, args: [msg.runId, msg.text] };
		case 'approval/answer': return known && known.approvalIds?.has(msg.approvalId) !== true
			? { kind: 'reject', message: `Approval ${msg.approvalId} is not waiting for an answer in this issue.` }
			: { kind: 'command', command: commandIds.answerApproval, args: [msg.approvalId, msg.choice, msg.message ?? '', ...(msg.updatedInput !== undefined ? [msg.updatedInput] : [])] };
		case 'question/answer': return known && known.approvalIds?.has(msg.approvalId) !== true
			? { kind: 'reject', message: `Approval ${msg.approvalId} is not waiting for an answer in this issue.` }
			: { kind: 'command', command: commandIds.answerApproval, args: [msg.approvalId, 'answer', '', msg.answers] };
		case 'issue/start': return { kind: 'command', command: commandIds.startIssue, args: [issueId] };
		case 'issue/finish': return { kind: 'command', command: commandIds.finishIssue, args: [issueId] };
		case 'issue/followUp': return { kind: 'command', command: commandIds.followUpIssue, args: [issueId] };
		case 'source/stop': return { kind: 'command', command: commandIds.stopSourceSession, args: [issueId] };
		case 'goalReview/switchToSelf': return { kind: 'command', command: commandIds.switchReviewToSelf, args: [issueId] };
		case 'issue/openChanges': return { kind: 'command', command: commandIds.openIssueChanges, args: [issueId] };
		case 'taskForm/set': return msg.form?.mode === 'edit' || msg.form?.mode === 'retry'
			? task(msg.form.taskId, () => ({ kind: 'view', view: { taskForm: msg.form } }))
			: { kind: 'view', view: { taskForm: msg.form } };
		case 'task/create': return { kind: 'command', command: commandIds.addTask, args: [{ issueId, ...formFields(msg) }] };
		case 'task/update': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.editTask, args: [issueId, msg.taskId, formFields(msg)] }));
		case 'task/delete': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.deleteTask, args: [issueId, msg.taskId, { confirmed: true }] }));
		case 'task/retry': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.retryTask, args: msg.fields ? [issueId, msg.taskId, formFields(msg.fields)] : [issueId, msg.taskId] }));
		case 'task/updateFromBase': return task(msg.taskId, () => ({ kind: 'command', command: commandIds.updateTaskFromBase, args: [issueId, msg.taskId] }));
		case 'tasks/accept': {
			const unknown = known ? msg.taskIds.find((t) => !known.taskIds.has(t)) : undefined;
			return unknown !== undefined ? { kind: 'reject', message: `Task ${unknown} is not part of this issue.` }
				: { kind: 'commands', calls: [...new Set(msg.taskIds)].map((taskId) => ({ command: commandIds.acceptTask, args: [issueId, taskId] })) };
		}
		case 'agent/add': return { kind: 'command', command: commandIds.addAgent, args: [] };
		case 'conflict/openTree': return known?.conflictTree
			? { kind: 'command', command: commandIds.openTaskTree, args: [issueId, known.conflictTree] }
			: { kind: 'reject', message: 'The panel shows no conflicting task\'s tree to open.' };
		default: return assertNever(msg);
	}
}

/** The form's fields as the task commands take them. */
function formFields(msg: Omit<Extract<ToHost, { type: 'task/create' }>, 'type'>): { title: string; content: string; dependencyTaskIds: string[]; agentTargetId: string } {
	return { title: msg.title, content: msg.content, dependencyTaskIds: [...msg.dependencyTaskIds], agentTargetId: msg.agentTargetId };
}

function assertNever(x: never): never {
	throw new Error(`unhandled panel message ${JSON.stringify(x)}`);
}
