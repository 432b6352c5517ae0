// Runs a mocha suite inside code-server's Node extension host, the @vscode/test-electron way: the web client
// gets extensionDevelopmentPath + extensionTestsPath through `payload`, the extension host requires the test
// module and calls run(), and the workbench reports through window.codeAutomationLog / codeAutomationExit.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { format } from 'node:util';
import type { BrowserContext } from './playwright.js';
import { withTimeout } from './waitFor.js';
import { recordPageLog } from './workbench.js';

/** What test/vscode/host/runMocha.cjs writes to $TUTTI_VSCODE_RESULTS. */
export interface MochaSummary {
	readonly passed: number;
	readonly failed: number;
	readonly pending: number;
	readonly failures: readonly { readonly title: string; readonly message: string }[];
	/** The reporter's own lines (spec), without the workbench's log lines. */
	readonly output: string;
}

export interface ExtensionTestResult {
	/** The extension host's exit code: 0 when run() resolved, non-zero when it threw or rejected. */
	readonly exitCode: number;
	/** Everything the workbench logged through codeAutomationLog: mocha's output mixed with workbench log lines. */
	readonly output: string;
	/** Present when the suite used runMocha.cjs. */
	readonly summary?: MochaSummary;
}

export interface ExtensionTestPage {
	readonly context: BrowserContext;
	readonly url: string;
	readonly resultsFile: string;
	readonly pageLogFile: string;
	readonly timeoutMs: number;
	readonly onOutput?: (line: string) => void;
}

export async function runExtensionTestsInPage(options: ExtensionTestPage): Promise<ExtensionTestResult> {
	rmSync(options.resultsFile, { force: true });
	const page = await options.context.newPage();
	recordPageLog(page, options.pageLogFile);
	const lines: string[] = [];
	let reportExit: (code: number) => void = () => undefined;
	const exited = new Promise<number>((resolve) => (reportExit = resolve));
	try {
		await page.exposeFunction('codeAutomationLog', (_level: string, args: unknown[]) => {
			const line = format(...(Array.isArray(args) ? args : [args]));
			lines.push(line);
			options.onOutput?.(line);
		});
		await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(typeof code === 'number' ? code : 1));
		await page.goto(options.url, { timeout: 30_000, waitUntil: 'domcontentloaded' });
		let exitCode: number;
		try {
			exitCode = await withTimeout('the extension tests to finish (codeAutomationExit was never called)', options.timeoutMs, exited);
		} catch (error) {
			const last = lines.slice(-20).join('\n');
			throw new Error(`${(error as Error).message}\nlast output:\n${last || '(none)'}\npage log: ${options.pageLogFile}`);
		}
		const summary = existsSync(options.resultsFile) ? (JSON.parse(readFileSync(options.resultsFile, 'utf8')) as MochaSummary) : undefined;
		return { exitCode, output: lines.join('\n'), summary };
	} finally {
		await page.close().catch(() => undefined);
	}
}
