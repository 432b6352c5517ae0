// Playwright steps on a code-server workbench page: command palette, webview text, notifications, screenshots.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from './playwright.js';
import { pollFor, sleep } from './waitFor.js';

export interface WaitOptions {
	readonly timeoutMs?: number;
}

export interface RunCommandOptions extends WaitOptions {
	/** The command shows a quick pick or an input box itself (the quick input stays open): do not wait for it to close. */
	readonly asksInput?: boolean;
}

export interface WebviewTextOptions extends WaitOptions {
	/** Keep polling until the element's text contains this. */
	readonly contains?: string;
}

const paletteInput = '.quick-input-widget .quick-input-box input';
const paletteRows = '.quick-input-widget .quick-input-list .monaco-list-row';

export class Workbench {
	constructor(
		readonly page: Page,
		private readonly screenshotsDir: string,
		private readonly defaultTimeoutMs: number,
	) {}

	/** Waits until the workbench shell is on screen. */
	async waitUntilVisible(timeoutMs = this.defaultTimeoutMs): Promise<void> {
		await pollFor('the VS Code workbench (.monaco-workbench with a status bar)', timeoutMs, async () =>
			(await this.page.locator('.monaco-workbench .part.statusbar').first().isVisible()) ? true : undefined,
		);
	}

	/**
	 * Runs a command by its palette label ("Category: Title"). Retries F1 → type → pick, because contributed
	 * commands appear only once the extension host has registered the extension.
	 */
	async runCommand(label: string, options: RunCommandOptions = {}): Promise<void> {
		const input = this.page.locator(paletteInput).first();
		const seen = new Set<string>();
		try {
			await pollFor(`command palette entry "${label}"`, options.timeoutMs ?? this.defaultTimeoutMs, async () => {
				if (!(await input.isVisible())) {
					await this.page.keyboard.press('F1');
					await input.waitFor({ state: 'visible', timeout: 5000 });
				}
				await input.fill(`>${label}`, { timeout: 5000 });
				const row = await this.findPaletteRow(label, seen);
				if (row === undefined) {
					// Close and reopen: the palette does not refresh its list when commands register later.
					await this.page.keyboard.press('Escape');
					await input.waitFor({ state: 'hidden', timeout: 5000 });
					return undefined;
				}
				await this.page.locator(paletteRows).nth(row).click({ timeout: 5000 });
				return true;
			}, 0);
		} catch (error) {
			const rows = seen.size > 0 ? ` (rows seen: ${[...seen].slice(0, 10).join(' | ')})` : '';
			throw new Error(`${(error as Error).message}${rows}`);
		}
		if (options.asksInput === true) {
			// The palette's `>` prefix gives way to the command's own quick pick or input box.
			await pollFor(`the quick input of "${label}"`, 5000, async () => ((await input.inputValue({ timeout: 1000 })).startsWith('>') ? undefined : true));
			return;
		}
		await pollFor('the command palette to close', 5000, async () => ((await input.isVisible()) ? undefined : true));
	}

	private async findPaletteRow(label: string, seen: Set<string>): Promise<number | undefined> {
		const deadline = Date.now() + 3000;
		while (Date.now() < deadline) {
			const rows = this.page.locator(paletteRows);
			const count = await rows.count();
			for (let i = 0; i < count; i++) {
				const text = (await rows.nth(i).locator('.label-name').first().innerText({ timeout: 1000 }).catch(() => '')).trim();
				if (text) {
					seen.add(text);
				}
				if (text === label) {
					return i;
				}
			}
			await sleep(200);
		}
		return undefined;
	}

	/** Text of `selector` inside any webview (iframe.webview.ready > #active-frame > selector). */
	async webviewText(selector: string, options: WebviewTextOptions = {}): Promise<string> {
		const what = `webview element ${selector}${options.contains ? ` containing "${options.contains}"` : ''}`;
		let lastText: string | undefined;
		try {
			return await this.pollWebviewText(what, selector, options, (text) => (lastText = text));
		} catch (error) {
			const seen = lastText === undefined ? 'no such element in any webview' : `its last text was "${lastText.slice(0, 200)}"`;
			throw new Error(`${(error as Error).message} (${seen})`);
		}
	}

	private pollWebviewText(what: string, selector: string, options: WebviewTextOptions, seen: (text: string) => void): Promise<string> {
		return pollFor(what, options.timeoutMs ?? this.defaultTimeoutMs, async () => {
			const frames = await this.page.locator('iframe.webview.ready').count();
			for (let i = 0; i < frames; i++) {
				const element = this.page.frameLocator('iframe.webview.ready').nth(i).frameLocator('#active-frame').locator(selector).first();
				if ((await element.count()) === 0) {
					continue;
				}
				const text = await element.innerText({ timeout: 1000 });
				seen(text);
				if (options.contains === undefined || text.includes(options.contains)) {
					return text;
				}
			}
			return undefined;
		});
	}

	/**
	 * Waits for a notification with `text`, as a toast or in the notification center (with the smoke-test
	 * driver on, VS Code often sends notifications straight to the center).
	 */
	async waitForNotification(text: string, options: WaitOptions = {}): Promise<void> {
		const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
		const shown = async (): Promise<true | undefined> => {
			const toast = this.page.locator('.notification-toast, .notifications-center').filter({ hasText: text }).first();
			return (await toast.isVisible()) ? true : undefined;
		};
		if (await shown()) {
			return;
		}
		if (!(await this.page.locator('.notifications-center.visible').first().isVisible())) {
			await this.runCommand('Notifications: Show Notifications', { timeoutMs });
		}
		await pollFor(`notification "${text}" (toast or notification center)`, timeoutMs, shown);
	}

	/** Saves a PNG of the whole window as <screenshotsDir>/<name>.png and returns its path. */
	async screenshot(name: string): Promise<string> {
		mkdirSync(this.screenshotsDir, { recursive: true });
		const path = join(this.screenshotsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
		await this.page.screenshot({ path });
		return path;
	}

	async close(): Promise<void> {
		if (!this.page.isClosed()) {
			await this.page.close().catch(() => undefined);
		}
	}
}

/** Copies the page's console and errors into a log file, for diagnosing a failed step. */
export function recordPageLog(page: Page, logFile: string): void {
	page.on('console', (message) => appendFileSync(logFile, `[${message.type()}] ${message.text()}\n`));
	page.on('pageerror', (error) => appendFileSync(logFile, `[pageerror] ${error.message}\n`));
}
