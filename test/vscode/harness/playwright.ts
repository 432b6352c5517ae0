// The slice of playwright-core the harness uses, typed here because playwright-core lives in the harness
// folder (installed by scripts/vscode-harness/install.sh), not in the repo's node_modules.
import { createRequire } from 'node:module';

export interface ConsoleMessage {
	type(): string;
	text(): string;
}

export interface Locator {
	first(): Locator;
	nth(index: number): Locator;
	filter(options: { hasText?: string | RegExp; has?: Locator }): Locator;
	locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
	count(): Promise<number>;
	waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
	fill(value: string, options?: { timeout?: number }): Promise<void>;
	click(options?: { timeout?: number; position?: { x: number; y: number }; button?: 'left' | 'right'; force?: boolean }): Promise<void>;
	check(options?: { timeout?: number }): Promise<void>;
	uncheck(options?: { timeout?: number }): Promise<void>;
	selectOption(value: string, options?: { timeout?: number }): Promise<string[]>;
	press(key: string, options?: { timeout?: number }): Promise<void>;
	isVisible(): Promise<boolean>;
	isChecked(options?: { timeout?: number }): Promise<boolean>;
	innerText(options?: { timeout?: number }): Promise<string>;
	getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
	allInnerTexts(): Promise<string[]>;
	inputValue(options?: { timeout?: number }): Promise<string>;
	hover(options?: { timeout?: number }): Promise<void>;
}

export interface FrameLocator {
	first(): FrameLocator;
	nth(index: number): FrameLocator;
	frameLocator(selector: string): FrameLocator;
	locator(selector: string): Locator;
}

export interface Page {
	goto(url: string, options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' | 'commit' }): Promise<unknown>;
	exposeFunction(name: string, callback: (...args: never[]) => unknown): Promise<void>;
	locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
	frameLocator(selector: string): FrameLocator;
	readonly keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
	screenshot(options: { path: string; fullPage?: boolean }): Promise<Buffer>;
	title(): Promise<string>;
	/** Evaluates a JavaScript expression in the page (awaits a promise it returns). */
	evaluate<R>(expression: string): Promise<R>;
	reload(options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' | 'commit' }): Promise<unknown>;
	on(event: 'console', listener: (message: ConsoleMessage) => void): unknown;
	on(event: 'pageerror', listener: (error: Error) => void): unknown;
	isClosed(): boolean;
	close(): Promise<void>;
}

export interface BrowserContext {
	newPage(): Promise<Page>;
	pages(): Page[];
	close(): Promise<void>;
}

export interface ChromiumLauncher {
	launchPersistentContext(
		userDataDir: string,
		options: {
			executablePath: string;
			headless: boolean;
			args: string[];
			env: Record<string, string>;
			viewport: { width: number; height: number };
			timeout: number;
			handleSIGINT: boolean;
			handleSIGTERM: boolean;
			handleSIGHUP: boolean;
		},
	): Promise<BrowserContext>;
}

export function loadChromiumLauncher(playwrightCoreDir: string): ChromiumLauncher {
	const load = createRequire(__filename);
	return (load(playwrightCoreDir) as { chromium: ChromiumLauncher }).chromium;
}
