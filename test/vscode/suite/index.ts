// extensionTestsPath of the Tutti suite (code-server harness or @vscode/test-electron): VS Code requires this
// module in the extension host and calls run(<this path>). Written with erasable TypeScript only, so Node's own
// type stripping can load it; the test files themselves run through tsx (runMocha's `require: ['tsx/cjs']`).
// TUTTI_VSCODE_SUITE picks the files: `owner` (default; this window owns a fresh store) or `viewer` (a headless
// Host owns the store before the window opens).
import * as path from 'node:path';
import { createRequire } from 'node:module';

interface RunMocha {
	runMocha(files: string[], options?: { timeout?: number; grep?: string; require?: string[] }): Promise<unknown>;
}

const suites: Readonly<Record<string, readonly string[]>> = {
	owner: ['activation.test.ts', 'commands.test.ts', 'settings.test.ts', 'terminal.test.ts', 'actions.test.ts', 'runOutput.test.ts', 'panel.test.ts', 'startFromUi.test.ts'],
	viewer: ['viewer.test.ts'],
};

export function run(testsPath: string): Promise<unknown> {
	const dir = path.dirname(testsPath);
	const suite = process.env['TUTTI_VSCODE_SUITE'] ?? 'owner';
	const files = suites[suite];
	if (files === undefined) {
		return Promise.reject(new Error(`unknown TUTTI_VSCODE_SUITE "${suite}" (known: ${Object.keys(suites).join(', ')})`));
	}
	const load = createRequire(testsPath);
	const { runMocha } = load(path.join(dir, '..', 'host', 'runMocha.cjs')) as RunMocha;
	const grep = process.env['TUTTI_VSCODE_GREP'];
	return runMocha(files.map((f) => path.join(dir, f)), { require: ['tsx/cjs'], timeout: 60_000, ...(grep ? { grep } : {}) });
}
