// One Issue panel (a webview editor tab per issue): the thin 'vscode' adapter around IssuePanelController.
// retainContextWhenHidden stays false: the page is rebuilt on show, and the `ready` handshake re-sends the snapshot.
import * as vscode from 'vscode';
import { DisposableStore, MutableDisposable } from '../../core/lifecycle.js';
import type { IntegrateConflict, PanelSnapshot, PanelViewState, TaskFormState } from '../../protocol/webview.js';
import { IssuePanelController } from './issuePanelController.js';
import { issuePanelHtml } from './issuePanelHtml.js';
import { newNonce } from './webviewPage.js';
import type { PanelHostApi } from './panelHostApi.js';
import type { SelectionContext } from './selectionContext.js';

/** The webview panel type (also the serializer's key). */
export const issuePanelViewType = 'tutti.taskGraph';

export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
	return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function issuePanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
	return { enableScripts: true, retainContextWhenHidden: false, enableFindWidget: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

export class IssuePanel implements vscode.Disposable {
	readonly issueId: string;
	readonly panel: vscode.WebviewPanel;
	readonly #store = new DisposableStore();
	readonly #controller: IssuePanelController;
	readonly #onDidDispose = this.#store.add(new vscode.EventEmitter<void>());
	/** The last "copied" status-bar message: a new copy replaces it, and closing the panel takes it away. */
	readonly #copiedMessage = this.#store.add(new MutableDisposable());
	/** The panel was closed (or its registration disposed). */
	readonly onDidDispose: vscode.Event<void> = this.#onDidDispose.event;
	#disposed = false;

	constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, api: PanelHostApi, issueId: string, view: PanelViewState, selection?: SelectionContext) {
		this.issueId = issueId;
		this.panel = panel;
		const root = webviewRoot(extensionUri);
		panel.webview.options = { enableScripts: true, localResourceRoots: [root] };
		panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'tutti.svg');
		panel.webview.html = issuePanelHtml({
			cspSource: panel.webview.cspSource,
			scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'issuePanel.js')).toString(),
			styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'issuePanel.css')).toString(),
			nonce: newNonce(),
			issueId,
			title: panel.title,
		});
		const port = {
			get visible(): boolean { return panel.visible; },
			postMessage: (message: unknown): Thenable<boolean> => panel.webview.postMessage(message),
			setTitle: (title: string): void => { if (panel.title !== title) { panel.title = title; } },
		};
		const effects = {
			executeCommand: (command: string, args: readonly unknown[]): Thenable<unknown> => vscode.commands.executeCommand(command, ...args),
			copyToClipboard: async (text: string): Promise<void> => {
				await vscode.env.clipboard.writeText(text);
				this.#copiedMessage.value = vscode.window.setStatusBarMessage('Tutti: command copied to the clipboard', 3000);
			},
			warn: (message: string): void => console.warn(message),
		};
		this.#controller = this.#store.add(new IssuePanelController(issueId, api, port, effects, view));
		this.#store.add(panel.webview.onDidReceiveMessage((m: unknown) => this.#controller.receive(m)));
		this.#store.add(panel.onDidChangeViewState(() => this.#controller.visibilityChanged()));
		if (selection !== undefined) {
			// The keybindings act on the active panel's selected task: its controls, as the last snapshot drew them.
			const follow = (): void => {
				if (!panel.active) { selection.release(this); return; }
				const selected = this.#controller.view.selectedTaskId;
				const last = this.#controller.lastSnapshot;
				selection.set(this, selected === null || last === null ? undefined : last.issue.tasks.find((t) => t.taskId === selected)?.controls);
			};
			this.#store.add(panel.onDidChangeViewState(follow));
			this.#store.add(this.#controller.onDidPostSnapshot(follow));
			this.#store.add({ dispose: () => selection.release(this) });
		}
		this.#store.add(panel.onDidDispose(() => this.dispose()));
	}

	/** Fires after each snapshot reaches the webview (the VS Code tests check the `ready` → `snapshot` handshake with it). */
	get onDidPostSnapshot(): vscode.Event<PanelSnapshot> {
		return (listener, thisArgs?, disposables?) => {
			const d = this.#controller.onDidPostSnapshot((s) => listener.call(thisArgs, s));
			disposables?.push(d);
			return d;
		};
	}

	get lastSnapshot(): PanelSnapshot | null { return this.#controller.lastSnapshot; }
	get view(): PanelViewState { return this.#controller.view; }

	/** Resolves with the first snapshot the webview received (now, if it already has one). */
	waitForSnapshot(timeoutMs = 10_000): Promise<PanelSnapshot> {
		const last = this.#controller.lastSnapshot;
		if (last) { return Promise.resolve(last); }
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => { sub.dispose(); reject(new Error(`issue panel ${this.issueId}: no snapshot within ${timeoutMs} ms (no 'ready' from the webview?)`)); }, timeoutMs);
			const sub = this.#controller.onDidPostSnapshot((s) => { clearTimeout(timer); sub.dispose(); resolve(s); });
		});
	}

	reveal(column?: vscode.ViewColumn, preserveFocus = false): void {
		this.panel.reveal(column, preserveFocus);
	}

	/** Selects a task (as if clicked) and re-sends the snapshot. */
	selectTask(taskId: string): void {
		this.#controller.setView({ selectedTaskId: taskId });
	}

	/** Shows the conflict Integrate met, until the issue's delivery state changes. */
	showConflict(conflict: IntegrateConflict): void {
		this.#controller.showConflict(conflict);
	}

	/** Opens the task form (adding a task, or editing one) and re-sends the snapshot. */
	openTaskForm(form: TaskFormState): void {
		this.#controller.setView({ taskForm: form });
	}

	/** Detaches from the webview. The tab itself is closed by the user (or by `close()`), never on deactivate. */
	dispose(): void {
		if (this.#disposed) { return; }
		this.#disposed = true;
		this.#onDidDispose.fire();
		this.#store.dispose();
	}

	close(): void {
		this.panel.dispose();
	}
}
