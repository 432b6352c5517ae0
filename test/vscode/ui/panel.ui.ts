// The issue panel through the real workbench: a managed issue driven by a scripted source agent (3 tasks on the
// `gate` target, docs after lint; build and lint scheduled), its graph's nodes in the webview, Pause (Paused + dispatchPaused=true in
// `tutti plan issue get`) and Resume, Stop of a running Run ("Interrupted after …"), and Accept of a task in
// pending_acceptance; then a 200-task plan's graph (test/vscode/ui/graph.ui.ts); then a manual issue's accepted worktree
// work integrated with the panel's Integrate button (the workspace made a git repository for it). Screenshots at each
// stage; the review and the board in Light+, Dark+ and High Contrast. Every wait is bounded.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateFile, gateStartedFile, releaseAllName, writeGate } from '../../../scripts/workers/gate.js';
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import type { UiResult, UiStep } from './board.ui.js';
import { checkContrast } from './contrast.js';
import { checkBigGraph } from './graph.ui.js';
import { ensureGitRepository } from './gitWorkspace.js';
import { ScriptedSource } from './scriptedSource.js';
import { tuttiCli, waitForHost } from './tuttiCli.js';
import { shootInThemes } from './themes.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

const title = 'Graph from a source agent';
const taskIds = ['build', 'lint', 'docs'] as const;
const scheduledIds = ['build', 'lint'] as const;
const integrateTitle = 'Integrate from the panel';

function openGate(gateDir: string, issueId: string, taskId: string, exitCode: number): void {
	writeGate(gateFile(gateDir, issueId, taskId), exitCode);
}

/** Clears the notifications and closes the bottom panel, so a screenshot shows the board and the issue panel. */
export async function tidyForScreenshot(workbench: Workbench): Promise<void> {
	await workbench.runCommand('Notifications: Clear All Notifications', { timeoutMs: 5000 }).catch(() => undefined);
	await workbench.runCommand('View: Hide Panel', { timeoutMs: 5000 }).catch(() => undefined);
}

async function clickNode(frame: WebviewFrame, taskId: string): Promise<void> {
	await frame.locator(`g.node[data-task-id="${taskId}"]`).first().click({ timeout: 10_000 });
	await waitInPanel(frame, `#task-detail[data-task-id="${taskId}"]`, `the detail of task ${taskId}`);
}

async function clickInPanel(frame: WebviewFrame, selector: string, what: string): Promise<void> {
	const button = frame.locator(selector).first();
	await pollFor(what, 15_000, async () => ((await button.isVisible()) ? true : undefined));
	await button.click({ timeout: 5000 });
}

