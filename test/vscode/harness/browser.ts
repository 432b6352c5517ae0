// Debian's Chromium driven by playwright-core: a fresh profile per run, headless, no background networking.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessManifest } from './manifest.js';
import { loadChromiumLauncher, type BrowserContext } from './playwright.js';
import { killProcessTree, killProcessTreeNow, processesWithArgument } from './processTree.js';
import { withTimeout } from './waitFor.js';

export interface Browser {
	readonly context: BrowserContext;
	readonly profileDir: string;
	close(): Promise<void>;
	killNow(): void;
}

const chromiumArgs = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-features=Translate,MediaRouter',
];

export async function launchBrowser(manifest: HarnessManifest, runDir: string, timeoutMs: number): Promise<Browser> {
	const profileDir = join(runDir, 'chromium-profile');
	mkdirSync(join(runDir, 'xdg', 'chromium'), { recursive: true });
	const chromium = loadChromiumLauncher(manifest.playwrightCore);
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined) {
			env[key] = value;
		}
	}
	// Chromium's ~/.config/chromium and ~/.cache/dconf stay in the run folder.
	env.XDG_CONFIG_HOME = join(runDir, 'xdg', 'chromium');
	env.XDG_CACHE_HOME = join(runDir, 'xdg', 'chromium');
	const context = await withTimeout(
		`Chromium (${manifest.chromium}) to start`,
		timeoutMs,
		chromium.launchPersistentContext(profileDir, {
			executablePath: manifest.chromium,
			headless: true,
			args: chromiumArgs,
			env,
			viewport: { width: 1400, height: 900 },
			timeout: timeoutMs,
			handleSIGINT: false,
			handleSIGTERM: false,
			handleSIGHUP: false,
		}),
	);
	const chromiumPids = (): number[] => processesWithArgument(profileDir);
	return {
		context,
		profileDir,
		async close(): Promise<void> {
			try {
				await withTimeout('Chromium to close', 10_000, context.close());
			} catch {
				// fall through to killing by pid
			}
			for (const pid of chromiumPids()) {
				await killProcessTree(pid, 1000);
			}
		},
		killNow(): void {
			for (const pid of chromiumPids()) {
				killProcessTreeNow(pid);
			}
		},
	};
}
