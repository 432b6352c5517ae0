// The browser-side measurements of bench/vscode.ts, each on an open workbench (Playwright + code-server):
// the extension's activation time as VS Code reports it, store change → board / panel latency, and the issue
// panel's `panel-render` measures for a plan of N tasks. Never assertions on time.
import type { VsCodeSession } from '../test/vscode/runInVsCode.js';
import type { Workbench } from '../test/vscode/harness/workbench.js';
import { pollFor } from '../test/vscode/harness/waitFor.js';
import { ScriptedSource, type PlannedTask } from '../test/vscode/ui/scriptedSource.js';
import { tuttiCli, tuttiCliAsync } from '../test/vscode/ui/tuttiCli.js';
import { issuePanelFrame, panelRenderMeasures, type WebviewFrame } from '../test/vscode/ui/webviewFrame.js';

const sidebarRows = '.part.sidebar .monaco-list-row';

/** "Developer: Show Running Extensions" lists each extension's activation time; this reads Tutti's (ms). */
export async function activationTimeMs(workbench: Workbench): Promise<number> {
	await workbench.runCommand('Developer: Show Running Extensions');
	const row = workbench.page.locator('.runtime-extensions-editor .monaco-list-row').filter({ hasText: 'Tutti' }).first();
	return pollFor('Tutti\'s activation time in Running Extensions', 20_000, async () => {
		const text = await row.locator('.activation-time').first().innerText({ timeout: 1000 });
		const ms = /([\d.]+)\s*ms/.exec(text);
		return ms ? Number(ms[1]) : undefined;
	});
}

export interface Latency {
	/** From the CLI process's start to the UI showing the change (includes the CLI's own start-up). */
	readonly fromCliStartMs: number;
	/** From the CLI process's exit (its write committed and answered) to the UI showing the change. */
	readonly fromCliExitMs: number;
}

/** Runs the CLI write while Playwright waits (concurrently) for `shown` to resolve. */
async function timeChange(write: () => Promise<unknown>, shown: () => Promise<void>): Promise<Latency> {
	const started = performance.now();
	let exited = 0;
	const writing = write().then(() => { exited = performance.now(); });
	await shown();
	const visible = performance.now();
	await writing;
	return { fromCliStartMs: visible - started, fromCliExitMs: visible - exited };
}

/** `tutti issue create` from outside VS Code → the new issue's row on the board. */
export async function boardLatency(session: VsCodeSession, workspace: string, workbench: Workbench, i: number): Promise<Latency> {
	const title = `Board latency ${i}`;
	return timeChange(
		() => tuttiCliAsync(session, workspace, ['issue', 'create', '--title', title, '--as-user']),
		() => workbench.page.locator(sidebarRows).filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 15_000 }),
	);
}

/** `tutti issue update --title` → the open issue panel's header showing the new title. */
export async function panelLatency(session: VsCodeSession, workspace: string, frame: WebviewFrame, issueId: string, i: number): Promise<Latency> {
	const title = `Panel latency ${i}`;
	return timeChange(
		() => tuttiCliAsync(session, workspace, ['issue', 'update', '--issue-id', issueId, '--title', title, '--as-user']),
		() => frame.locator('#header-region').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 15_000 }),
	);
}

/** Opens the issue panel of `title` from the board (after closing every editor) and returns its frame. */
export async function openPanelFromBoard(workbench: Workbench, title: string): Promise<WebviewFrame> {
	await workbench.runCommand('View: Close All Editors');
	const row = workbench.page.locator(sidebarRows).filter({ hasText: title }).first();
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await row.click({ timeout: 5000 });
	return issuePanelFrame(workbench.page, title);
}

/** A layered plan of `n` tasks (10 wide, each depending on up to 2 tasks of the layer above), never scheduled. */
export function layeredPlan(n: number, agentTargetId: string): PlannedTask[] {
	const width = 10;
	return Array.from({ length: n }, (_, i) => {
		const layer = Math.floor(i / width);
		const deps = layer === 0 ? [] : [i - width, (layer - 1) * width + ((i + 1) % width)];
		return { taskId: `t${i}`, title: `Task ${i}`, agentTargetId, dependencyTaskIds: [...new Set(deps)].map((d) => `t${d}`) };
	});
}

/** A managed issue with `n` tasks, added by a scripted source agent in batches (one mutate each). */
export function planWithTasks(session: VsCodeSession, workspace: string, n: number, title: string): ScriptedSource {
	const source = ScriptedSource.create(session, workspace, title, `${n} tasks for the render benchmark`);
	const tasks = layeredPlan(n, 'sh');
	for (let i = 0; i < tasks.length; i += 200) {
		source.add(tasks.slice(i, i + 200));
	}
	return source;
}

/** The first full render (layout + VNodes + DOM) of a freshly opened panel showing `n` tasks (ms). */
export async function firstRenderMs(workbench: Workbench, title: string, n: number): Promise<number> {
	const frame = await openPanelFromBoard(workbench, title);
	return pollFor(`a panel-render measure of ${n} tasks`, 60_000, async () =>
		(await panelRenderMeasures(frame)).find((m) => m.tasks === n)?.durationMs);
}

/** Creates a manual issue with the CLI and returns its id. */
export function createManualIssue(session: VsCodeSession, workspace: string, title: string): string {
	return String(tuttiCli(session, workspace)(['issue', 'create', '--title', title, '--as-user'])['issueId']);
}
