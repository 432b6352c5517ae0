// How the window follows its connection: context keys and a fresh read on every change, a viewer taking the store
// over when its owner goes away, a restart when a Host setting changes, and connecting when a store appears.
import * as vscode from 'vscode';
import { type Disposable, DisposableStore, toDisposable } from '../../core/lifecycle.js';
import type { StoreChangeSource } from '../changes/storeChangeSource.js';
import { HostCallError } from '../client/hostClient.js';
import { setConnectionContext } from '../contextKeys.js';
import { hostSettingKeys, settingsSection } from '../settings/tuttiSettings.js';
import type { ConnectionState, HostConnection } from './hostConnection.js';

/** At most one takeover attempt per this many ms (an owner that holds the lease but does not answer stays owner). */
const takeoverEveryMs = 2000;

export function followConnection(connection: HostConnection, changes: StoreChangeSource & { reset(): void }): vscode.Disposable {
	const store = new DisposableStore();
	// The window that owns the store hears its commits directly; a viewer polls the socket.
	// It also hears the agents' waits and calls, which change what the attention state says without a commit.
	let commits: Disposable | undefined;
	let contacts: Disposable | undefined;
	const followCommits = (state: ConnectionState): void => {
		commits?.dispose();
		contacts?.dispose();
		commits = state.kind === 'owner' ? changes.watchCommits(state.host.onDidCommit) : undefined;
		contacts = state.kind === 'owner' ? changes.watchCommits(state.host.onDidChangeContacts) : undefined;
	};
	store.add(toDisposable(() => { commits?.dispose(); contacts?.dispose(); }));
	followCommits(connection.state);
	setConnectionContext(connection.state.kind);
	store.add(connection.onDidChange((state) => {
		if (state.kind === 'owner' && state.host.startPause !== undefined) {
			void vscode.window.showWarningMessage(`Tutti: ${state.host.startPause.message}`);
		}
		followCommits(state);
		setConnectionContext(state.kind);
		changes.reset();
		void changes.refresh();
	}));
	let lastTakeover = 0;
	store.add(changes.onDidFail((error) => {
		const unreachable = error instanceof HostCallError && error.reasonCode === 'host_unavailable';
		if (connection.state.kind === 'viewer' && unreachable && Date.now() - lastTakeover >= takeoverEveryMs) {
			lastTakeover = Date.now();
			void connection.ownerLost();
		}
	}));
	return store;
}

/** The Host reads its settings when it starts: restart this window's Host when one of them changes (Runs go on). */
export function restartOnSettingsChange(connection: HostConnection, log: vscode.LogOutputChannel): vscode.Disposable {
	return vscode.workspace.onDidChangeConfiguration((e) => {
		if (connection.state.kind === 'owner' && hostSettingKeys.some((key) => e.affectsConfiguration(`${settingsSection}.${key}`))) {
			log.info('Tutti settings changed: restarting this window\'s Host to apply them');
			void connection.restart();
		}
	});
}

/** While there is no store, a store created by someone else (`tutti host` in a terminal) connects this window. */
export function watchForStore(connection: HostConnection, workspace: string): vscode.Disposable {
	const store = new DisposableStore();
	const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(workspace), '.tutti/*')));
	store.add(watcher.onDidCreate(() => {
		if (connection.state.kind === 'noStore' || connection.state.kind === 'unknownStore') {
			void connection.start();
		}
	}));
	return store;
}
