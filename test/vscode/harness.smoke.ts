// Proves the real-VS-Code tier end to end with the throwaway fixture extension:
//   UI: palette command -> file on disk -> "Hello Tutti" read from the webview -> screenshot;
//   extension host: a passing mocha suite exits 0, a deliberately failing one exits non-zero.
// Run: node --import tsx test/vscode/harness.smoke.ts [--screenshots DIR] [--with-vsix]
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readHarnessManifest } from './harness/manifest.js';
import { packageVsix } from './harness/vsix.js';
import { pollFor } from './harness/waitFor.js';
import { withVsCode, type VsCodeSession } from './runInVsCode.js';

const fixture = join(__dirname, 'fixtures', 'hello-extension');
const paletteLabel = 'Hello Tutti: Say Hello';

interface Check {
	readonly name: string;
	readonly body: () => Promise<void>;
}

async function runChecks(checks: readonly Check[]): Promise<number> {
	let passed = 0;
	let failed = 0;
	for (const check of checks) {
		const started = Date.now();
		try {
			await check.body();
			passed++;
			console.log(`  ✔ ${check.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		} catch (error) {
			failed++;
			console.log(`  ✘ ${check.name}\n    ${error instanceof Error ? error.message.replace(/\n/g, '\n    ') : String(error)}`);
		}
	}
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 ? 0 : 1;
}

async function sayHelloThroughTheUi(session: VsCodeSession, workspace: string, screenshotName: string): Promise<string> {
	const workbench = await session.openWorkbench();
	try {
		await workbench.runCommand(paletteLabel);
		const written = join(workspace, 'hello-tutti.txt');
		await pollFor(`${written} on disk`, 10_000, async () => (existsSync(written) ? true : undefined));
		assert.equal(readFileSync(written, 'utf8'), 'Hello Tutti\n');
		assert.equal(await workbench.webviewText('#hello', { contains: 'Hello Tutti' }), 'Hello Tutti');
		await workbench.waitForNotification('Hello Tutti wrote hello-tutti.txt');
		return await workbench.screenshot(screenshotName);
	} finally {
		await workbench.close();
	}
}

async function main(): Promise<number> {
	const { values } = parseArgs({ options: { screenshots: { type: 'string' }, 'with-vsix': { type: 'boolean' } } });
	const screenshotsDir = resolve(values.screenshots ?? join(tmpdir(), 'tutti-vscode-screenshots'));
	const scratch = mkdtempSync(join(tmpdir(), 'tutti-vscode-smoke-'));
	process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
	const started = Date.now();
	console.log('real VS Code harness smoke (code-server + Chromium)');
	try {
		const devWorkspace = join(scratch, 'workspace');
		const checks: Check[] = [];
		const code = await withVsCode(
			{ workspacePath: devWorkspace, extensionDevelopmentPath: fixture, screenshotsDir, log: (line) => console.log(`  [vscode] ${line}`) },
			async (session) => {
				checks.push(
					{
						name: 'UI: palette command writes the file, the webview shows "Hello Tutti", screenshot saved',
						body: async () => console.log(`    screenshot: ${await sayHelloThroughTheUi(session, devWorkspace, 'hello-tutti-webview')}`),
					},
					{
						name: 'extension host: the passing mocha suite exits 0',
						body: async () => {
							const result = await session.runExtensionTests({ extensionTestsPath: join(fixture, 'test', 'suite', 'index.js') });
							assert.equal(result.exitCode, 0, `exit code ${result.exitCode}\n${result.summary?.output ?? result.output}`);
							assert.equal(result.summary?.passed, 1);
							assert.match(result.output, /activates and registers helloTutti\.say/);
						},
					},
					{
						name: 'extension host: a failing mocha suite exits non-zero and reports the failure',
						body: async () => {
							const result = await session.runExtensionTests({ extensionTestsPath: join(fixture, 'test', 'failing', 'index.js') });
							assert.notEqual(result.exitCode, 0);
							assert.deepEqual([result.summary?.passed, result.summary?.failed], [1, 1]);
							assert.match(result.output, /deliberate failure/);
						},
					},
				);
				return runChecks(checks.splice(0));
			},
		);
		let vsixCode = 0;
		if (values['with-vsix']) {
			const vsix = await packageVsix(readHarnessManifest(), fixture, join(scratch, 'hello-extension.vsix'));
			const vsixWorkspace = join(scratch, 'vsix-workspace');
			vsixCode = await withVsCode({ workspacePath: vsixWorkspace, vsixPaths: [vsix], screenshotsDir }, (session) =>
				runChecks([
					{
						name: 'UI with the extension installed from a .vsix',
						body: async () => console.log(`    screenshot: ${await sayHelloThroughTheUi(session, vsixWorkspace, 'hello-tutti-vsix')}`),
					},
				]),
			);
		}
		console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return code || vsixCode;
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`harness smoke FAILED: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
