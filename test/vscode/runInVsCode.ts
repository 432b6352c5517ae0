// The "real VS Code" tier: code-server (VS Code's server and web workbench) from the harness folder, driven by
// playwright-core and Debian's Chromium. See shared/reference/vscode-harness.md and scripts/vscode-harness/install.sh.
//
// As a library: startVsCode()/withVsCode() give a session that opens workbench pages for UI steps and runs mocha
// suites inside the extension host. As a CLI (node --import tsx test/vscode/runInVsCode.ts --help) it runs a
// suite and/or palette commands and exits with the suite's exit code.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, type Browser } from './harness/browser.js';
import { codeServerDirs, codeServerEnv, installVsix, startCodeServer, type CodeServer } from './harness/codeServer.js';
import { runExtensionTestsInPage, type ExtensionTestResult } from './harness/extensionTests.js';
import { readHarnessManifest, type HarnessManifest } from './harness/manifest.js';
import { recordPageLog, Workbench } from './harness/workbench.js';
import { workbenchUrl } from './harness/workbenchUrl.js';

export interface VsCodeRunOptions {
	/** The folder the window opens. */
	readonly workspacePath: string;
	/** Loaded as the extension under development in every window (no install). */
	readonly extensionDevelopmentPath?: string;
	/** Installed into the run's extensions dir before code-server starts. */
	readonly vsixPaths?: readonly string[];
	/** Where Workbench.screenshot() writes; default <tmp>/tutti-vscode-screenshots. */
	readonly screenshotsDir?: string;
	/** Extra environment for code-server and so for the extension host. */
	readonly env?: Readonly<Record<string, string>>;
	/** Merged over the harness's quiet defaults in the run's User/settings.json. */
	readonly userSettings?: Readonly<Record<string, unknown>>;
	/** Default bound for each wait (ms). */
	readonly timeoutMs?: number;
	/** Keep the run folder (logs, profiles) instead of deleting it; TUTTI_VSCODE_KEEP=1 does the same. */
	readonly keepRunDir?: boolean;
	readonly log?: (line: string) => void;
}

export interface RunExtensionTestsOptions {
	/** Module whose run() starts mocha (see test/vscode/host/runMocha.cjs). */
	readonly extensionTestsPath: string;
	/** Defaults to the session's extensionDevelopmentPath. */
	readonly extensionDevelopmentPath?: string;
	readonly timeoutMs?: number;
	/** Each line of mocha output as it arrives. */
	readonly onOutput?: (line: string) => void;
}

export interface OpenWorkbenchOptions {
	/** Defaults to the session's extensionDevelopmentPath. */
	readonly extensionDevelopmentPath?: string;
	readonly timeoutMs?: number;
}

export interface VsCodeSession {
	readonly url: string;
	readonly runDir: string;
	readonly codeServerLog: string;
	/** A fresh workbench window on the workspace; close it before opening the next one. */
	openWorkbench(options?: OpenWorkbenchOptions): Promise<Workbench>;
	/** Runs a mocha suite inside the extension host in its own window and returns its exit code and output. */
	runExtensionTests(options: RunExtensionTestsOptions): Promise<ExtensionTestResult>;
	/** Ends Chromium and code-server (by pid, whole trees) and removes the run folder. */
	close(): Promise<void>;
}

const quietSettings: Readonly<Record<string, unknown>> = {
	'workbench.startupEditor': 'none',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'security.workspace.trust.enabled': false,
	'telemetry.telemetryLevel': 'off',
	'update.mode': 'none',
	'extensions.autoCheckUpdates': false,
	'extensions.autoUpdate': false,
	'chat.disableAIFeatures': true,
	'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

function writeUserSettings(userDataDir: string, settings: Readonly<Record<string, unknown>>): void {
	const dir = join(userDataDir, 'User');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...quietSettings, ...settings }, null, '\t'));
}

class Session implements VsCodeSession {
	private browser: Browser | undefined;
	private closed = false;
	private readonly killOnExit = (): void => this.killNow();
	private readonly closeOnSignal = (signal: NodeJS.Signals): void => {
		this.killNow();
		process.exit(signal === 'SIGINT' ? 130 : 143);
	};
	private readonly keepRunDir: boolean;

