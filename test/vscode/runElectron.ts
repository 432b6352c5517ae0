// The same VS Code suite (test/vscode/suite) in a desktop VS Code through @vscode/test-electron, for machines that
// can download VS Code (a developer's laptop, CI with internet). This project's own machines have no internet, so
// `npm test` runs the suite through the code-server harness instead (test/vscode/runAll.ts).
// Run: npm run build && node --import tsx test/vscode/runElectron.ts [--version stable] [--workspace DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { version: { type: 'string', default: 'stable' }, workspace: { type: 'string' } } });
	const repo = resolve(__dirname, '..', '..');
	const workspace = values.workspace ?? mkdtempSync(join(tmpdir(), 'tutti-electron-ws-'));
	try {
		await runTests({
			version: values.version,
			extensionDevelopmentPath: repo,
			extensionTestsPath: join(repo, 'test', 'vscode', 'suite', 'electron.cjs'),
			launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
		});
	} finally {
		if (values.workspace === undefined) { rmSync(workspace, { recursive: true, force: true }); }
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
