// The real-VS-Code tier for Tutti: the extension-host suites (owner, viewer) and the Playwright UI test, each in
// a fresh code-server with a fresh workspace. Builds nothing: run `npm run build` first (dist/extension.js,
// dist/cli.js, dist/supervisor.js). Prints "N passed, N failed" and exits non-zero on any failure.
// The last stage packages the extension (.vsix, with the harness's vsce) and installs it into code-server with no
// development path, so the packaged bundle itself is what runs.
//   node --import tsx test/vscode/runAll.ts [--only owner|viewer|ui|journey|codex|vsix|cockpit|agents-view|integrate-conflict] [--screenshots DIR] [--docs-screenshots] [--verbose]
// (`cockpit` runs only the `ui` stage's last part, test/vscode/ui/cockpit.ui.ts, in a workspace of its own; with
// --docs-screenshots it copies only its own screens.)
// --docs-screenshots copies the board and panel screenshots of the `ui` stage (Light+, Dark+, High Contrast) into
// docs/screenshots/ (for the README).
// The `ui` stage runs the board test, then the issue panel test (test/vscode/ui/panel.ui.ts), then starting work
// from the UI (test/vscode/ui/startFromUi.ui.ts), then the cockpit's second pass (test/vscode/ui/cockpit.ui.ts) in the
// same code-server.
// The `journey` stage is issue 12's "Done when" (test/vscode/ui/developerJourney.ui.ts) in a code-server of its own
// (its status bar must count one issue), with a scripted Claude Code on PATH (test/vscode/ui/scriptedClaude.ts).
// The `agents-view` stage (test/vscode/ui/cockpitExtension.ui.ts): a custom command agent added without JSON, the
// Agents view, the diff editor's Accept / Request Changes, Open Combined Diff and the board's menus per issue, in a
// code-server of its own.
// The `integrate-conflict` stage (test/vscode/ui/integrateConflict.ui.ts): Ready to integrate, an Integrate refused by a
// conflict after main moved, Open the task's tree (a terminal in its worktree), Update from base, the new attempt
// accepted again, then integrated, all from the panel.
// The `codex` stage (test/vscode/ui/codexApproval.ui.ts) answers a codex app-server worker's approval from the
// notification, the pinned Codex CLI against a scripted Responses server on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { codeServerEnv } from './harness/codeServer.js';
import { readHarnessManifest } from './harness/manifest.js';
import { packageVsix } from './harness/vsix.js';
import { type VsCodeSession, withVsCode } from './runInVsCode.js';
import { runBoardUi, runVsixSmoke, type UiResult } from './ui/board.ui.js';
import { runPanelUi } from './ui/panel.ui.js';
import { killAllRuns } from '../integration/runs/runTestKit.js';
import { ensureGitRepository } from './ui/gitWorkspace.js';
import { journeyFix, journeyTask, runDeveloperJourney } from './ui/developerJourney.ui.js';
import { startScriptedClaude } from './ui/scriptedClaude.js';
import { runStartUi } from './ui/startFromUi.ui.js';
import { cockpitScreens, runCockpitUi } from './ui/cockpit.ui.js';
import { integrateConflictScreens, mergerTarget, prepareConflictWorkspace, runIntegrateConflictUi } from './ui/integrateConflict.ui.js';
import { codexApprovalScript, codexApprovalTarget, runCodexApprovalUi } from './ui/codexApproval.ui.js';
import { startScriptedServer } from '../agents/modelServer/server.js';
import { machineOnlyAgent, prepareCockpitWorkspace, runCockpitUi as runAgentsViewUi } from './ui/cockpitExtension.ui.js';

const repoRoot = resolve(__dirname, '..', '..');
const suiteIndex = join(__dirname, 'suite', 'index.ts');
/** docs/screenshots/<name>.png ← the `journey` stage's screenshot of that name (a live transcript in three themes). */
const journeyDocsScreenshots: Readonly<Record<string, string>> = Object.fromEntries(['light', 'dark', 'hc'].map((theme) => [`panel-transcript-live-${theme}`, `panel-transcript-live-${theme}`]));

/** docs/screenshots/<name>.png ← the cockpit's screenshot of that name (its new screens in three themes). */
const cockpitDocsScreenshots: Readonly<Record<string, string>> = Object.fromEntries(cockpitScreens.flatMap((view) => ['light', 'dark', 'hc'].map((theme) => [`${view}-${theme}`, `${view}-${theme}`])));