	constructor(
		private readonly manifest: HarnessManifest,
		private readonly options: VsCodeRunOptions,
		private readonly server: CodeServer,
		readonly runDir: string,
		private readonly timeoutMs: number,
	) {
		this.keepRunDir = options.keepRunDir ?? process.env.TUTTI_VSCODE_KEEP === '1';
		process.once('exit', this.killOnExit);
		process.once('SIGINT', this.closeOnSignal);
		process.once('SIGTERM', this.closeOnSignal);
	}

	get url(): string {
		return this.server.url;
	}

	get codeServerLog(): string {
		return this.server.logFile;
	}

	private async ensureBrowser(): Promise<Browser> {
		if (this.closed) {
			throw new Error('this VS Code session is closed');
		}
		this.browser ??= await launchBrowser(this.manifest, this.runDir, this.timeoutMs);
		return this.browser;
	}

	private url_(extensionDevelopmentPath: string | undefined, extensionTestsPath?: string): string {
		return workbenchUrl({
			serverUrl: this.server.url,
			remoteAuthority: this.server.host,
			workspacePath: this.options.workspacePath,
			extensionDevelopmentPath,
			extensionTestsPath,
		});
	}

	async openWorkbench(options: OpenWorkbenchOptions = {}): Promise<Workbench> {
		const browser = await this.ensureBrowser();
		const page = await browser.context.newPage();
		recordPageLog(page, join(this.runDir, 'page.log'));
		const workbench = new Workbench(page, this.options.screenshotsDir ?? join(tmpdir(), 'tutti-vscode-screenshots'), this.timeoutMs);
		try {
			const devPath = options.extensionDevelopmentPath ?? this.options.extensionDevelopmentPath;
			// The page's first byte waits as long as the workbench may take to show: a loaded machine delays both alike.
			await page.goto(this.url_(devPath), { timeout: options.timeoutMs ?? this.timeoutMs, waitUntil: 'domcontentloaded' });
			await workbench.waitUntilVisible(options.timeoutMs ?? this.timeoutMs);
		} catch (error) {
			await workbench.close();
			throw error;
		}
		return workbench;
	}

	async runExtensionTests(options: RunExtensionTestsOptions): Promise<ExtensionTestResult> {
		const browser = await this.ensureBrowser();
		const devPath = options.extensionDevelopmentPath ?? this.options.extensionDevelopmentPath;
		if (!devPath) {
			throw new Error('runExtensionTests needs an extensionDevelopmentPath (the extension the tests run in)');
		}
		return runExtensionTestsInPage({
			context: browser.context,
			url: this.url_(devPath, options.extensionTestsPath),
			resultsFile: join(this.runDir, 'results.json'),
			pageLogFile: join(this.runDir, 'page.log'),
			timeoutMs: options.timeoutMs ?? Math.max(this.timeoutMs, 120_000),
			onOutput: options.onOutput,
		});
	}

	/** Synchronous cleanup for process 'exit' and signals, when close() could not run. */
	private killNow(): void {
		this.browser?.killNow();
		this.server.killNow();
		if (!this.keepRunDir) {
			rmSync(this.runDir, { recursive: true, force: true });
		}
	}

	async close(): Promise<void> {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			await this.browser?.close();
		} finally {
			await this.server.stop();
			process.removeListener('exit', this.killOnExit);
			process.removeListener('SIGINT', this.closeOnSignal);
			process.removeListener('SIGTERM', this.closeOnSignal);
			if (!this.keepRunDir) {
				rmSync(this.runDir, { recursive: true, force: true, maxRetries: 3 });
			} else {
				this.options.log?.(`kept run folder ${this.runDir}`);
			}
		}
	}
}

/** Starts code-server for one run. Always close() the session (or use withVsCode). */
export async function startVsCode(options: VsCodeRunOptions): Promise<VsCodeSession> {
	const manifest = readHarnessManifest();
	const timeoutMs = options.timeoutMs ?? 60_000;
	const runDir = mkdtempSync(join(tmpdir(), 'tutti-vscode-'));
	const dirs = codeServerDirs(runDir);
	try {
		mkdirSync(options.workspacePath, { recursive: true });
		writeUserSettings(dirs.userDataDir, options.userSettings ?? {});
		const env = codeServerEnv(runDir, { TUTTI_VSCODE_RESULTS: join(runDir, 'results.json'), ...options.env });
		for (const vsix of options.vsixPaths ?? []) {
			options.log?.(`installing ${vsix}`);
			await installVsix(manifest, dirs, env, resolve(vsix), timeoutMs);
		}
		const server = await startCodeServer(manifest, dirs, env, resolve(options.workspacePath), timeoutMs);
		options.log?.(`code-server ${manifest.codeServerVersion} on ${server.url} (run folder ${runDir})`);
		return new Session(manifest, { ...options, workspacePath: resolve(options.workspacePath) }, server, runDir, timeoutMs);
	} catch (error) {
		if (!(options.keepRunDir ?? process.env.TUTTI_VSCODE_KEEP === '1')) {
			rmSync(runDir, { recursive: true, force: true });
		}
		throw error;
	}
}

