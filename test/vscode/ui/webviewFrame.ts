// The issue panel's document inside the workbench (iframe.webview > #active-frame) as a Playwright Frame, so a
// test can click inside it and evaluate code in it (the panel's `panel-render` performance measures).
import type { Locator, Page } from '../harness/playwright.js';
import { pollFor } from '../harness/waitFor.js';

/** The part of playwright-core's Frame the UI tests use (the harness types only what it needs itself). */
export interface WebviewFrame {
	locator(selector: string): Locator;
	/** Evaluates a JavaScript expression in the webview (a string: the repo's tsconfig has no DOM types). */
	evaluate<R>(expression: string): Promise<R>;
	isDetached(): boolean;
}

interface PageWithFrames {
	frames(): WebviewFrame[];
}

/** Every frame that holds an issue panel (it has #header-region), newest last. */
async function panelFrames(page: Page): Promise<WebviewFrame[]> {
	const found: WebviewFrame[] = [];
	for (const frame of (page as unknown as PageWithFrames).frames()) {
		if (frame.isDetached()) {
			continue;
		}
		const isPanel = await frame.evaluate<boolean>("document.querySelector('#header-region') !== null").catch(() => false);
		if (isPanel) {
			found.push(frame);
		}
	}
	return found;
}

/** Waits for the issue panel whose header shows `title` (bounded) and returns its frame. */
export function issuePanelFrame(page: Page, title: string, timeoutMs = 30_000): Promise<WebviewFrame> {
	return pollFor(`the issue panel of "${title}"`, timeoutMs, async () => {
		for (const frame of await panelFrames(page)) {
			const header = await frame.evaluate<string>("document.querySelector('#header-region')?.textContent ?? ''").catch(() => '');
			if (header.includes(title)) {
				return frame;
			}
		}
		return undefined;
	});
}

/** Waits until `selector` inside the panel is visible (and, with `contains`, its text contains it); returns the text. */
export function waitInPanel(frame: WebviewFrame, selector: string, what: string, options: { contains?: string; timeoutMs?: number } = {}): Promise<string> {
	let last = '';
	return pollFor(what, options.timeoutMs ?? 15_000, async () => {
		const element = frame.locator(selector).first();
		if (!(await element.isVisible())) {
			return undefined;
		}
		last = await element.innerText({ timeout: 1000 });
		return options.contains === undefined || last.includes(options.contains) ? last : undefined;
	}).catch((error: Error) => {
		throw new Error(`${error.message}${last ? ` (last text: "${last.slice(0, 300)}")` : ''}`);
	});
}

/** The `panel-render` measures (ms) recorded so far in the panel, with the task count each render drew. */
export function panelRenderMeasures(frame: WebviewFrame): Promise<{ durationMs: number; tasks: number }[]> {
	return frame.evaluate("performance.getEntriesByName('panel-render').map((e) => ({ durationMs: e.duration, tasks: Number(e.detail?.tasks ?? -1) }))");
}

/** Waits for a webview frame in which `selector` matches (bounded), e.g. the New Issue form's `#new-issue-form`. */
export function webviewFrameWith(page: Page, selector: string, what: string, timeoutMs = 30_000): Promise<WebviewFrame> {
	const probe = `document.querySelector(${JSON.stringify(selector)}) !== null`;
	return pollFor(what, timeoutMs, async () => {
		for (const frame of (page as unknown as PageWithFrames).frames()) {
			if (!frame.isDetached() && await frame.evaluate<boolean>(probe).catch(() => false)) {
				return frame;
			}
		}
		return undefined;
	});
}
