// Bundles every entry point into dist/. `node esbuild.mjs [--watch]`.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const node = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: 'linked', logLevel: 'warning' };
const entries = [
	// The commander program is its own file, loaded by cli.js only for help and unusual command lines.
	{ in: 'src/cli/main.ts', out: 'cli', banner: '#!/usr/bin/env node', external: ['./commanderParse.js'] },
	{ in: 'src/cli/commanderParse.ts', out: 'commanderParse' },
	{ in: 'src/supervisor/main.ts', out: 'supervisor' },
	{ in: 'src/host/main.ts', out: 'host' },
	// `tutti mcp` (the MCP SDK): loaded by dist/cli.js only for that command.
	{ in: 'src/cli/mcp/main.ts', out: 'mcp' },
	{ in: 'scripts/demo.ts', out: 'demo' },
	{ in: 'scripts/orchestrator.ts', out: 'orchestrator' },
	{ in: 'src/extension/extension.ts', out: 'extension' },
];
mkdirSync('dist', { recursive: true });
await Promise.all(entries.map((e) => esbuild.build({
	...node,
	entryPoints: [e.in],
	outfile: `dist/${e.out}.js`,
	banner: e.banner ? { js: e.banner } : undefined,
	external: ['vscode', ...(e.external ?? [])],
})));
// The issue panel: browser code, ESM, its CSS emitted beside it (localResourceRoots = dist/webview only).
await esbuild.build({
	bundle: true, platform: 'browser', format: 'esm', target: 'es2022', sourcemap: 'linked', logLevel: 'warning', minify: true,
	entryPoints: { issuePanel: 'webview/issuePanel/main.ts', newIssue: 'webview/newIssue/main.ts' },
	outdir: 'dist/webview',
	loader: { '.ttf': 'file' },
	assetNames: '[name]',
});
chmodSync('dist/cli.js', 0o755);
copyFileSync(join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');
