// The issue board through the real workbench (Playwright + Chromium against code-server): the welcome view's
// "Start Tutti in this folder", New Issue from its form, the issue on the board, its inline Start/Pause moving
// it between groups, a managed issue with its agent terminal, the issue panel opened from the board, the status
// bar. Screenshots at each stage.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { codeServerEnv } from '../harness/codeServer.js';
import type { VsCodeSession } from '../runInVsCode.js';
import type { Locator } from '../harness/playwright.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import { createIssueThroughForm } from './newIssueForm.js';

export interface UiStep {
	readonly name: string;
	readonly ok: boolean;
	readonly detail?: string;
}

export interface UiResult {
	readonly steps: UiStep[];
	readonly screenshots: string[];
}

/** The rows of the Issues view only (the Agents view beside it lists issue titles too). */
export function boardRows(workbench: Workbench): Locator {
	const page = workbench.page;
	return page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header .title', { hasText: /^Issues$/ }) }).locator('.monaco-list-row');
}

const cliScript = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

/** The `tutti` CLI run from outside VS Code in the workspace (it finds the window's Host by its discovery file). */
function cli(session: VsCodeSession, workspace: string, args: string[]): Record<string, unknown> {
	try {
		const out = execFileSync(process.execPath, [cliScript, ...args, '--json'], { cwd: workspace, env: codeServerEnv(session.runDir, {}), encoding: 'utf8', timeout: 30_000 });
		return JSON.parse(out) as Record<string, unknown>;
	} catch (error) {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(`tutti ${args.join(' ')} failed: ${stdout ?? ''}${stderr ?? ''}`);
	}
}

export function boardRow(workbench: Workbench, text: string): Locator {
	return boardRows(workbench).filter({ hasText: text }).first();
}

/** The group row ("Planned", "Paused", …) the issue row is listed under: the nearest group row above it. */
export async function groupOf(workbench: Workbench, issueTitle: string): Promise<string | undefined> {
	const rows = boardRows(workbench);
	const count = await rows.count();
	let group: string | undefined;
	for (let i = 0; i < count; i++) {
		const row = rows.nth(i);
		const label = (await row.getAttribute('aria-label', { timeout: 1000 })) ?? '';
		const level = await row.getAttribute('aria-level', { timeout: 1000 });
		if (level === '1') {
			group = label.split(':')[0];
		} else if (label.startsWith(issueTitle)) {
			return group;
		}
	}
	return undefined;
}

async function waitForGroup(workbench: Workbench, issueTitle: string, group: string): Promise<void> {
	let last: string | undefined;
	await pollFor(`"${issueTitle}" under "${group}" on the board`, 15_000, async () => {
		last = await groupOf(workbench, issueTitle);
		return last === group ? true : undefined;
	}).catch((error: Error) => {
		throw new Error(`${error.message} (it is under "${last ?? 'nothing'}")`);
	});
}