/** docs/screenshots/<name>.png ← the `integrate-conflict` stage's screenshot of that name (Ready to integrate, the conflict). */
const integrateConflictDocsScreenshots: Readonly<Record<string, string>> = Object.fromEntries(integrateConflictScreens.flatMap((view) => ['light', 'dark', 'hc'].map((theme) => [`${view}-${theme}`, `${view}-${theme}`])));

/** docs/screenshots/<name>.png ← the `agents-view` stage's screenshot of that name (each of its screens in three themes). */
const agentsViewDocsScreenshots: Readonly<Record<string, string>> = Object.fromEntries(
	['add-agent-custom', 'new-issue-planners', 'board-menu', 'agents-view', 'diff-review', 'combined-diff'].flatMap((view) => ['light', 'dark', 'hc'].map((theme) => [`${view}-${theme}`, `${view}-${theme}`])));

/** docs/screenshots/<name>.png ← the `ui` stage's screenshot of that stage (board and panel in three themes). */
const docsScreenshots: Readonly<Record<string, string>> = {
	...Object.fromEntries(['board', 'panel', 'panel-200-tasks'].flatMap((view) => ['light', 'dark', 'hc'].map((theme) => [`${view}-${theme}`, `${view}-${theme}`]))),
	'panel-run-stopped': 'panel-run-stopped',
	'panel-200-tasks': 'panel-200-tasks',
	...cockpitDocsScreenshots,
};

function copyDocsScreenshots(screenshotsDir: string, shots: Readonly<Record<string, string>> = docsScreenshots): void {
	const docs = join(repoRoot, 'docs', 'screenshots');
	mkdirSync(docs, { recursive: true });
	for (const [name, shot] of Object.entries(shots)) {
		copyFileSync(join(screenshotsDir, `${shot}.png`), join(docs, `${name}.png`));
	}
	console.log(`  copied ${Object.keys(shots).map((n) => `${n}.png`).join(', ')} to docs/screenshots/`);
}

interface Tally {
	passed: number;
	failed: number;
	failures: string[];
}

/** Where the `gate` target's Runs wait for their gate file (scripts/workers/gate.ts); inside the workspace, so they end with it. */
function gateDirOf(workspace: string): string {
	return join(workspace, '.gates');
}

/**
 * The folder settings every run uses: `command` agent targets (prints and exits, runs a minute, fails), 3 parallel
 * Runs; with `gate`, also the `gate` target (waits for its gate file) and the worktree target `iso` the panel UI test drives.
 */
function writeWorkspace(prefix: string, options: { gate?: boolean; journey?: boolean } = {}): string {
	const workspace = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	mkdirSync(join(workspace, '.vscode'));
	if (options.gate) {
		mkdirSync(gateDirOf(workspace));
	}
	const gate = { id: 'gate', adapter: 'command', argv: [process.execPath, join(repoRoot, 'dist', 'demo.js'), 'worker', 'gate'], env: { TUTTI_GATE_DIR: gateDirOf(workspace) } };
	/** A worktree target that runs `steps` (sh, joined with &&), then waits at its gate like the `gate` worker. */
	const gatedInWorktree = (id: string, steps: string[]): Record<string, unknown> => ({
		id, adapter: 'command', isolation: 'worktree', env: { TUTTI_GATE_DIR: gateDirOf(workspace) },
		argv: ['sh', '-c', [...steps, 'exec "$0" "$@"'].join(' && '), process.execPath, join(repoRoot, 'dist', 'demo.js'), 'worker', 'gate'],
	});
	// The reviewed task of the panel test: in a worktree, writes a few files (its own diff list), then waits at its gate.
	const gateWorktree = gatedInWorktree('gate-worktree', [
		'mkdir -p src/lint docs',
		'printf \'export const rules = [\\n\\t"no-unused-vars",\\n\\t"eqeqeq",\\n];\\n\' > src/lint/rules.ts',
		'printf \'import { rules } from "./rules";\\nexport const report = (n: number) => `${n} findings, ${rules.length} rules`;\\n\' > src/lint/report.ts',
		'printf \'# Lint\\n\\nRun `npm run lint`; the rules are in src/lint/rules.ts.\\n\' > docs/LINT.md',
		'rm README.md',
	]);
	// A worktree target for the panel's Integrate (the panel test makes the workspace a git repository first).
	const iso = { id: 'iso', adapter: 'command', argv: ['sh', '-c', 'echo integrated from the panel > panel.txt'], isolation: 'worktree' };
	// The journey's task agent, in a worktree: writes docs/NOTES.md (and the task it got, from stdin), says so, then
	// waits at its gate (the journey test decides when it ends).
	const scribe = gatedInWorktree('scribe', [
		'mkdir -p docs && cat > docs/TASK.md',
		'printf \'# Release notes 1.1\\n\\n- The board groups issues by who acts next.\\n- Open Diff shows a task\\047s own commits.\\n\' > docs/NOTES.md',
		'echo "scribe: wrote docs/NOTES.md and docs/TASK.md"',
	]);
	writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({
		'tutti.agentTargets': options.journey ? [scribe] : [
			{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'echo hello from run; sleep 1; echo done >&2'] },
			{ id: 'slow', adapter: 'command', argv: ['sh', '-c', 'echo working; sleep 60'] },
			{ id: 'fail', adapter: 'command', argv: ['sh', '-c', 'echo giving up >&2; exit 3'] },
			// A test run that fails: a line on stdout, the cause on stderr, exit 3 (the panel's failure card).
			{ id: 'tests-fail', adapter: 'command', argv: ['sh', '-c', 'echo running 12 tests; echo "npm ERR! 3 tests failed" >&2; exit 3'] },
			// Asks the developer about one Bash call through `tutti mcp`, as Claude Code does, and prints the answer.
			{ id: 'asker', adapter: 'command', argv: [process.execPath, join(__dirname, 'ui', 'askingAgent.cjs'), join(repoRoot, 'dist', 'cli.js')] },
			...(options.gate ? [gate, gateWorktree, iso] : []),
		],
		'tutti.maxParallelRuns': 3,
	}, null, '\t'));
	return workspace;
}

