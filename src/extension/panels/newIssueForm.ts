// The New Issue form (a webview editor tab): the thin 'vscode' adapter around NewIssueFormController. One form at a
// time; opening it again reveals it. The issue is created by the same newIssue command the palette runs.
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/lifecycle.js';
import type { FormAgentTarget, NewIssueFormValues } from '../../protocol/newIssueForm.js';
import { issuePanelOptions, webviewRoot } from './issuePanel.js';
import { newNonce } from './webviewPage.js';
import { NewIssueFormController } from './newIssueFormController.js';
import { newIssueFormHtml } from './newIssueFormHtml.js';

export const newIssueFormViewType = 'tutti.newIssue';

export interface NewIssueFormDeps {
	readonly extensionUri: vscode.Uri;
	agentTargets(): Promise<readonly FormAgentTarget[]>;
	autoAcceptDefault(): boolean;
	create(values: NewIssueFormValues): Promise<string | undefined>;
	addAgent(): PromiseLike<unknown>;
	warn(message: string): void;
	/** The Host connection changed (a restart after Add Agent wrote the setting): the choices are sent again. */
	onHostChanged(listener: () => void): { dispose(): void };
}

export class NewIssueForm implements vscode.Disposable {
	static #current: NewIssueForm | undefined;
	readonly panel: vscode.WebviewPanel;
	readonly controller: NewIssueFormController;
	readonly #store = new DisposableStore();
	readonly #closed = new vscode.EventEmitter<string | undefined>();
	/** Fires once when the form closes, with the id of the issue it created (undefined when cancelled). */
	readonly onDidClose: vscode.Event<string | undefined> = this.#closed.event;

	/** Opens the form, or reveals the one already open. */
	static show(deps: NewIssueFormDeps): NewIssueForm {
		if (NewIssueForm.#current) {
			NewIssueForm.#current.panel.reveal();
			return NewIssueForm.#current;
		}
		// The same options as every panel of the extension: scripts by nonce, resources from dist/webview only.
		const panel = vscode.window.createWebviewPanel(newIssueFormViewType, 'New Issue', vscode.ViewColumn.Active, issuePanelOptions(deps.extensionUri));
		NewIssueForm.#current = new NewIssueForm(panel, deps);
		return NewIssueForm.#current;
	}

	/** The open form, if any (tests). */
	static get current(): NewIssueForm | undefined { return NewIssueForm.#current; }

	private constructor(panel: vscode.WebviewPanel, deps: NewIssueFormDeps) {
		this.panel = panel;
		const root = webviewRoot(deps.extensionUri);
		panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'tutti.svg');
		panel.webview.html = newIssueFormHtml({
			cspSource: panel.webview.cspSource,
			scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'newIssue.js')).toString(),
			styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'newIssue.css')).toString(),
			nonce: newNonce(),
		});
		this.controller = new NewIssueFormController(
			{ postMessage: (m) => panel.webview.postMessage(m), close: () => panel.dispose() },
			deps,
		);
		this.#store.add(this.#closed);
		this.#store.add(panel.webview.onDidReceiveMessage((m: unknown) => this.controller.receive(m)));
		this.#store.add(deps.onHostChanged(() => { void this.controller.init(); }));
		this.#store.add(panel.onDidDispose(() => this.dispose()));
	}

	dispose(): void {
		if (NewIssueForm.#current !== this) { return; }
		NewIssueForm.#current = undefined;
		this.#closed.fire(this.controller.createdIssueId);
		this.#store.dispose();
	}
}
