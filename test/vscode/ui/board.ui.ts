// The issue board through the real workbench (Playwright + Chromium against code-server): the welcome view's
// "Start Tutti in this folder", New Issue from the palette, the issue on the board, its inline Pause/Resume moving
// it between groups, a managed issue with its agent terminal, the status bar. Screenshots at each stage.
import type { VsCodeSession } from '../runInVsCode.js';
import type { Locator } from '../harness/playwright.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';

export interface UiStep {
	readonly name: string;
	readonly ok: boolean;
	readonly detail?: string;
}

export interface UiResult {
	readonly steps: UiStep[];
	readonly screenshots: string[];
}

const quickInput = '.quick-input-widget .quick-input-box input';
const quickRows = '.quick-input-widget .quick-input-list .monaco-list-row';
const sidebarRows = '.part.sidebar .monaco-list-row';

/** Fills the open quick input (a pick or an input box) and accepts. */
async function answer(workbench: Workbench, text: string): Promise<void> {
	const input = workbench.page.locator(quickInput).first();
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(text, { timeout: 5000 });
	await workbench.page.keyboard.press('Enter');
}

/** Picks the quick-pick row whose label contains `label` (after filtering by it). */
async function pick(workbench: Workbench, label: string): Promise<void> {
	const input = workbench.page.locator(quickInput).first();
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(label, { timeout: 5000 });
	const row = workbench.page.locator(quickRows).filter({ hasText: label }).first();
	await row.waitFor({ state: 'visible', timeout: 10_000 });
	await row.click({ timeout: 5000 });
}

/**
 * Runs a palette command whose handler opens its own quick input right away (the harness's runCommand waits for
 * the palette to close, which never happens then): F1, type, click the row, retrying until it is registered.
 */
async function runPromptingCommand(workbench: Workbench, label: string): Promise<void> {
	const page = workbench.page;
	const input = page.locator(quickInput).first();
	await pollFor(`command palette entry "${label}"`, 30_000, async () => {
		if (!(await input.isVisible())) {
			await page.keyboard.press('F1');
			await input.waitFor({ state: 'visible', timeout: 5000 });
		}
		await input.fill(`>${label}`, { timeout: 5000 });
		const row = page.locator(quickRows).filter({ hasText: label }).first();
		if (!(await row.isVisible())) {
			await page.keyboard.press('Escape');
			return undefined;
		}
		await row.click({ timeout: 5000 });
		return true;
	}, 500);
}

function boardRow(workbench: Workbench, text: string): Locator {
	return workbench.page.locator(sidebarRows).filter({ hasText: text }).first();
}

/** The group row ("Planned", "Paused", …) the issue row is listed under: the nearest group row above it. */
async function groupOf(workbench: Workbench, issueTitle: string): Promise<string | undefined> {
	const rows = workbench.page.locator(sidebarRows);
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

export async function runBoardUi(session: VsCodeSession, _workspace: string, _screenshotsDir: string): Promise<UiResult> {
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
		await step('Tutti: New Issue from the palette creates a manual issue that appears on the board under Planned', async () => {
			await runPromptingCommand(workbench, 'Tutti: New Issue');
			await pick(workbench, 'Manual issue');
			await answer(workbench, 'Ship the board');
			await answer(workbench, 'Created from the palette by the UI test');
			await boardRow(workbench, 'Ship the board').waitFor({ state: 'visible', timeout: 15_000 });
			await waitForGroup(workbench, 'Ship the board', 'Planned');
			await shot('board-with-issue');
		});
		await step('the inline Pause action moves the issue to Paused, Resume moves it back', async () => {
			const row = boardRow(workbench, 'Ship the board');
			await row.click();
			await row.locator('.action-label[aria-label="Pause Issue"]').first().click({ timeout: 10_000 });
			await waitForGroup(workbench, 'Ship the board', 'Paused');
			await shot('board-paused');
			const paused = boardRow(workbench, 'Ship the board');
			await paused.click();
			await paused.locator('.action-label[aria-label="Resume Issue"]').first().click({ timeout: 10_000 });
			await waitForGroup(workbench, 'Ship the board', 'Planned');
		});
		await step('a managed issue from the palette opens its source agent terminal and shows on the board', async () => {
			await runPromptingCommand(workbench, 'Tutti: New Issue');
			await pick(workbench, 'Managed issue');
			await answer(workbench, 'Plan the release');
			await answer(workbench, 'A source agent plans this');
			await pick(workbench, 'My own agent in a terminal');
			await boardRow(workbench, 'Plan the release').waitFor({ state: 'visible', timeout: 15_000 });
			await page.locator('.part.panel .terminal-tabs-entry, .part.panel .single-terminal-tab, .part.panel .terminal-wrapper').first().waitFor({ state: 'visible', timeout: 15_000 });
			await shot('board-managed-issue');
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
