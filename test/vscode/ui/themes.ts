// Screenshots in Light+, Dark+ and High Contrast: the workspace's `workbench.colorTheme` is set per shot (VS Code
// applies a settings.json change live), and the shot waits until the workbench and the issue panel's webview both
// wear that theme. File names end with the theme: `…-light.png`, `…-dark.png`, `…-hc.png`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import type { WebviewFrame } from './webviewFrame.js';

export interface ScreenshotTheme {
	readonly suffix: 'light' | 'dark' | 'hc';
	/** The `workbench.colorTheme` value. */
	readonly name: string;
	/** The class the workbench element carries in it. */
	readonly workbenchClass: string;
	/** The class a webview's body carries in it. */
	readonly webviewClass: string;
}

export const screenshotThemes: readonly ScreenshotTheme[] = [
	{ suffix: 'light', name: 'Default Light+', workbenchClass: 'vs', webviewClass: 'vscode-light' },
	{ suffix: 'dark', name: 'Default Dark+', workbenchClass: 'vs-dark', webviewClass: 'vscode-dark' },
	{ suffix: 'hc', name: 'Default High Contrast', workbenchClass: 'hc-black', webviewClass: 'vscode-high-contrast' },
];

function settingsFile(workspace: string): string {
	return join(workspace, '.vscode', 'settings.json');
}

/** Sets (or, with null, removes) the workspace's color theme, keeping the other settings. */
export function writeColorTheme(workspace: string, theme: string | null): void {
	const settings = JSON.parse(readFileSync(settingsFile(workspace), 'utf8')) as Record<string, unknown>;
	if (theme === null) {
		delete settings['workbench.colorTheme'];
	} else {
		settings['workbench.colorTheme'] = theme;
	}
	writeFileSync(settingsFile(workspace), JSON.stringify(settings, null, '\t'));
}

async function wearing(workbench: Workbench, theme: ScreenshotTheme, frame: WebviewFrame | undefined): Promise<void> {
	await pollFor(`the workbench in ${theme.name}`, 20_000, async () =>
		((await workbench.page.evaluate(`document.querySelector('.monaco-workbench')?.classList.contains(${JSON.stringify(theme.workbenchClass)}) === true`)) === true ? true : undefined));
	if (frame !== undefined) {
		await pollFor(`the issue panel in ${theme.name}`, 20_000, async () => ((await frame.locator(`body.${theme.webviewClass}`).count()) > 0 ? true : undefined));
	}
}

/**
 * One screenshot per theme, `<name>-light`, `<name>-dark`, `<name>-hc`; the theme setting is removed afterwards.
 * `frame`: the issue panel, when it is on screen (its webview re-themes on its own). `inEachTheme` runs once the
 * theme is applied, before the shot (e.g. a contrast measurement).
 */
export async function shootInThemes(workbench: Workbench, workspace: string, name: string, frame?: WebviewFrame,
	inEachTheme?: (theme: ScreenshotTheme) => Promise<void>): Promise<string[]> {
	const paths: string[] = [];
	await inThemes(workbench, workspace, frame, async (theme) => {
		await inEachTheme?.(theme);
		paths.push(await workbench.screenshot(`${name}-${theme.suffix}`));
	});
	return paths;
}

/** Runs `body` in Light+, Dark+ and High Contrast in turn, once the workbench (and `frame`) wear it; then removes the setting. */
export async function inThemes(workbench: Workbench, workspace: string, frame: WebviewFrame | undefined, body: (theme: ScreenshotTheme) => Promise<void>): Promise<void> {
	try {
		for (const theme of screenshotThemes) {
			writeColorTheme(workspace, theme.name);
			await wearing(workbench, theme, frame);
			// The theme's colours are applied by now; one more frame for the webview's repaint.
			await workbench.page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
			await body(theme);
		}
	} finally {
		writeColorTheme(workspace, null);
	}
}