async function runSuite(session: VsCodeSession, name: string, tally: Tally, verbose: boolean): Promise<void> {
	console.log(`\n[${name}] extension-host suite`);
	const result = await session.runExtensionTests({
		extensionTestsPath: suiteIndex,
		onOutput: verbose ? (line) => console.log(`  [host] ${line}`) : undefined,
	});
	if (result.summary) {
		console.log(result.summary.output);
		tally.passed += result.summary.passed;
		tally.failed += result.summary.failed;
		tally.failures.push(...result.summary.failures.map((f) => `[${name}] ${f.title}: ${f.message}`));
	} else {
		console.log(result.output.split('\n').slice(-40).join('\n'));
		tally.failed += 1;
		tally.failures.push(`[${name}] the suite did not report a summary (exit code ${result.exitCode})`);
	}
	if (result.exitCode !== 0 && result.summary?.failed === 0) {
		tally.failed += 1;
		tally.failures.push(`[${name}] extension host exit code ${result.exitCode}`);
	}
}

/** `node dist/cli.js host --workspace DIR` with the environment the extension host will have; resolves once ready. */
async function startHeadlessHost(workspace: string, env: Record<string, string>): Promise<ChildProcess> {
	const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'host', '--workspace', workspace], { env, stdio: ['ignore', 'pipe', 'pipe'] });
	const lines = createInterface({ input: child.stdout! });
	const ready = await new Promise<string>((resolveLine, reject) => {
		const timer = setTimeout(() => reject(new Error('the headless Host did not print its ready line within 30 s')), 30_000);
		lines.once('line', (line) => { clearTimeout(timer); resolveLine(line); });
		child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the headless Host exited with ${code} before it was ready`)); });
	});
	if (!ready.includes('"ready":true')) {
		child.kill('SIGKILL');
		throw new Error(`the headless Host did not start: ${ready}`);
	}
	child.stderr!.resume();
	return child;
}

function tallyUi(tally: Tally, name: string, result: UiResult): void {
	for (const step of result.steps) {
		console.log(`  ${step.ok ? '✔' : '✘'} ${step.name}${step.detail ? ` — ${step.detail}` : ''}`);
	}
	tally.passed += result.steps.filter((s) => s.ok).length;
	tally.failed += result.steps.filter((s) => !s.ok).length;
	tally.failures.push(...result.steps.filter((s) => !s.ok).map((s) => `[${name}] ${s.name}: ${s.detail}`));
	console.log(`  screenshots: ${result.screenshots.filter((f) => f !== '').join(', ') || '(none)'}`);
}

async function record(tally: Tally, name: string, body: () => Promise<void>): Promise<void> {
	try {
		await body();
	} catch (error) {
		tally.failed += 1;
		tally.failures.push(`[${name}] ${error instanceof Error ? error.message : String(error)}`);
		console.log(`  ✘ ${name}: ${error instanceof Error ? error.message : String(error)}`);
	}
}

async function main(): Promise<number> {
	const { values } = parseArgs({ options: { only: { type: 'string' }, screenshots: { type: 'string' }, verbose: { type: 'boolean' }, 'docs-screenshots': { type: 'boolean' } } });
	const missing = ['extension.js', 'cli.js', 'supervisor.js', 'sql-wasm.wasm'].filter((f) => !existsSync(join(repoRoot, 'dist', f)));
	if (missing.length > 0) {
		console.error(`missing dist/${missing.join(', dist/')}: run \`npm run build\` first`);
		return 2;
	}
	const screenshotsDir = resolve(values.screenshots ?? join(tmpdir(), 'tutti-vscode-screenshots'));
	const only = values.only;
	const verbose = values.verbose ?? false;
	const tally: Tally = { passed: 0, failed: 0, failures: [] };
	const started = Date.now();
	const workspaces: string[] = [];
	const log = (line: string): void => console.log(`  [vscode] ${line}`);
	try {
		if (!only || only === 'owner') {
			const workspace = writeWorkspace('tutti-vscode-owner-');
			workspaces.push(workspace);
			await record(tally, 'owner', () => withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, env: { TUTTI_VSCODE_SUITE: 'owner' }, log },
				(session) => runSuite(session, 'owner', tally, verbose)));
		}
		if (!only || only === 'viewer') {
			const workspace = writeWorkspace('tutti-vscode-viewer-');
			workspaces.push(workspace);
			await record(tally, 'viewer', () => withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, env: { TUTTI_VSCODE_SUITE: 'viewer' }, log },
				async (session) => {
					// The extension host's environment (same TMPDIR), so the headless Host's socket is the one it derives.
					const host = await startHeadlessHost(workspace, codeServerEnv(session.runDir, { TUTTI_VSCODE_SUITE: 'viewer' }));
					try {
						await runSuite(session, 'viewer', tally, verbose);
					} finally {
						host.kill('SIGKILL');
					}
				}));
		}
		if (!only || only === 'ui') {
			const workspace = writeWorkspace('tutti-vscode-ui-', { gate: true });
			workspaces.push(workspace);
			await record(tally, 'ui', () => withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log },
				async (session) => {
					console.log('\n[ui] Playwright against the workbench');
					tallyUi(tally, 'ui', await runBoardUi(session, workspace));
					console.log('\n[ui] the issue panel of a managed issue');
					const panel = await runPanelUi(session, workspace, gateDirOf(workspace));
					tallyUi(tally, 'ui', panel);
					console.log('\n[ui] starting work from the UI: the New Issue form, Add task and Start');
					tallyUi(tally, 'ui', await runStartUi(session, workspace));
					console.log('\n[ui] the cockpit: a failure\'s cause, the task form, Accept selected, the keyboard, an edited approval');
					const cockpit = await runCockpitUi(session, workspace);
					tallyUi(tally, 'ui', cockpit);
					if (values['docs-screenshots'] && panel.steps.every((s) => s.ok) && cockpit.steps.every((s) => s.ok)) {
						copyDocsScreenshots(screenshotsDir);
					}
				}));
		}
		if (only === 'cockpit') {
			// The `ui` stage's last part alone, in a fresh workspace (for working on the panel).
			const workspace = writeWorkspace('tutti-vscode-cockpit-', { gate: true });
			workspaces.push(workspace);
			await record(tally, 'cockpit', () => withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log },
				async (session) => {
					console.log('\n[cockpit] a failure\'s cause, the task form, Accept selected, the keyboard, an edited approval');
					const cockpit = await runCockpitUi(session, workspace);
					tallyUi(tally, 'cockpit', cockpit);
					if (values['docs-screenshots'] && cockpit.steps.every((s) => s.ok)) {
						copyDocsScreenshots(screenshotsDir, cockpitDocsScreenshots);
					}
				}));
		}
		if (!only || only === 'journey') {
			const workspace = writeWorkspace('tutti-vscode-journey-', { gate: true, journey: true });
			workspaces.push(workspace);
			ensureGitRepository(workspace);
			await record(tally, 'journey', async () => {
				const claude = await startScriptedClaude({ tasks: [journeyTask], fixedContent: journeyFix });
				try {
					// The scripted claude first on PATH. VSCODE_CLI=1: the VS Code server then keeps the PATH it was given
					// instead of a login shell's (its resolveShellEnv, which /etc/profile resets), as when launched from a terminal.
					const env = { PATH: `${claude.binDir}:${process.env['PATH'] ?? ''}`, VSCODE_CLI: '1' };
					await withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log, env },
						async (session) => {
							console.log('\n[journey] add an agent, an issue it plans, transcript, diff, comment, request changes, accept, confirm');
							const journey = await runDeveloperJourney(session, workspace, gateDirOf(workspace), claude);
							tallyUi(tally, 'journey', journey);
							if (values['docs-screenshots'] && journey.steps.every((s) => s.ok)) {
								copyDocsScreenshots(screenshotsDir, journeyDocsScreenshots);
							}
							if (verbose) { console.log(`  source planner: ${JSON.stringify(claude.planner.actions, null, 1)}`); }
						});
				} finally {
					await claude.close();
				}
			});
		}
		if (!only || only === 'integrate-conflict') {
			const workspace = writeWorkspace('tutti-vscode-integrate-conflict-');
			workspaces.push(workspace);
			writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tutti.agentTargets': [mergerTarget], 'tutti.maxParallelRuns': 1 }, null, '\t'));
			prepareConflictWorkspace(workspace);
			await record(tally, 'integrate-conflict', () => withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log },
				async (session) => {
					console.log('\n[integrate-conflict] Ready to integrate, Integrate refused by a conflict, Update from base, accepted again, integrated');
					const result = await runIntegrateConflictUi(session, workspace);
					tallyUi(tally, 'integrate-conflict', result);
					if (values['docs-screenshots'] && result.steps.every((s) => s.ok)) {
						copyDocsScreenshots(screenshotsDir, integrateConflictDocsScreenshots);
					}
				}));
		}
		if (!only || only === 'agents-view') {
			const workspace = writeWorkspace('tutti-vscode-agents-view-', { gate: true });
			workspaces.push(workspace);
			prepareCockpitWorkspace(workspace);
			const agent = machineOnlyAgent();
			await record(tally, 'agents-view', async () => {
				try {
					await withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log },
						async (session) => {
							console.log('\n[agents-view] custom command agent, Agents view, the diff\'s title bar, combined diff, menus per issue');
							const agentsView = await runAgentsViewUi(session, workspace, gateDirOf(workspace), agent);
							tallyUi(tally, 'agents-view', agentsView);
							if (values['docs-screenshots'] && agentsView.steps.every((s) => s.ok)) {
								copyDocsScreenshots(screenshotsDir, agentsViewDocsScreenshots);
							}
						});
				} finally {
					rmSync(join(agent, '..'), { recursive: true, force: true });
				}
			});
		}
		if (!only || only === 'codex') {
			const workspace = writeWorkspace('tutti-vscode-codex-');
			workspaces.push(workspace);
			await record(tally, 'codex', async () => {
				const server = await startScriptedServer({ script: codexApprovalScript });
				try {
					// The codex target's HOME and CODEX_HOME live beside the workspace, so nothing of Codex's lands in it.
					writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({
						'tutti.agentTargets': [codexApprovalTarget(server.url, `${workspace}-home`)], 'tutti.maxParallelRuns': 1,
					}, null, '\t'));
					await withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log }, async (session) => {
						console.log('\n[codex] a codex app-server worker asks; Allow from the notification; the command ran');
						tallyUi(tally, 'codex', await runCodexApprovalUi(session, workspace, server));
					});
				} finally {
					await server.close();
					rmSync(`${workspace}-home`, { recursive: true, force: true });
				}
			});
		}
		if (!only || only === 'vsix') {
			const workspace = writeWorkspace('tutti-vscode-vsix-');
			workspaces.push(workspace);
			const vsix = join(workspace, '..', `${workspace.split('/').pop()}.vsix`);
			await record(tally, 'vsix', async () => {
				console.log('\n[vsix] package, install, use');
				await packageVsix(readHarnessManifest(), repoRoot, vsix);
				try {
					await withVsCode({ workspacePath: workspace, vsixPaths: [vsix], screenshotsDir, log },
						async (session) => tallyUi(tally, 'vsix', await runVsixSmoke(session)));
				} finally {
					rmSync(vsix, { force: true });
				}
			});
		}
	} finally {
		for (const workspace of workspaces) {
			// Runs outlive the window by design (detached supervisors): a Turn still going when its stage ended (a source
			// agent's wake, a gated worker) would keep running against a deleted workspace.
			killAllRuns(join(workspace, '.tutti'));
			// TUTTI_VSCODE_KEEP=1 keeps the workspaces too (their .tutti store), for a post-mortem.
			if (process.env['TUTTI_VSCODE_KEEP'] === '1') { console.log(`  kept workspace ${workspace}`); } else { rmSync(workspace, { recursive: true, force: true }); }
		}
	}
	if (tally.failures.length > 0) {
		console.log(`\nfailures:\n  ${tally.failures.join('\n  ')}`);
	}
	console.log(`\n${tally.passed} passed, ${tally.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
	return tally.failed === 0 && tally.passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`vscode tier FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
		process.exit(1);
	},
);
