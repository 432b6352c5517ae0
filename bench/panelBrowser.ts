// The issue panel's graph in a real browser (Debian's Chromium through the VS Code harness's playwright-core): the
// built webview bundle (dist/webview/issuePanel.js + CSS) on a page like the panel's, served from 127.0.0.1, with a
// stub of VS Code's webview API; synthetic snapshots of 50 / 200 / 1,000 tasks are posted to it as the extension
// would: the complete snapshot first, then each status change as the Host's delta against the snapshot drawn. Each figure runs from the snapshot message until the frame after the render has painted (validation,
// layout, VNodes, DOM, style, layout, paint), medians; "JS" is the panel's own `panel-render` measure (layout + VNodes
// + DOM). Never assertions on time.
//   node --import tsx bench/panelBrowser.ts [--runs N]      (needs `npm run build` and the harness)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { issuePanelHtml } from '../src/extension/panels/issuePanelHtml.js';
import type { PanelPersistedState, PanelSnapshot, ToWebview } from '../src/protocol/webview.js';
import { launchBrowser } from '../test/vscode/harness/browser.js';
import { readHarnessManifest } from '../test/vscode/harness/manifest.js';
import type { Page } from '../test/vscode/harness/playwright.js';
import { snapshotDelta } from '../src/protocol/webviewDelta.js';
import { benchSnapshot, withStatus } from './panelRender.js';
import { fmtMs, median } from './stats.js';

const distWebview = path.resolve(__dirname, '..', 'dist', 'webview');
const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };
const nonce = 'benchnonce';

/** Theme variables VS Code would inject (Dark+ values for the few the graph reads), so colours resolve as in VS Code. */
const themeStyle = `<style nonce="${nonce}">:root{--vscode-foreground:#ccc;--vscode-descriptionForeground:#9d9d9d;--vscode-editor-background:#1e1e1e;` +
	`--vscode-focusBorder:#007fd4;--vscode-charts-blue:#3794ff;--vscode-charts-green:#89d185;--vscode-charts-yellow:#cca700;--vscode-charts-red:#f14c4c;` +
	`--vscode-font-family:sans-serif;--vscode-font-size:13px;}body{background:#1e1e1e}</style>`;

function stubScript(state: PanelPersistedState | null): string {
	return `<script nonce="${nonce}">
window.__state = ${JSON.stringify(state)};
window.acquireVsCodeApi = () => ({ postMessage() {}, getState: () => window.__state, setState: (s) => { window.__state = s; } });
window.__timeSnapshot = (message) => new Promise((resolve) => {
	const started = performance.now();
	const before = performance.getEntriesByName('panel-render').length;
	const onMessage = () => {
		window.removeEventListener('message', onMessage);
		const handledMs = performance.now() - started;
		let frameMs = 0;
		requestAnimationFrame(() => { frameMs = performance.now() - started; setTimeout(() => {
			const measures = performance.getEntriesByName('panel-render');
			const js = measures.length > before ? measures[measures.length - 1].duration : NaN;
			resolve({ totalMs: performance.now() - started, jsMs: js, handledMs, frameMs, nodes: document.querySelectorAll('#task-graph g.node').length });
		}, 0); });
	};
	window.addEventListener('message', onMessage);
	window.postMessage(message, '*');
});
</script>`;
}

function serve(page: () => string): Promise<{ server: Server; origin: string }> {
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		if (url.pathname === '/') {
			res.writeHead(200, { 'content-type': 'text/html' }).end(page());
			return;
		}
		const file = path.join(distWebview, path.basename(url.pathname));
		let body: Buffer;
		try { body = readFileSync(file); } catch { res.writeHead(404).end(); return; }
		res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
		resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
	}));
}


interface Timing { totalMs: number; jsMs: number; handledMs: number; frameMs: number; nodes: number }

export interface BrowserRenderRow {
	readonly tasks: number;
	readonly detail: 'full' | 'blocks';
	readonly zoom: number;
	readonly first: readonly Timing[];
	readonly change: readonly Timing[];
}

async function timeOn(page: Page, message: ToWebview): Promise<Timing> {
	return page.evaluate<Timing>(`window.__timeSnapshot(${JSON.stringify(message)})`);
}

/** The panel's regions as drawn (markup), for comparing a page patched by deltas with a fresh one. */
const drawnMarkup = `(() => ['header-region', 'toolbar-region', 'graph-status-region', 'graph-canvas', 'detail-region']
	.map((id) => document.getElementById(id).innerHTML).join('\\n'))()`;

/** The page the deltas patched draws exactly what a fresh page draws from the final snapshot, or the bench stops. */
async function assertSameAsFresh(page: Page, origin: string, final: PanelSnapshot): Promise<void> {
	const patched = await page.evaluate<string>(drawnMarkup);
	await page.goto(`${origin}/`, { waitUntil: 'load' });
	await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
	await timeOn(page, { ...final, seq: 1 });
	const fresh = await page.evaluate<string>(drawnMarkup);
	if (patched !== fresh) {
		let at = 0;
		while (at < patched.length && patched[at] === fresh[at]) { at++; }
		throw new Error(`the panel patched by deltas differs from a fresh render at ${at}:\n  patched …${patched.slice(Math.max(0, at - 80), at + 80)}\n  fresh   …${fresh.slice(Math.max(0, at - 80), at + 80)}`);
	}
}

