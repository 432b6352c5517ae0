// `npm run demo -- --ui`: the demo in VS Code in a browser, without VS Code installed. Packages the extension
// (.vsix, with the harness's vsce), installs it into code-server from the VS Code test harness
// (scripts/vscode-harness/install.sh), starts code-server on 127.0.0.1 with the demo's git workspace open, prints the
// URL and waits for a window: once the page is open, the extension's Host serves the folder and the demo's scripted
// source agent runs the demo issue in it through the CLI, so the board, the panel and the graph show it live.
// It keeps serving until Ctrl-C, which stops everything it started (the orchestrator, code-server and its
// extension host, the optional headless browser) and removes its temporary folders.
// Flags: --headless (open the window in the harness's headless Chromium, for a run without a person; it stops once
// the demo issue has finished), --keep (keep the temporary folders).
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveEndpoint } from '../src/cli/discovery.js';
import type { PlanSnapshotDto } from '../src/protocol/dto.js';
import { launchBrowser, type Browser } from '../test/vscode/harness/browser.js';
import { codeServerDirs, codeServerEnv, installVsix, startCodeServer, type CodeServer } from '../test/vscode/harness/codeServer.js';
import { readHarnessManifest, type HarnessManifest } from '../test/vscode/harness/manifest.js';
import { packageVsix } from '../test/vscode/harness/vsix.js';
import { workbenchUrl } from '../test/vscode/harness/workbenchUrl.js';
import { bold, childEnv, cliJson, demoAgentTargets, dim, elapsed, initRepository, runOrchestrator, startHost, stopHost, summarize, writeConfig } from './demo.js';
import { demoIssue } from './workers/demoPlan.js';

const repoRoot = resolve(__dirname, '..');
const windowWaitMs = 30 * 60_000;

export interface DemoUiOptions {
	readonly keep: boolean;
	readonly headless: boolean;
}

/** The harness, or null after saying which command installs it (the manifest's error names it). */
function harness(): HarnessManifest | null {
	try {
		return readHarnessManifest();
	} catch (error) {
		process.stderr.write(`demo --ui runs VS Code (code-server) from the test harness, which is not ready: ${error instanceof Error ? error.message : String(error)}\n`);
		return null;
	}
}

function writeWorkspaceSettings(workspace: string): void {
	mkdirSync(join(workspace, '.vscode'), { recursive: true });
	writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({
		'tutti.agentTargets': demoAgentTargets(),
		'tutti.maxParallelRuns': 4,
		// Unattended (the developer's settings; the source session may not switch the gates off itself).
		'tutti.autoAcceptDefault': true,
		'tutti.developerConfirmation': false,
	}, null, '\t'));
}

/** Creates the folder's store (a CLI Host started and stopped): a window starts its Host for a folder that has one. */
async function createStore(workspace: string, runtimeDir: string): Promise<void> {
	writeConfig(workspace);
	await stopHost(await startHost(workspace, childEnv(runtimeDir)));
}

function writeUserSettings(userDataDir: string): void {
	mkdirSync(join(userDataDir, 'User'), { recursive: true });
	writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({
		'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false,
		'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
		'chat.disableAIFeatures': true, 'workbench.secondarySideBar.defaultVisibility': 'hidden',
	}, null, '\t'));
}

