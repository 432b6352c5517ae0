// The composition root: activate() builds the object graph explicitly and hands every disposable to the extension
// context on the line it is created (`own(...)`). Nothing else touches ExtensionContext.subscriptions.
import * as vscode from 'vscode';
import { PollingChangeSource } from './changes/storeChangeSource.js';
import { followAgentTargetsContext, followWorkspaceContext } from './contextKeys.js';
import { followConnection, restartOnSettingsChange, watchForStore } from './connection/connectionWiring.js';
import { HostConnection } from './connection/hostConnection.js';
import { workspaceSocketPath } from './connection/ownerEndpoint.js';
import type { ShowPanelOptions } from './commands/actionContext.js';
import { registerCommands } from './commands/registerCommands.js';
import { panelHostApi } from './panelHostAdapter.js';
import { NewIssueForm } from './panels/newIssueForm.js';
import type { NewIssueFormController } from './panels/newIssueFormController.js';
import { type IssuePanelRegistration, registerIssuePanel } from './panels/registerIssuePanel.js';
import { type ExtensionServices, requireClient } from './services.js';
import { readSettings } from './settings/readSettings.js';
import { hostConfigFromSettings, storeLocation } from './settings/tuttiSettings.js';
import type { HostConfig } from '../host/config.js';
import type { StoreLocation } from './settings/tuttiSettings.js';
import { registerDiffComments } from './review/diffComments.js';
import { registerStatusBar } from './status/statusBar.js';
import { registerApprovalNotifications } from './approvals/approvalNotifications.js';
import { installCliShim, publishCliEnvironment } from './terminal/cliEnvironment.js';
import { TuttiTerminals } from './terminal/tuttiTerminals.js';
import { registerIssueBoard } from './views/issueBoardView.js';
import { registerRunsView } from './views/runsView.js';
import { registerAgentsView } from './views/agentsView.js';
import { registerReviewDiffContext } from './review/reviewDiffContext.js';
import type { IntegrateConflict } from '../protocol/webview.js';

/** What activate() returns (`vscode.extensions.getExtension(id).exports`): the services, for tests and scripts. */
export interface TuttiExtensionApi {
	readonly services: ExtensionServices;
	/** The terminal environment this extension contributes (TUTTI_IPC_HOOK, PATH). */
	readonly environment: vscode.EnvironmentVariableCollection;
	/** The open issue panels (tests check the webview's `ready` → `snapshot` handshake through it). */
	readonly panels: IssuePanelRegistration;
	/** The open New Issue form's controller, if any (tests submit through it as the webview would). */
	readonly newIssueForm: () => NewIssueFormController | undefined;
}

function workspaceFolderPath(): string | undefined {
	const folder = vscode.workspace.workspaceFolders?.[0];
	return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

/** The Host's config and store location from the `tutti.*` settings; problems are logged and shown. */
function hostSettings(folder: string, log: vscode.LogOutputChannel): { config: HostConfig; store: StoreLocation } {
	const settings = readSettings();
	const { config, problems } = hostConfigFromSettings(settings);
	const store = storeLocation(folder, settings.storePath);
	for (const problem of [...problems, ...(store.warning ? [store.warning] : [])]) {
		log.warn(problem);
		void vscode.window.showWarningMessage(`Tutti settings: ${problem}`);
	}
	return { config, store };
}

export function activate(ctx: vscode.ExtensionContext): TuttiExtensionApi {
	const own = <T extends vscode.Disposable>(disposable: T): T => {
		ctx.subscriptions.push(disposable);
		return disposable;
	};
	const log = own(vscode.window.createOutputChannel('Tutti', { log: true }));
	const folder = workspaceFolderPath();
	// Disposing the connection closes this window's Host; every acknowledged write is already durable.
	const connection = own(new HostConnection({ workspace: folder, log: (line) => log.info(line), hostSettings: () => hostSettings(folder ?? '', log) }));
	const changes = own(new PollingChangeSource({ reader: () => connection.client }));
	const diffComments = own(registerDiffComments(connection.state.kind === 'noFolder' ? undefined : connection.state.workspace, ctx.workspaceState));
	const services: ExtensionServices = {
		extensionUri: ctx.extensionUri,
		workspace: connection.state.kind === 'noFolder' ? undefined : connection.state.workspace,
		connection,
		changes,
		log,
		client: () => requireClient(connection),
		reviewComments: diffComments.book,
		refresh: () => changes.refresh(),
	};
	own(followConnection(connection, changes));
	own(followWorkspaceContext(changes));
	own(followAgentTargetsContext());
	const terminals = own(new TuttiTerminals(services));
	const panels = own(registerIssuePanel({ extensionUri: ctx.extensionUri, api: panelHostApi(services) }));
	const panel = {
		show: (issueId: string, options: ShowPanelOptions = {}): void => { panels.showIssuePanel(issueId, options); },
		active: (): { issueId: string; selectedTaskId: string | null } | undefined => {
			const p = panels.activePanel();
			return p ? { issueId: p.issueId, selectedTaskId: p.view.selectedTaskId } : undefined;
		},
		showConflict: (issueId: string, conflict: IntegrateConflict): void => { panels.showIssuePanel(issueId).showConflict(conflict); },
	};
	const reviewDiffs = own(registerReviewDiffContext(services));
	own(registerCommands({ services, terminals, diffComments, reviewDiffs, panel }));
	own(registerIssueBoard(services));
	own(registerRunsView(services));
	own(registerAgentsView(services));
	own(registerStatusBar(services));
	own(registerApprovalNotifications(services));
	own(restartOnSettingsChange(connection, log));
	if (services.workspace !== undefined) {
		own(watchForStore(connection, services.workspace));
		const shimDir = installCliShim(ctx.globalStorageUri.fsPath, ctx.extensionPath);
		publishCliEnvironment(ctx.environmentVariableCollection, workspaceSocketPath(services.workspace), shimDir);
	}
	void connection.start();
	return { services, environment: ctx.environmentVariableCollection, panels, newIssueForm: () => NewIssueForm.current?.controller };
}

export function deactivate(): void {
	// Everything is disposed through ExtensionContext.subscriptions (the Host closes with its HostConnection).
}