export async function benchPanelBrowser(options: { runs?: number; sizes?: readonly number[]; log?: (l: string) => void; screenshotsDir?: string } = {}): Promise<BrowserRenderRow[]> {
	const runs = options.runs ?? 5;
	const log = options.log ?? ((): void => undefined);
	const manifest = readHarnessManifest();
	let state: PanelPersistedState | null = null;
	const { server, origin } = await serve(() => issuePanelHtml({
		cspSource: origin, scriptUri: `${origin}/issuePanel.js`, styleUri: `${origin}/issuePanel.css`, nonce, issueId: 'bench', title: 'Bench',
	}).replace('</head>', `${themeStyle}</head>`).replace('<script type="module"', `${stubScript(state)}\n<script type="module"`));
	const runDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-bench-panel-'));
	const browser = await launchBrowser(manifest, runDir, 60_000);
	const rows: BrowserRenderRow[] = [];
	try {
		const page = await browser.context.newPage();
		for (const n of options.sizes ?? [50, 200, 1_000]) {
			const snapshot = benchSnapshot(n);
			for (const [detail, zoom] of [['full', 1], ['blocks', 0.25]] as const) {
				state = { issueId: 'bench', selectedTaskId: null, showHistory: false, scroll: { left: 0, top: 0 }, zoom };
				const first: Timing[] = [];
				const change: Timing[] = [];
				for (let r = 0; r < runs; r++) {
					await page.goto(`${origin}/`, { waitUntil: 'load' });
					await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
					first.push(await timeOn(page, snapshot));
					// Status changes on the open page, one task each, posted as the Host posts them: a delta against
					// the snapshot the page drew.
					let drawn = snapshot;
					for (let k = 0; k < 3; k++) {
						const taskId = `t${(r * 7 + k * 13) % n}`;
						const next = withStatus(drawn, taskId, k % 2 === 0 ? 'failed' : 'pending_acceptance', 2 + k);
						change.push(await timeOn(page, snapshotDelta(drawn, next) ?? next));
						drawn = next;
					}
					if (r === runs - 1) { await assertSameAsFresh(page, origin, drawn); }
				}
				if (options.screenshotsDir) { await page.screenshot({ path: path.join(options.screenshotsDir, `panel-${n}-${detail}.png`) }); }
				log(`${n} tasks, ${detail}: first ${fmtMs(median(first.map((t) => t.totalMs)))}, change ${fmtMs(median(change.map((t) => t.totalMs)))}`);
				rows.push({ tasks: n, detail, zoom, first, change });
			}
		}
	} finally {
		await browser.close();
		server.close();
		rmSync(runDir, { recursive: true, force: true });
	}
	return rows;
}

export function formatPanelBrowser(rows: readonly BrowserRenderRow[]): string {
	const at1k = (detail: string): BrowserRenderRow | undefined => rows.find((r) => r.tasks === 1_000 && r.detail === detail);
	const lines = [
		'| tasks | nodes drawn as | first render to paint (median) | of which JS | status change to paint (median) | of which message + validation | of which JS | samples (first / change) |',
		'|---|---|---|---|---|---|---|---|',
	];
	for (const r of rows) {
		const m = (xs: readonly Timing[], k: 'totalMs' | 'jsMs'): number => median(xs.map((x) => x[k]));
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${r.detail === 'full' ? 'text (zoom 100%)' : 'blocks (zoom 25%)'} | ${fmtMs(m(r.first, 'totalMs'))} | ${fmtMs(m(r.first, 'jsMs'))} | ` +
			`${fmtMs(m(r.change, 'totalMs'))} | ${fmtMs(median(r.change.map((x) => x.handledMs - x.jsMs)))} | ${fmtMs(m(r.change, 'jsMs'))} | ${r.first.length} / ${r.change.length} |`);
	}
	const ratios: string[] = [];
	for (const detail of ['full', 'blocks']) {
		const big = at1k(detail);
		if (!big) { continue; }
		const first = median(big.first.map((x) => x.totalMs));
		const change = median(big.change.map((x) => x.totalMs));
		ratios.push(`at 1,000 tasks (${detail === 'full' ? 'text' : 'blocks'}): first render ${fmtMs(first)} = ${(first / 500).toFixed(2)}× the 500 ms goal, ` +
			`status change ${fmtMs(change)} = ${(change / 50).toFixed(2)}× the 50 ms goal`);
	}
	return `${lines.join('\n')}\n\nRatios to the goals: ${ratios.join('; ')}.`;
}

if (require.main === module) {
	const { values } = parseArgs({ options: { runs: { type: 'string' } } });
	benchPanelBrowser({ runs: Number(values.runs ?? 5), log: (l) => console.error(`  ${l}`) })
		.then((rows) => console.log(formatPanelBrowser(rows)))
		.catch((e: unknown) => { console.error(e instanceof Error ? e.stack : e); process.exit(1); });
}
