// Where scripts/vscode-harness/install.sh put Node 24, code-server, playwright-core and vsce.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface HarnessManifest {
	readonly stamp: string;
	readonly node24: string;
	readonly codeServerEntry: string;
	readonly codeServerVersion: string;
	readonly playwrightCore: string;
	readonly vsce: string;
	readonly chromium: string;
}

export const installCommand = 'bash scripts/vscode-harness/install.sh';

export function harnessDir(): string {
	return process.env.TUTTI_HARNESS_DIR ?? join(homedir(), '.cache', 'tutti-vscode-harness');
}

/** Reads harness.json; throws a message that says how to install when anything is missing. */
export function readHarnessManifest(dir: string = harnessDir()): HarnessManifest {
	const file = join(dir, 'harness.json');
	if (!existsSync(file)) {
		throw new Error(`VS Code test harness not installed (no ${file}); run: ${installCommand}`);
	}
	const manifest = JSON.parse(readFileSync(file, 'utf8')) as HarnessManifest;
	for (const path of [manifest.node24, manifest.codeServerEntry, manifest.playwrightCore, manifest.chromium]) {
		if (!existsSync(path)) {
			throw new Error(`VS Code test harness is incomplete (${path} is missing); run: ${installCommand}`);
		}
	}
	return manifest;
}
