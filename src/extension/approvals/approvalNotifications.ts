// A notification with Allow / Allow for Task / Edit… / Deny for each tool call an agent asks about (approval requests),
// and with the options of each question an agent asks (or Answer…) and Decline: the developer answers where they are.
// The Host derives which issues wait on an approval (IssueDto.pendingApprovalCount); only then is the list read. A
// request answered elsewhere (panel, CLI) is refused by the Host with its first answer, which is shown instead.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { approvalInputEditor, editedApprovalInput, type UpdatedInput } from '../../protocol/approvalInput.js';
import type { ApprovalDto, ApprovalQuestionDto } from '../../protocol/approvals.js';
import { describeError } from '../client/hostClient.js';
import type { ExtensionServices } from '../services.js';
import { approvalMessage, newlyPending, questionButtons } from './approvalText.js';

/** `answer`: a question's answers (`<question id>=<text>` each). */
export type ApprovalChoice = 'allow' | 'allowForTask' | 'deny' | 'answer';

/** Asks the developer each question in turn (its options, or a typed answer); undefined when they dismiss one. */
export async function askQuestionAnswers(questions: readonly ApprovalQuestionDto[]): Promise<string[] | undefined> {
	const answers: string[] = [];
	for (const [i, q] of questions.entries()) {
		const title = `${q.header !== '' ? q.header : 'The agent asks'}${questions.length > 1 ? ` (${i + 1}/${questions.length})` : ''}`;
		let text: string | undefined;
		if (q.options.length > 0) {
			const other = { label: 'Another answer…', description: '', other: true };
			const picked = await vscode.window.showQuickPick([
				...q.options.map((o) => ({ label: o.label, description: o.description, other: false })),
				...(q.isOther ? [other] : []),
			], { title, placeHolder: q.question, ignoreFocusOut: true });
			if (picked === undefined) { return undefined; }
			text = picked.other ? undefined : picked.label;
		}
		text ??= await vscode.window.showInputBox({ title, prompt: q.question, password: q.isSecret, ignoreFocusOut: true });
		if (text === undefined) { return undefined; }
		answers.push(`${q.id}=${text}`);
	}
	return answers;
}

/** What goes with a choice: a question's answers (`answer`), or the input the tool runs with instead (`allow` only). */
export interface ApprovalAnswerExtra {
	readonly answers?: readonly string[];
	readonly updatedInput?: UpdatedInput;
}

/**
 * Answers one request as the developer; Deny asks for the message the agent receives, and a question without given
 * answers asks for them. Returns what was done.
 */
export async function answerApproval(
	services: ExtensionServices, approval: Pick<ApprovalDto, 'approvalId' | 'tool'> & Partial<Pick<ApprovalDto, 'kind' | 'questions'>>,
	choice: ApprovalChoice, message?: string, extra: ApprovalAnswerExtra = {},
): Promise<string | undefined> {
	const question = approval.kind === 'question';
	let note = message;
	if (choice === 'deny' && note === undefined) {
		note = await vscode.window.showInputBox({
			title: question ? 'Decline the question' : `Deny ${approval.tool}`,
			prompt: question ? 'What the agent is told instead of an answer' : 'What the agent is told (why, or what to do instead)',
			placeHolder: question ? 'e.g. Decide yourself; either is fine' : 'e.g. Do not push; open a pull request instead',
		});
		if (note === undefined) { return undefined; }
	}
	let given = extra.answers;
	if (choice === 'answer' && given === undefined) {
		given = await askQuestionAnswers(approval.questions ?? []);
		if (given === undefined) { return undefined; }
	}
	try {
		const result = await services.client().call('approval/answer', {
			approvalId: approval.approvalId,
			...(choice === 'deny' ? { deny: true, message: note ?? '' }
				: choice === 'answer' ? { answers: [...(given ?? [])] }
					: { allow: true, forTask: choice === 'allowForTask' }),
			...(choice === 'allow' && extra.updatedInput !== undefined ? { updatedInput: extra.updatedInput } : {}),
		});
		void services.refresh();
		return result.approval.answerLabel;
	} catch (error) {
		void vscode.window.showWarningMessage(`Tutti: ${describeError(error)}`);
		return undefined;
	}
}

/**
 * Edit…: the tool's input in an input box (the command line of Bash or exec_command, or the input as one line of
 * JSON), checked as it is typed; Enter allows the call once with it. Undefined when the developer cancels.
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
				if (approval.kind === 'question') {
					void vscode.window.showWarningMessage(text, ...questionButtons(approval)).then(async (picked) => {
						if (picked === undefined) { return; }
						const label = picked.kind === 'decline' ? await answerApproval(services, approval, 'deny')
							: await answerApproval(services, approval, 'answer', undefined, picked.kind === 'option' ? { answers: [picked.answer] } : {});
						if (label !== undefined) { void vscode.window.showInformationMessage(`Tutti: the question was ${label}.`); }
					});
					continue;
				}
				void vscode.window.showWarningMessage(text, 'Allow', 'Allow for Task', 'Edit…', 'Deny').then(async (picked) => {
					if (picked === undefined) { return; }
					let updatedInput: UpdatedInput | undefined;
					if (picked === 'Edit…') {
						updatedInput = await editApprovalInput(approval);
						if (updatedInput === undefined) { return; }
					}
					const choice: ApprovalChoice = picked === 'Allow' || picked === 'Edit…' ? 'allow' : picked === 'Allow for Task' ? 'allowForTask' : 'deny';
					const label = await answerApproval(services, approval, choice, undefined, updatedInput !== undefined ? { updatedInput } : {});
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