/** startVsCode + body + close, whatever the body does. */
export async function withVsCode<T>(options: VsCodeRunOptions, body: (session: VsCodeSession) => Promise<T>): Promise<T> {
	const session = await startVsCode(options);
	try {
		return await body(session);
	} finally {
		await session.close();
	}
}

const usage = `usage: node --import tsx test/vscode/runInVsCode.ts [options]
  --extension DIR     extensionDevelopmentPath (loaded without install)
  --vsix FILE         install a .vsix first (repeatable)
  --workspace DIR     folder to open (default: a fresh temp folder)
  --tests PATH        extensionTestsPath: run this mocha suite in the extension host; exit with its code
  --command LABEL     run a palette command ("Category: Title") in a window, then screenshot (repeatable)
  --screenshots DIR   where screenshots go (default <tmp>/tutti-vscode-screenshots)
  --timeout SECONDS   bound for each wait (default 60)
  --keep              keep the run folder (logs, profiles)
  --verbose           print everything the workbench forwards (tests' console output, workbench logs)`;

async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({
		args: argv,
		options: {
			extension: { type: 'string' },
			vsix: { type: 'string', multiple: true },
			workspace: { type: 'string' },
			tests: { type: 'string' },
			command: { type: 'string', multiple: true },
			screenshots: { type: 'string' },
			timeout: { type: 'string' },
			keep: { type: 'boolean' },
			verbose: { type: 'boolean' },
			help: { type: 'boolean' },
		},
	});
	if (values.help || (!values.tests && !values.command)) {
		console.log(usage);
		return values.help ? 0 : 2;
	}
	const workspacePath = values.workspace ? resolve(values.workspace) : mkdtempSync(join(tmpdir(), 'tutti-vscode-ws-'));
	const started = Date.now();
	try {
		return await runCli(values, workspacePath);
	} finally {
		if (!values.workspace) {
			rmSync(workspacePath, { recursive: true, force: true });
		}
		console.log(`[vscode] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}
}

interface CliValues {
	readonly extension?: string;
	readonly vsix?: string[];
	readonly tests?: string;
	readonly command?: string[];
	readonly screenshots?: string;
	readonly timeout?: string;
	readonly keep?: boolean;
	readonly verbose?: boolean;
}

function runCli(values: CliValues, workspacePath: string): Promise<number> {
	return withVsCode(
		{
			workspacePath,
			extensionDevelopmentPath: values.extension ? resolve(values.extension) : undefined,
			vsixPaths: values.vsix,
			screenshotsDir: values.screenshots ? resolve(values.screenshots) : undefined,
			timeoutMs: values.timeout ? Number(values.timeout) * 1000 : undefined,
			keepRunDir: values.keep,
			log: (line) => console.log(`[vscode] ${line}`),
		},
		async (session) => {
			for (const [index, label] of (values.command ?? []).entries()) {
				const workbench = await session.openWorkbench();
				try {
					await workbench.runCommand(label);
					console.log(`[vscode] ran "${label}"; screenshot ${await workbench.screenshot(`command-${index + 1}`)}`);
				} finally {
					await workbench.close();
				}
			}
			if (!values.tests) {
				return 0;
			}
			const result = await session.runExtensionTests({
				extensionTestsPath: resolve(values.tests),
				timeoutMs: values.timeout ? Number(values.timeout) * 1000 : undefined,
				onOutput: values.verbose ? (line) => console.log(`[host] ${line}`) : undefined,
			});
			if (result.summary) {
				console.log(result.summary.output);
				console.log(`${result.summary.passed} passed, ${result.summary.failed} failed`);
			} else {
				console.log(result.output);
			}
			console.log(`[vscode] extension host exit code ${result.exitCode}`);
			return result.exitCode;
		},
	);
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(`[vscode] FAILED: ${error instanceof Error ? error.message : String(error)}`);
			process.exit(1);
		},
	);
}