export async function runPanelUi(session: VsCodeSession, workspace: string, gateDir: string): Promise<UiResult> {
	const steps: UiStep[] = [];
	const screenshots: string[] = [];
	const workbench = await session.openWorkbench();
	const page = workbench.page;
	const step = async (name: string, body: () => Promise<string | void>): Promise<void> => {
		const started = Date.now();
		const detail = await body();
		const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
		steps.push({ name, ok: true, detail: detail ? `${detail} (${took})` : took });
	};
	const shot = async (name: string): Promise<void> => {
		screenshots.push(await workbench.screenshot(name));
	};
	let source: ScriptedSource | undefined;
	let contrastReport = '';
	let frame: WebviewFrame | undefined;
	const panel = (): WebviewFrame => {
		if (!frame) { throw new Error('the issue panel is not open'); }
		return frame;
	};
	try {
		await step('a scripted source agent creates a managed issue, adds 3 tasks and schedules the 2 ready ones (CLI, source token)', async () => {
			await workbench.runCommand('View: Show Tutti');
			await waitForHost(session, workspace);
			// A git repository from the start: lint runs in a worktree, so its review lists its own changed files.
			ensureGitRepository(workspace);
			source = ScriptedSource.create(session, workspace, title, 'Three gated tasks, planned by a scripted source agent');
			source.add(taskIds.map((taskId) => ({ taskId, title: `Gated ${taskId}`, agentTargetId: taskId === 'lint' ? 'gate-worktree' : 'gate', dependencyTaskIds: taskId === 'docs' ? ['lint'] : [] })));
			const scheduled = source.schedule([...scheduledIds]);
			const issueId = source.issueId;
			await pollFor('the gated Runs of build and lint to start', 30_000, async () =>
				(scheduledIds.every((t) => existsSync(gateStartedFile(gateDir, issueId, t))) ? true : undefined));
			return `issue ${issueId}, runs ${(scheduled['runIds'] as string[]).join(', ')}`;
		});
		await step('the panel opened from the board shows the graph\'s nodes', async () => {
			await workbench.runCommand('View: Close All Editors');
			await tidyForScreenshot(workbench);
			const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: title }).first();
			await row.waitFor({ state: 'visible', timeout: 15_000 });
			await row.click({ timeout: 5000 });
			frame = await issuePanelFrame(page, title);
			const nodes = panel().locator('g.node[data-task-id]');
			await pollFor('3 task nodes in the graph', 15_000, async () => ((await nodes.count()) === 3 ? true : undefined));
			await shot('panel-graph');
		});
		await step('Pause shows Paused and what it means, and dispatchPaused=true in `tutti plan issue get`; Resume clears both', async () => {
			await clickInPanel(panel(), '[data-action="issue/pause"]', 'the Pause button');
			await waitInPanel(panel(), '#paused-note', 'the paused note');
			await pollFor('dispatchPaused=true in plan issue get', 10_000, async () => (source!.get()['dispatchPaused'] === true ? true : undefined));
			await shot('panel-paused');
			await clickInPanel(panel(), '[data-action="issue/resume"]', 'the Resume button');
			await pollFor('the paused note to go', 10_000, async () => ((await panel().locator('#paused-note').count()) === 0 ? true : undefined));
			await pollFor('dispatchPaused=false in plan issue get', 10_000, async () => (source!.get()['dispatchPaused'] === false ? true : undefined));
		});
		await step('Stop on a running Run in the task detail ends it: "Interrupted after …"', async () => {
			await clickNode(panel(), 'build');
			await clickInPanel(panel(), '#task-detail [data-action="run/stop"]', 'the Stop run button of task build');
			const text = await waitInPanel(panel(), '#task-detail', 'the Run to read "Interrupted after"', { contains: 'Interrupted after', timeoutMs: 20_000 });
			await shot('panel-run-stopped');
			return text.split('\n').find((line) => line.includes('Interrupted after'))?.trim();
		});
		await step('a task in pending_acceptance is accepted from the panel', async () => {
			openGate(gateDir, source!.issueId, 'lint', 0);
			await pollFor('task lint in pending_acceptance', 20_000, async () => (source!.taskStatus('lint') === 'pending_acceptance' ? true : undefined));
			await clickNode(panel(), 'lint');
			await waitInPanel(panel(), '#task-detail', 'the Accept button', { contains: 'Accept' });
			// The review leads with the worktree Run's own diff list: files with +/− and Open Diff.
			const files = await waitInPanel(panel(), '#review-changes', 'the changed files of task lint', { contains: 'src/lint/rules.ts' });
			if (!/\+\d+/.test(files) || !files.includes('README.md') || (await panel().locator('#review-changes [data-action="task/openChanges"]').count()) !== 1) {
				throw new Error(`the review of lint does not list its files with +/− and Open Diff: ${files}`);
			}
			await tidyForScreenshot(workbench);
			await shot('panel-review');
			// The board and the panel side by side, in Light+, Dark+ and High Contrast (docs/screenshots/panel-*.png);
			// in each, every text of the panel measured against its background (WCAG 4.5:1).
			const contrast: string[] = [];
			const lowContrast: string[] = [];
			screenshots.push(...await shootInThemes(workbench, workspace, 'panel', panel(), async (theme) => {
				await checkContrast(panel(), `the issue panel in ${theme.name}`).then((ok) => contrast.push(`${theme.suffix}: ${ok}`), (e: Error) => lowContrast.push(e.message));
			}));
			if (lowContrast.length > 0) { throw new Error(lowContrast.join(' | ')); }
			contrastReport = contrast.join('; ');
			await clickInPanel(panel(), '#task-detail [data-action="task/accept"]', 'the Accept button of task lint');
			await pollFor('task lint completed after Accept', 15_000, async () => (source!.taskStatus('lint') === 'completed' ? true : undefined));
			await pollFor('the Accept button to go', 10_000, async () =>
				((await panel().locator('#task-detail [data-action="task/accept"]').count()) === 0 ? true : undefined));
			await shot('panel-accepted');
			return `text contrast ${contrastReport}`;
		});
		await step('the board lists the managed issue with its progress after Accept (1/3 tasks)', async () => {
			await workbench.runCommand('View: Close All Editors');
			await tidyForScreenshot(workbench);
			const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: title }).first();
			await pollFor('the board row to show 1/3 tasks', 15_000, async () => ((await row.innerText({ timeout: 1000 })).includes('1/3') ? true : undefined));
			await shot('board-overview');
			screenshots.push(...await shootInThemes(workbench, workspace, 'board'));
		});
		await step('a 200-task plan: drawn, fitted to blocks, searched (Enter selects), focused on one task\'s lineage, listed', async () =>
			checkBigGraph(session, workspace, workbench, 'gate', shot, async (name, frame) => {
				screenshots.push(...await shootInThemes(workbench, workspace, name, frame));
			}));
		await step('Integrate in the panel of a manual issue with accepted worktree work puts it on main; the panel shows the integrated commit', async () => {
			// The workspace is a git repository (since the first step); a worktree task writes panel.txt and is auto-accepted.
			const git = (...args: string[]): string => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' }).trim();
			ensureGitRepository(workspace);
			const cli = tuttiCli(session, workspace);
			const issueId = cli(['issue', 'create', '--title', integrateTitle, '--as-user'])['issueId'] as string;
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'write', '--title', 'Write panel.txt', '--agent-target-id', 'iso', '--auto-accept', '--as-user']);
			await pollFor('task write completed and accepted', 30_000, async () => {
				const tasks = cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['tasks'] as { taskId: string; status: string; acceptedCommit: string }[];
				const task = tasks.find((t) => t.taskId === 'write');
				return task?.status === 'completed' && task.acceptedCommit !== '' ? true : undefined;
			});
			await workbench.runCommand('View: Close All Editors');
			await tidyForScreenshot(workbench);
			// A completed issue is in the board's Done group, collapsed by default.
			const doneGroup = page.locator('.part.sidebar .monaco-list-row[aria-expanded="false"]').filter({ hasText: /^Done/ }).first();
			if ((await doneGroup.count()) > 0) { await doneGroup.click({ timeout: 5000 }); }
			const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: integrateTitle }).first();
			await row.waitFor({ state: 'visible', timeout: 15_000 });
			await row.click({ timeout: 5000 });
			frame = await issuePanelFrame(page, integrateTitle);
			await clickInPanel(panel(), '[data-action="issue/integrate"]', 'the Integrate button');
			const text = await waitInPanel(panel(), '#integrated', 'the integrated commit in the panel', { contains: 'Integrated into main', timeoutMs: 20_000 });
			await pollFor('the Integrate button to go', 10_000, async () =>
				((await panel().locator('[data-action="issue/integrate"]').count()) === 0 ? true : undefined));
			const head = git('rev-parse', 'main');
			if (!text.includes(head.slice(0, 12))) { throw new Error(`the panel shows "${text}", not main's new commit ${head}`); }
			if (readFileSync(join(workspace, 'panel.txt'), 'utf8') !== 'integrated from the panel\n') { throw new Error('panel.txt is not on main in the workspace'); }
			await tidyForScreenshot(workbench);
			await shot('panel-integrated');
			return text.trim();
		});
	} catch (error) {
		steps.push({ name: `panel step ${steps.length + 1}`, ok: false, detail: error instanceof Error ? error.message : String(error) });
		await shot('panel-failure').catch(() => undefined);
	} finally {
		if (source) {
			openGate(gateDir, source.issueId, releaseAllName, 0);
		}
		await workbench.close();
	}
	return { steps, screenshots };
}
