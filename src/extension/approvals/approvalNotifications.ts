// A notification with Allow / Allow for Task / Edit… / Deny for each tool call an agent asks about (approval requests): the
// developer answers where they are. The Host derives which issues wait on an approval (IssueDto.pendingApprovalCount);
// only then is the list read. A request answered elsewhere (panel, CLI) is refused by the Host with its first answer,
// which is shown instead.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { approvalInputEditor, editedApprovalInput, type UpdatedInput } from '../../protocol/approvalInput.js';
import type { ApprovalDto } from '../../protocol/approvals.js';
import { describeError } from '../client/hostClient.js';
import type { ExtensionServices } from '../services.js';
import { approvalMessage, newlyPending } from './approvalText.js';

export type ApprovalChoice = 'allow' | 'allowForTask' | 'deny';

/**
 * Answers one request as the developer; Deny asks for the message the agent receives; `updatedInput` (Allow once only)
 * is the input the tool runs with instead of the agent's. Returns what was done.
 */
export async function answerApproval(services: ExtensionServices, approval: Pick<ApprovalDto, 'approvalId' | 'tool'>, choice: ApprovalChoice, message?: string, updatedInput?: UpdatedInput): Promise<string | undefined> {
	let note = message;
	if (choice === 'deny' && note === undefined) {
		note = await vscode.window.showInputBox({
			title: `Deny ${approval.tool}`,
			prompt: 'What the agent is told (why, or what to do instead)',
			placeHolder: 'e.g. Do not push; open a pull request instead',
		});
		if (note === undefined) { return undefined; }
	}
	try {
		const result = await services.client().call('approval/answer', {
			approvalId: approval.approvalId,
			...(choice === 'deny' ? { deny: true, message: note ?? '' } : { allow: true, forTask: choice === 'allowForTask' }),
			...(choice === 'allow' && updatedInput !== undefined ? { updatedInput } : {}),
		});
		void services.refresh();
		return result.approval.answerLabel;
	} catch (error) {
		void vscode.window.showWarningMessage(`Tutti: ${describeError(error)}`);
		return undefined;
	}
}

/**
 * Edit…: the tool's input in an input box (Bash's command line, or the input as one line of JSON), checked as it is
 * typed; Enter allows the call once with it. Undefined when the developer cancels.
 */
export async function editApprovalInput(approval: Pick<ApprovalDto, 'tool' | 'input'>): Promise<UpdatedInput | undefined> {
	const editor = approvalInputEditor(approval.tool, approval.input);
	const start = editor.kind === 'command' ? editor.text : JSON.stringify(approval.input ?? {});
	const text = await vscode.window.showInputBox({
		title: `Allow ${approval.tool} with an edited input`,
		prompt: editor.kind === 'command' ? 'The command line to run instead (Enter allows it once)' : 'The tool\'s input as JSON (Enter allows it once)',
		value: start,
		ignoreFocusOut: true,
		validateInput: (value) => { const r = editedApprovalInput(approval.tool, approval.input, value); return r.ok ? undefined : r.error; },
	});
	if (text === undefined) { return undefined; }
	const edited = editedApprovalInput(approval.tool, approval.input, text);
	return edited.ok ? edited.value : undefined;
}

export function registerApprovalNotifications(services: ExtensionServices): Disposable {
	const store = new DisposableStore();
	const seen = new Set<string>();
	let reading = false;

	const check = async (): Promise<void> => {
		const current = services.changes.current;
		const client = services.connection.client;
		if (reading || client === undefined || current === undefined || !current.issues.some((i) => (i.pendingApprovalCount ?? 0) > 0)) { return; }
		reading = true;
		try {
			const { approvals } = await client.call('approval/list', {});
			const titles = new Map(current.issues.map((i) => [i.issueId, i.title]));
			for (const approval of newlyPending(approvals, seen)) {
				const text = approvalMessage(approval, titles.get(approval.issueId));
				void vscode.window.showWarningMessage(text, 'Allow', 'Allow for Task', 'Edit…', 'Deny').then(async (picked) => {
					if (picked === undefined) { return; }
					let updatedInput: UpdatedInput | undefined;
					if (picked === 'Edit…') {
						updatedInput = await editApprovalInput(approval);
						if (updatedInput === undefined) { return; }
					}
					const choice: ApprovalChoice = picked === 'Allow' || picked === 'Edit…' ? 'allow' : picked === 'Allow for Task' ? 'allowForTask' : 'deny';
					const label = await answerApproval(services, approval, choice, undefined, updatedInput);
					if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: ${approval.tool} ${label}.`); }
				});
			}
		} catch (error) {
			services.log.warn(`reading approvals failed: ${describeError(error)}`);
		} finally {
			reading = false;
		}
	};

	store.add(services.changes.onDidChange(() => { void check(); }));
	store.add(services.connection.onDidChange(() => { seen.clear(); }));
	void check();
	return store;
}
