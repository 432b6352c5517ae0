// The composition root: activate() builds the object graph explicitly and registers every disposable with the
// extension context on the line it is created. Nothing else touches ExtensionContext.subscriptions.
import * as vscode from 'vscode';
import { DisposableStore } from '../core/lifecycle.js';
import { PollingChangeSource } from './changes/storeChangeSource.js';
import { HostCallError } from './client/hostClient.js';
import type { ActionContext } from './commands/actionContext.js';
import { registerCommands } from './commands/registerCommands.js';
import { HostConnection } from './connection/hostConnection.js';
import { workspaceSocketPath } from './connection/ownerEndpoint.js';
import { setConnectionContext } from './contextKeys.js';
import { panelHostApi } from './panelHostAdapter.js';
import { type IssuePanelRegistration, registerIssuePanel } from './panels/registerIssuePanel.js';
import { type ExtensionServices, noHostMessage } from './services.js';
import { readSettings } from './settings/readSettings.js';
import { hostConfigFromSettings, hostSettingKeys, settingsSection, storeLocation } from './settings/tuttiSettings.js';
import { registerStatusBar } from './status/statusBar.js';
import { installCliShim, publishCliEnvironment } from './terminal/cliEnvironment.js';
import { TuttiTerminals } from './terminal/tuttiTerminals.js';
import { registerIssueBoard } from './views/issueBoardView.js';

/** What activate() returns (`vscode.extensions.getExtension(id).exports`): the services, for tests and scripts. */
export interface TuttiExtensionApi {
	readonly services: ExtensionServices;
	/** The terminal environment this extension contributes (TUTTI_IPC_HOOK, PATH). */
	readonly environment: vscode.EnvironmentVariableCollection;
	/** The open issue panels (tests check the webview's `ready` → `snapshot` handshake through it). */
	readonly panels: IssuePanelRegistration;
}

function workspaceFolderPath(): string | undefined {
	const folder = vscode.workspace.workspaceFolders?.[0];
	return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

export function activate(ctx: vscode.ExtensionContext): TuttiExtensionApi {
	const log = vscode.window.createOutputChannel('Tutti', { log: true });
	ctx.subscriptions.push(log);
	const folder = workspaceFolderPath();
	const connection = new HostConnection({
		workspace: folder,
		log: (line) => log.info(line),
		hostSettings: () => {
			const settings = readSettings();
			const { config, problems } = hostConfigFromSettings(settings);
			const store = storeLocation(folder ?? '', settings.storePath);
			for (const problem of [...problems, ...(store.warning ? [store.warning] : [])]) {
				log.warn(problem);
				void vscode.window.showWarningMessage(`Tutti settings: ${problem}`);
			}
			return { config, store };
		},
	});
	ctx.subscriptions.push(connection); // dispose() closes this window's Host; acknowledged writes are already durable
	const changes = new PollingChangeSource({ reader: () => connection.client });
	ctx.subscriptions.push(changes);
	const workspace = connection.state.kind === 'noFolder' ? undefined : connection.state.workspace;
	const services: ExtensionServices = {
		extensionUri: ctx.extensionUri,
		workspace,
		connection,
		changes,
		log,
		client: () => {
			const client = connection.client;
			if (client === undefined) {
				throw new Error(noHostMessage(connection));
			}
			return client;
		},
		refresh: () => changes.refresh(),
	};

	ctx.subscriptions.push(connection.onDidChange((state) => {
		setConnectionContext(state.kind);
		changes.reset();
		void changes.refresh();
	}));
	setConnectionContext(connection.state.kind);
	// A viewer whose owner went away takes the store over (or finds the new owner).
	ctx.subscriptions.push(changes.onDidFail((error) => {
		if (connection.state.kind === 'viewer' && error instanceof HostCallError && error.reasonCode === 'host_unavailable') {
			void connection.ownerLost();
		}
	}));

	const terminals = new TuttiTerminals(services);
	ctx.subscriptions.push(terminals);
	const panels = registerIssuePanel({ extensionUri: ctx.extensionUri, api: panelHostApi(services) });
	ctx.subscriptions.push(panels);
	const actions: ActionContext = { services, terminals, panel: { show: (issueId) => { panels.showIssuePanel(issueId); } } };
	ctx.subscriptions.push(registerCommands(actions));
	ctx.subscriptions.push(registerIssueBoard(services));
	ctx.subscriptions.push(registerStatusBar(services));
	ctx.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
		if (hostSettingKeys.some((key) => e.affectsConfiguration(`${settingsSection}.${key}`)) && connection.state.kind === 'owner') {
			log.info('Tutti settings changed: restarting this window\'s Host to apply them');
			void connection.restart();
		}
	}));

	if (workspace !== undefined) {
		ctx.subscriptions.push(watchForStore(connection, workspace));
		const shimDir = installCliShim(ctx.globalStorageUri.fsPath, ctx.extensionPath);
		publishCliEnvironment(ctx.environmentVariableCollection, workspaceSocketPath(workspace), shimDir);
	}
	void connection.start();
	return { services, environment: ctx.environmentVariableCollection, panels };
}

/** While there is no store, a store created by someone else (`tutti host` in a terminal) connects this window. */
function watchForStore(connection: HostConnection, workspace: string): vscode.Disposable {
	const store = new DisposableStore();
	const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(workspace), '.tutti/*')));
	const retry = (): void => {
		if (connection.state.kind === 'noStore') {
			void connection.start();
		}
	};
	store.add(watcher.onDidCreate(retry));
	return store;
}

export function deactivate(): void {
	// Everything is disposed through ExtensionContext.subscriptions (the Host closes with its HostConnection).
}
