// Helpers for the suite: the activated extension's API and bounded polling (never assertions on timing).
import * as vscode from 'vscode';
import type { TuttiExtensionApi } from '../../../src/extension/extension.js';

export const extensionId = 'tutti.tutti-vscode';

export async function tutti(): Promise<TuttiExtensionApi> {
	const extension = vscode.extensions.getExtension<TuttiExtensionApi>(extensionId);
	if (!extension) {
		throw new Error(`extension ${extensionId} is not loaded`);
	}
	return extension.activate();
}

/** Polls until `probe` returns something other than undefined; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) {
				return value;
			}
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
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