/** Resolves with the window's Host socket once a window has opened the folder and its Host answers. */
async function waitForWindowHost(workspace: string, env: NodeJS.ProcessEnv, stopped: () => boolean): Promise<string | null> {
	const deadline = Date.now() + windowWaitMs;
	while (Date.now() < deadline && !stopped()) {
		const endpoint = resolveEndpoint(env, workspace);
		if (endpoint) {
			try {
				await cliJson(['issue', 'list', '--as-user'], { ...env, TUTTI_IPC_HOOK: endpoint.socketPath });
				return endpoint.socketPath;
			} catch {
				// the Host is still starting
			}
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	return null;
}

export async function runDemoUi(options: DemoUiOptions): Promise<number> {
	const manifest = harness();
	if (!manifest) { return 1; }
	if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
		process.stderr.write('demo --ui: dist/extension.js is missing; run `npm run build` first (npm run demo does)\n');
		return 1;
	}
	const startedAt = Date.now();
	const base = mkdtempSync(join(tmpdir(), 'tutti-demo-ui-'));
	const workspace = join(base, 'workspace');
	const runtimeDir = join(base, 'rt');
	const runDir = join(base, 'code-server');
	mkdirSync(workspace);
	mkdirSync(runtimeDir, { mode: 0o700 });
	mkdirSync(runDir);
	let server: CodeServer | undefined;
	let browser: Browser | undefined;
	let orchestrator: ChildProcess | undefined;
	let stopping = false;
	let release: () => void = () => undefined;
	const untilStopped = new Promise<void>((r) => { release = r; });
	const onSignal = (): void => {
		if (stopping) { return; }
		stopping = true;
		process.stdout.write(`\n${dim('stopping: the orchestrator, code-server and its extension host …')}\n`);
		release();
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	const say = (line: string): void => { process.stdout.write(`${dim(elapsed(startedAt))}  ${line}\n`); };
	try {
		initRepository(workspace);
		writeWorkspaceSettings(workspace);
		await createStore(workspace, runtimeDir);
		const vsix = join(base, 'tutti.vsix');
		say('packaging the extension (vsce) …');
		await packageVsix(manifest, repoRoot, vsix);
		const dirs = codeServerDirs(runDir);
		// One runtime dir for code-server's extension host (its Host's socket and discovery file) and the CLI.
		const env = codeServerEnv(runDir, { XDG_RUNTIME_DIR: runtimeDir });
		say('installing it into code-server …');
		await installVsix(manifest, dirs, env, vsix, 120_000);
		writeUserSettings(dirs.userDataDir);
		server = await startCodeServer(manifest, dirs, env, workspace, 60_000);
		const url = workbenchUrl({ serverUrl: server.url, remoteAuthority: server.host, workspacePath: workspace });
		process.stdout.write(`\n${bold('Open the cockpit:')} ${url}\n${dim(`(code-server ${manifest.codeServerVersion}, pid ${server.pid}; Ctrl-C stops everything)`)}\n\n`);
		if (options.headless) {
			browser = await launchBrowser(manifest, runDir, 60_000);
			const page = await browser.context.newPage();
			await page.goto(url, { timeout: 60_000, waitUntil: 'domcontentloaded' });
		}
		say(options.headless ? 'waiting for the headless window\'s Host …' : 'waiting for you to open the URL (the window starts the Host) …');
		const userEnv = childEnv(runtimeDir);
		const socket = await waitForWindowHost(workspace, userEnv, () => stopping);
		if (!socket) {
			if (!stopping) { process.stderr.write('demo --ui: no window opened the folder in 30 minutes; stopping\n'); }
			return stopping ? 0 : 1;
		}
		say(`the window's Host answers (socket ${socket})`);
		const asUser = childEnv(runtimeDir, { TUTTI_IPC_HOOK: socket });
		const session = await cliJson<{ sessionId: string; token: string }>(['session', 'open', '--role', 'source', '--as-user'], asUser);
		const sourceEnv = childEnv(runtimeDir, { TUTTI_IPC_HOOK: socket, TUTTI_SESSION_TOKEN: session.token });
		const created = await cliJson<{ issueId: string }>(['plan', 'issue', 'create', '--title', demoIssue.title,
			'--content', demoIssue.content, '--request-id', `demo-ui-${process.pid}`], sourceEnv);
		say(`managed issue ${created.issueId} "${demoIssue.title}": open it from the Tutti view to watch its graph`);
		const run = runOrchestrator(created.issueId, sourceEnv, startedAt, (child) => { orchestrator = child; });
		const finished = await Promise.race([run, untilStopped.then(() => null)]);
		if (finished) {
			const final = await cliJson<PlanSnapshotDto>(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full'], sourceEnv);
			await summarize(final, sourceEnv, startedAt);
			process.stdout.write(`\n${bold(final.execution.status === 'completed' ? 'The demo issue completed' : `The demo issue is ${final.execution.status}`)} in VS Code at ${url}\n` +
				`${dim('It keeps serving: look around (board, panel, graph, list); Ctrl-C stops everything.')}\n`);
			if (options.headless) { release(); }
			await untilStopped;
			return final.execution.status === 'completed' && finished.code === 0 ? 0 : 1;
		}
		return 0;
	} catch (error) {
		process.stderr.write(`demo --ui failed: ${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		if (orchestrator && orchestrator.exitCode === null) { orchestrator.kill('SIGTERM'); }
		await browser?.close();
		await server?.stop();
		if (options.keep) {
			process.stdout.write(dim(`kept ${base}\n`));
		} else {
			rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
		}
	}
}
