// The VS Code benchmarks: the extension's activation time, store change → board and → panel latency,
// and the issue panel's render time in the browser for 50 / 200 / 1,000 tasks. Medians, printed and written to
// bench/VSCODE_RESULTS.md; the 200-task panel is saved as docs/screenshots/panel-200-tasks.png. Needs the harness
// (bash scripts/vscode-harness/install.sh) and `npm run build`.
// Not part of `npm test`; never assertions on time.
//   node --import tsx bench/vscode.ts [--runs N]
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { withVsCode } from '../test/vscode/runInVsCode.js';
import { sleep } from '../test/vscode/harness/waitFor.js';
import { waitForHost } from '../test/vscode/ui/tuttiCli.js';
import { issuePanelFrame } from '../test/vscode/ui/webviewFrame.js';
import { fmtMs, median } from './stats.js';
import {
	activationTimeMs, boardLatency, createManualIssue, firstRenderMs, type Latency, openPanelFromBoard, panelLatency, planWithTasks,
} from './vscodeMeasures.js';

const repoRoot = path.resolve(__dirname, '..');
const panelSizes = [50, 200, 1000] as const;
/** The plan size whose panel is saved as docs/screenshots/panel-<n>-tasks.png (for the README). */
const docsScreenshotTasks = 200;

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	let commit = '';
	try { commit = ` · commit ${execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim()}`; } catch { /* not a git checkout */ }
	return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()} · load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}${commit}`;
}

function writeWorkspace(): string {
	const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tutti-bench-vscode-')));
	mkdirSync(path.join(workspace, '.vscode'));
	writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({
		'tutti.agentTargets': [{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'echo bench'] }],
		'tutti.maxParallelRuns': 3,
	}, null, '\t'));
	return workspace;
}

const latencyRow = (what: string, xs: readonly Latency[]): string =>
	`| ${what} | ${fmtMs(median(xs.map((x) => x.fromCliExitMs)))} | ${fmtMs(median(xs.map((x) => x.fromCliStartMs)))} | ${xs.length} |`;

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { runs: { type: 'string' } } });
	const runs = Math.max(1, Number(values.runs ?? 5));
	if (!existsSync(path.join(repoRoot, 'dist', 'extension.js'))) {
		throw new Error('missing dist/extension.js: run `npm run build` first');
	}
	const workspace = writeWorkspace();
	const activation: number[] = [];
	const board: Latency[] = [];
	const panel: Latency[] = [];
	const render = new Map<number, number[]>();
	const log = (line: string): void => console.error(`  [vscode] ${line}`);
	try {
		const screenshotsDir = path.join(repoRoot, 'docs', 'screenshots');
		await withVsCode({ workspacePath: workspace, extensionDevelopmentPath: repoRoot, screenshotsDir, log }, async (session) => {
			const first = await session.openWorkbench();
			try {
				await first.runCommand('View: Show Tutti');
				const start = first.page.locator('.part.sidebar .monaco-button').filter({ hasText: 'Start Tutti in this folder' }).first();
				await start.waitFor({ state: 'visible', timeout: 30_000 });
				await start.click();
				await waitForHost(session, workspace);
			} finally {
				await first.close();
			}
			console.error(`bench: activation time (${runs} windows) …`);
			for (let i = 0; i < runs; i++) {
				const workbench = await session.openWorkbench();
				try {
					activation.push(await activationTimeMs(workbench));
				} finally {
					await workbench.close();
				}
			}
			const workbench = await session.openWorkbench();
			try {
				await workbench.runCommand('View: Show Tutti');
				await waitForHost(session, workspace);
				console.error(`bench: store change → board (${runs * 2} changes) …`);
				for (let i = 0; i < runs * 2; i++) {
					board.push(await boardLatency(session, workspace, workbench, i));
				}
				console.error(`bench: store change → panel (${runs * 2} changes) …`);
				const issueId = createManualIssue(session, workspace, 'Panel latency');
				const frame = await openPanelFromBoard(workbench, 'Panel latency');
				for (let i = 0; i < runs * 2; i++) {
					panel.push(await panelLatency(session, workspace, frame, issueId, i));
				}
				for (const n of panelSizes) {
					console.error(`bench: panel render of ${n} tasks (${runs} fresh panels) …`);
					const title = `Render ${n} tasks`;
					planWithTasks(session, workspace, n, title);
					const times: number[] = [];
					for (let i = 0; i < runs; i++) {
						times.push(await firstRenderMs(workbench, title, n));
					}
					render.set(n, times);
					if (n === docsScreenshotTasks) {
						await workbench.runCommand('View: Hide Panel', { timeoutMs: 5000 }).catch(() => undefined);
						const frame = await issuePanelFrame(workbench.page, title);
						await frame.locator('[data-action="zoom/fit"]').first().click({ timeout: 5000 });
						await sleep(500);
						console.error(`bench: wrote ${await workbench.screenshot(`panel-${n}-tasks`)}`);
					}
				}
			} finally {
				await workbench.close();
			}
		});
	} finally {
		rmSync(workspace, { recursive: true, force: true });
	}
	const lines = [
		'# VS Code benchmarks',
		'',
		`Produced by \`node --import tsx bench/vscode.ts\` on ${new Date().toISOString().slice(0, 10)}: the extension in code-server, driven by Playwright + Chromium (headless).`,
		`Machine: ${machine()}.`,
		'Shared, noisy machines: medians of few samples; read them as orders of magnitude.',
		'',
		'## Activation',
		'',
		`Tutti's activation time as VS Code reports it (Developer: Show Running Extensions), one fresh window each: median **${fmtMs(median(activation))}** (n=${activation.length}; ${activation.map((x) => fmtMs(x)).join(', ')}).`,
		'',
		'## Store change → UI',
		'',
		'A CLI write from outside VS Code (a new issue for the board, a new title for the open panel) until the change is on screen.',
		'"After the CLI exits" starts when the write has committed and been answered; "from CLI start" includes the CLI process start-up.',
		'',
		'| change shown on | median after the CLI exits | median from CLI start | n |',
		'|---|---|---|---|',
		latencyRow('board (new issue row)', board),
		latencyRow('issue panel (header title)', panel),
		'',
		'## Issue panel render',
		'',
		'The first `panel-render` measure (layout with dagre + VNodes + DOM) of a freshly opened panel, read from the webview with `performance.getEntriesByName`.',
		'',
		'| tasks | median | samples |',
		'|---|---|---|',
		...panelSizes.map((n) => `| ${n.toLocaleString('en-US')} | ${fmtMs(median(render.get(n) ?? []))} | ${(render.get(n) ?? []).map((x) => fmtMs(x)).join(', ')} |`),
		'',
	];
	const text = lines.join('\n');
	console.log(text);
	writeFileSync(path.join(__dirname, 'VSCODE_RESULTS.md'), text);
	console.error('bench: wrote bench/VSCODE_RESULTS.md');
}

main().catch((error: unknown) => {
	console.error(`bench/vscode FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
	process.exit(1);
});
