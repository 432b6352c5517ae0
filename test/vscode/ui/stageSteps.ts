// The steps every VS Code UI stage shares: a workbench opened for the stage, its named steps (each timed, the first
// failure ending the stage with a screenshot), Tutti started in the folder with the window's Host answering the CLI, and
// a screen shot in Light+, Dark+ and High Contrast with every text of a webview measured against its background.
import type { VsCodeSession } from '../runInVsCode.js';
import type { Page } from '../harness/playwright.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import type { UiResult, UiStep } from './board.ui.js';
import { checkContrast } from './contrast.js';
import { tidyForScreenshot } from './panel.ui.js';
import { shootInThemes } from './themes.js';
import { waitForHost } from './tuttiCli.js';
import type { WebviewFrame } from './webviewFrame.js';

export interface Stage {
	readonly workbench: Workbench;
	readonly page: Page;
	/** Every screenshot the stage took, in order (the stage's result lists them). */
	readonly screenshots: string[];
	/** Runs one named step; its detail (if any) is reported with how long it took. A throw ends the stage. */
	step(name: string, body: () => Promise<string | void>): Promise<void>;
	/** One screenshot of the workbench as it is. */
	shot(name: string): Promise<void>;
	/**
	 * With notifications cleared and the bottom panel hidden, `<name>-light`, `-dark` and `-hc`; with `frame` (a webview
	 * on screen, shot once it wears the theme), every text in it is measured in each theme unless `contrast` is false,
	 * and any below 4.5:1 fails the step. Returns "text contrast …" ('' when nothing was measured).
	 */
	inThemes(name: string, frame?: WebviewFrame, options?: { contrast?: boolean }): Promise<string>;
}

export interface StageOptions {
	/** Names the failed step ("<label> step N") and its screenshot ("<label>-failure"). */
	readonly label: string;
	/** What to bring on screen before the failure's screenshot (e.g. the notification center). */
	readonly beforeFailureShot?: (workbench: Workbench) => Promise<void>;
}

/** Opens a workbench, runs `body` with the stage's helpers, records the first failure with a screenshot, closes it. */
export async function runStage(session: VsCodeSession, workspace: string, options: StageOptions, body: (stage: Stage) => Promise<void>): Promise<UiResult> {
	const steps: UiStep[] = [];
	const screenshots: string[] = [];
	const workbench = await session.openWorkbench();
	const stage: Stage = {
		workbench,
		page: workbench.page,
		screenshots,
		step: async (name, run) => {
			const started = Date.now();
			const detail = await run();
			const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
			steps.push({ name, ok: true, detail: detail ? `${detail} (${took})` : took });
		},
		shot: async (name) => { screenshots.push(await workbench.screenshot(name)); },
		inThemes: async (name, frame, { contrast: measured = true } = {}) => {
			await tidyForScreenshot(workbench);
			const contrast: string[] = [];
			const low: string[] = [];
			screenshots.push(...await shootInThemes(workbench, workspace, name, frame, frame === undefined || !measured ? undefined : async (theme) => {
				await checkContrast(frame, `${name} in ${theme.name}`).then((ok) => contrast.push(`${theme.suffix}: ${ok}`), (e: Error) => low.push(e.message));
			}));
			if (low.length > 0) { throw new Error(low.join(' | ')); }
			return contrast.length === 0 ? '' : `text contrast ${contrast.join('; ')}`;
		},
	};
	try {
		await body(stage);
	} catch (error) {
		steps.push({ name: `${options.label} step ${steps.length + 1}`, ok: false, detail: error instanceof Error ? error.message : String(error) });
		await options.beforeFailureShot?.(workbench).catch(() => undefined);
		await stage.shot(`${options.label}-failure`).catch(() => undefined);
	} finally {
		await workbench.close();
	}
	return { steps, screenshots };
}

/**
 * Opens the Tutti view and starts Tutti in the folder if the view offers it (`offered`: it must, the folder has no store
 * yet), then waits until the view is connected and the window's Host answers the CLI. Bounded.
 */
export async function startTutti(stage: Stage, session: VsCodeSession, workspace: string, options: { offered?: boolean } = {}): Promise<void> {
	const { workbench, page } = stage;
	await workbench.runCommand('View: Show Tutti');
	const start = page.locator('.part.sidebar .monaco-button').filter({ hasText: 'Start Tutti in this folder' }).first();
	const newIssue = page.locator('.part.sidebar .monaco-button').filter({ hasText: 'New Issue' }).first();
	const connected = async (): Promise<boolean> => (await newIssue.isVisible()) || (await page.locator('.part.sidebar .monaco-list-row').count()) > 0;
	if (options.offered === true) {
		await start.waitFor({ state: 'visible', timeout: 30_000 });
	} else {
		await pollFor('the Tutti view: a store, or the offer to start one', 30_000, async () => ((await start.isVisible()) || (await connected()) ? true : undefined));
	}
	if (await start.isVisible()) { await start.click({ timeout: 5000 }); }
	await pollFor('the Tutti view connected to the window\'s Host', 30_000, async () => ((await connected()) ? true : undefined));
	await waitForHost(session, workspace);
}
