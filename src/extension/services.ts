// What the views, commands, terminals and the issue panel share, built once by the composition root
// (extension.ts) and passed explicitly: no service locator, no module-level state.
import type * as vscode from 'vscode';
import type { StoreChangeSource } from './changes/storeChangeSource.js';
import type { HostClient } from './client/hostClient.js';
import type { HostConnection } from './connection/hostConnection.js';
import type { ReviewCommentBook } from './review/reviewCommentBook.js';

export interface ExtensionServices {
	readonly extensionUri: vscode.Uri;
	/** The workspace folder's real path, or undefined when the window has no folder. */
	readonly workspace: string | undefined;
	/** owner / viewer / noStore / …, with its change event. */
	readonly connection: HostConnection;
	/** Fires after any store change from any source; `changes.current` is the newest state. */
	readonly changes: StoreChangeSource;
	readonly log: vscode.LogOutputChannel;
	/** The client for the current Host; throws a clear, user-facing error when there is none. */
	client(): HostClient;
	/** Comments on tasks' diffs, sent with Request changes. */
	readonly reviewComments: ReviewCommentBook;
	/** Re-reads the store now (call after an action so views update without waiting for the next poll). */
	refresh(): Promise<void>;
}

/** The connection's client, or a clear error saying why there is none. */
export function requireClient(connection: HostConnection): HostClient {
	const client = connection.client;
	if (client === undefined) {
		throw new Error(noHostMessage(connection));
	}
	return client;
}

/** Why there is no client, in words for the developer. */
export function noHostMessage(connection: HostConnection): string {
	const state = connection.state;
	switch (state.kind) {
		case 'noFolder': return 'Tutti needs a folder: open one first.';
		case 'noStore': return 'Tutti is not started in this folder yet: run "Tutti: Start in Folder".';
		case 'unknownStore': return 'This folder came with a Tutti store that this machine has not opened: nothing runs by itself. Run "Tutti: Start in Folder" to open it with every issue paused.';
		case 'starting': return 'Tutti is still starting in this folder; try again in a moment.';
		case 'failed': return `Tutti could not start in this folder: ${state.message}`;
		default: return 'Tutti is not connected.';
	}
}