export async function runBoardUi(session: VsCodeSession, workspace: string): Promise<UiResult> {
	const steps: UiStep[] = [];
	const screenshots: string[] = [];
	const workbench = await session.openWorkbench();
	const step = async (name: string, body: () => Promise<string | void>): Promise<void> => {
		const detail = await body();
		steps.push({ name, ok: true, ...(detail ? { detail } : {}) });
	};
	const shot = async (name: string): Promise<void> => {
		screenshots.push(await workbench.screenshot(name));
	};
	const page = workbench.page;
	try {
		await step('the Tutti view shows "Start Tutti in this folder" for a folder without a store', async () => {
			await workbench.runCommand('View: Show Tutti');
			const button = page.locator('.part.sidebar .monaco-button').filter({ hasText: 'Start Tutti in this folder' }).first();
			await button.waitFor({ state: 'visible', timeout: 30_000 });
			await shot('board-welcome');
			await button.click();
			await page.locator('.part.sidebar .monaco-button').filter({ hasText: 'New Issue' }).first().waitFor({ state: 'visible', timeout: 30_000 });
		});
		await step('Tutti: New Issue opens the form; a manual issue from it appears on the board under Not started until it is started', async () => {
			await createIssueThroughForm(workbench, { title: 'Ship the board', goal: 'Created from the New Issue form by the UI test', planner: 'Manual tasks' });
			await boardRow(workbench, 'Ship the board').waitFor({ state: 'visible', timeout: 15_000 });
			await waitForGroup(workbench, 'Ship the board', 'Not started');
			await shot('board-with-issue');
		});
		await step('the inline Start moves the issue to Planned, Pause back to Not started (no Run ever ran), Start again to Planned', async () => {
			const row = boardRow(workbench, 'Ship the board');
			await row.click();
			await row.locator('.action-label[aria-label="Start Issue"]').first().click({ timeout: 10_000 });
			await waitForGroup(workbench, 'Ship the board', 'Planned');
			const planned = boardRow(workbench, 'Ship the board');
			await planned.click();
			await planned.locator('.action-label[aria-label="Pause Issue"]').first().click({ timeout: 10_000 });
			await waitForGroup(workbench, 'Ship the board', 'Not started');
			await shot('board-paused');
			const paused = boardRow(workbench, 'Ship the board');
			await paused.click();
			// No Run has started yet, so the Host still offers Start (not Resume).
			await paused.locator('.action-label[aria-label="Start Issue"]').first().click({ timeout: 10_000 });
			await waitForGroup(workbench, 'Ship the board', 'Planned');
		});
		await step('a managed issue from the form ("my own agent in a terminal") opens its source agent terminal and shows on the board', async () => {
			await createIssueThroughForm(workbench, { title: 'Plan the release', goal: 'A source agent plans this', planner: 'My own agent in a terminal' });
			await boardRow(workbench, 'Plan the release').waitFor({ state: 'visible', timeout: 15_000 });
			await page.locator('.part.panel .terminal-tabs-entry, .part.panel .single-terminal-tab, .part.panel .terminal-wrapper').first().waitFor({ state: 'visible', timeout: 15_000 });
			await shot('board-managed-issue');
		});
		await step('a failed task added with the CLI outside VS Code moves its issue to Needs you, with the view badge and a notification', async () => {
			const issue = cli(session, workspace, ['issue', 'create', '--title', 'Needs attention', '--as-user']);
			cli(session, workspace, ['issue', 'task', 'add', '--issue-id', String(issue['issueId']), '--title', 'Will fail', '--agent-target-id', 'fail', '--as-user']);
			await boardRow(workbench, 'Needs attention').waitFor({ state: 'visible', timeout: 15_000 });
			await waitForGroup(workbench, 'Needs attention', 'Needs you');
			const badge = page.locator('.part.activitybar .badge-content').filter({ hasText: '1' }).first();
			await badge.waitFor({ state: 'visible', timeout: 10_000 });
			await workbench.waitForNotification('"Needs attention" needs you: 1 failed', { timeoutMs: 15_000 });
			await shot('board-needs-you');
		});
		await step('clicking an issue on the board opens its issue panel', async () => {
			await boardRow(workbench, 'Ship the board').click();
			await workbench.webviewText('#header-region', { contains: 'Ship the board', timeoutMs: 30_000 });
			await shot('board-and-panel');
		});
		await step('the status bar shows Tutti', async () => {
			const item = page.locator('.part.statusbar [id="tutti.tutti-vscode.tutti.status"], .part.statusbar .statusbar-item').filter({ hasText: 'Tutti' }).first();
			await item.waitFor({ state: 'visible', timeout: 10_000 });
			return (await item.innerText({ timeout: 2000 })).trim();
		});
	} catch (error) {
		steps.push({ name: `step ${steps.length + 1}`, ok: false, detail: error instanceof Error ? error.message : String(error) });
		await shot('board-failure').catch(() => undefined);
	} finally {
		await workbench.close();
	}
	return { steps, screenshots };
}

/**
 * The extension installed from its .vsix (no node_modules, no development path): the welcome view's "Start Tutti
 * in this folder" starts the bundled Host, and New Issue from the palette puts an issue on the board.
 */
export async function runVsixSmoke(session: VsCodeSession): Promise<UiResult> {
	const steps: UiStep[] = [];
	const screenshots: string[] = [];
	const workbench = await session.openWorkbench({ extensionDevelopmentPath: undefined });
	const page = workbench.page;
	try {
		await workbench.runCommand('View: Show Tutti');
		const start = page.locator('.part.sidebar .monaco-button').filter({ hasText: 'Start Tutti in this folder' }).first();
		await start.waitFor({ state: 'visible', timeout: 30_000 });
		await start.click();
		await page.locator('.part.sidebar .monaco-button').filter({ hasText: 'New Issue' }).first().waitFor({ state: 'visible', timeout: 30_000 });
		steps.push({ name: 'vsix: the installed extension starts its bundled Host from the welcome view', ok: true });
		await createIssueThroughForm(workbench, { title: 'From the vsix', goal: '', planner: 'Manual tasks' });
		await boardRow(workbench, 'From the vsix').waitFor({ state: 'visible', timeout: 15_000 });
		screenshots.push(await workbench.screenshot('vsix-board'));
		steps.push({ name: 'vsix: New Issue from the form shows the issue on the board', ok: true });
	} catch (error) {
		steps.push({ name: `vsix step ${steps.length + 1}`, ok: false, detail: error instanceof Error ? error.message : String(error) });
		screenshots.push(await workbench.screenshot('vsix-failure').catch(() => ''));
	} finally {
		await workbench.close();
	}
	return { steps, screenshots };
}
