// Terminal integration, as VS Code's git extension does it (only stable values, so terminals never ask to relaunch): every terminal of this workspace gets TUTTI_IPC_HOOK (the
// socket path, derived from the workspace path) and the shim directory first on PATH. Both values are stable
// across reloads and updates, so VS Code never asks to relaunch terminals; the volatile paths (VS Code's Node,
// this version's dist/cli.js) live inside the shim file, rewritten when they change.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { ensureCliShim } from '../../host/runs/cliShim.js';

export const ipcHookVariable = 'TUTTI_IPC_HOOK';

/** Writes `<globalStorage>/bin/tutti` for this VS Code and this extension version; returns the bin directory. */
export function installCliShim(globalStoragePath: string, extensionPath: string): string {
	// Microsoft's builds only honour ELECTRON_RUN_AS_NODE with this flag (as git's askpass does).
	const nodeArgs = (process.versions as Record<string, string | undefined>)['microsoft-build'] !== undefined ? ['--ms-enable-electron-run-as-node'] : [];
	return ensureCliShim(path.join(globalStoragePath, 'bin'), process.execPath, nodeArgs, path.join(extensionPath, 'dist', 'cli.js'));
}

export function publishCliEnvironment(collection: vscode.EnvironmentVariableCollection, socketPath: string, shimDir: string): void {
	collection.description = 'Lets `tutti` in this terminal reach this window\'s Tutti Host';
	collection.replace(ipcHookVariable, socketPath);
	collection.prepend('PATH', `${shimDir}${path.delimiter}`);
}
