// Helpers for the suite: the activated extension's API and bounded polling (never assertions on timing).
import * as vscode from 'vscode';
import type { TuttiExtensionApi } from '../../../src/extension/extension.js';
import { waitFor as pollUntil } from '../../waitFor.js';

export const extensionId = 'tutti.tutti-vscode';

export async function tutti(): Promise<TuttiExtensionApi> {
	const extension = vscode.extensions.getExtension<TuttiExtensionApi>(extensionId);
	if (!extension) {
		throw new Error(`extension ${extensionId} is not loaded`);
	}
	return extension.activate();
}

/** The shared poll (test/waitFor.ts) in the suite's argument order: fails naming `what` and the last value after `timeoutMs`. */
export function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
	return pollUntil(probe, { what, timeoutMs, intervalMs: 100 });
}

/** The extension with this window owning the store ("Start in Folder" if the folder has none yet). */
export async function ownerReady(): Promise<TuttiExtensionApi> {
	const api = await tutti();
	const { connection } = api.services;
	await waitFor('the connection to settle', () => (connection.state.kind === 'starting' ? undefined : true));
	if (connection.state.kind === 'noStore') {
		await vscode.commands.executeCommand('tutti.startInFolder');
	}
	await waitFor('the Host to run in this window', () => (connection.state.kind === 'owner' ? true : undefined));
	return api;
}
