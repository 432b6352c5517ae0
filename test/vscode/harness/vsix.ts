// Packages an extension folder into a .vsix with the harness's @vscode/vsce (run under the machine's Node).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { HarnessManifest } from './manifest.js';

const run = promisify(execFile);

export async function packageVsix(manifest: HarnessManifest, extensionDir: string, outFile: string): Promise<string> {
	try {
		await run(process.execPath, [manifest.vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', outFile], {
			cwd: extensionDir,
			timeout: 120_000,
		});
	} catch (error) {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(`vsce package in ${extensionDir} failed: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`);
	}
	return outFile;
}
