// Lint is the layer table (each layer imports only the layers below it): dependencies point one way. Each layer lists
// what it MAY import; every other layer and every other package is refused by `no-restricted-imports`.
// test/unit/lint/layers.test.ts lints a probe import for every forbidden edge and expects it refused.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The layers: folders of src/ (webview/ sits beside src/). */
const layers = ['core', 'protocol', 'store', 'host', 'agents', 'supervisor', 'control-plane', 'cli', 'ipc', 'extension'];
const node = ['node:[a-z_/]+'];
/** Protocol is zod: a layer that may import protocol may use zod's own helpers on its schemas. */
const zod = ['zod'];

/**
 * What each layer may import besides itself. `host` is the headless Host's composition root: besides the table's
 * core, protocol and store it wires the agent adapters, the Run supervisor and the control-plane server (as
 * src/extension wires everything for VS Code). `supervisor` drives the agents that speak a protocol while they run
 * (codex app-server's JSON-RPC client lives with the codex adapter in agents; agents never import the supervisor).
 * `ipc` is node-only: where the Host's socket is and one POST over it, shared by every client (cli, supervisor,
 * extension) and the Host, so the CLI still reaches only protocol and node:* through it.
 */
const table = {
	core: { layers: [], packages: [] },
	protocol: { layers: [], packages: zod },
	store: { layers: ['core'], packages: ['sql\\.js', ...node] },
	host: { layers: ['core', 'protocol', 'store', 'ipc', 'agents', 'supervisor', 'control-plane'], packages: [...node, ...zod] },
	agents: { layers: ['core', 'protocol', 'store'], packages: [...node, ...zod] },
	supervisor: { layers: ['core', 'protocol', 'store', 'ipc', 'agents'], packages: [...node, ...zod] },
	'control-plane': { layers: ['core', 'protocol', 'ipc'], packages: [...node, ...zod] },
	cli: { layers: ['protocol', 'ipc'], packages: ['commander', '@modelcontextprotocol/sdk', ...node, ...zod] },
	ipc: { layers: [], packages: node },
};

/** A relative import that reaches into one of `names` (a path segment `name/`, any depth of `../`). */
const relativeInto = (names) => `^\\.{1,2}/(?:.*/)?(?:${names.join('|')})/`;
/** A bare (package) import other than `allowed` (each a regex for the whole name, subpaths allowed). */
const packageOtherThan = (allowed) => allowed.length === 0 ? '^[^.]' : `^(?!(?:${allowed.join('|')})(?:/|$))[^.]`;

/** The `no-restricted-imports` patterns of one layer. */
const layerPatterns = (layer, may) => {
	const forbidden = layers.filter((other) => other !== layer && !may.layers.includes(other));
	const allowed = [`src/${layer}`, ...may.layers.map((l) => `src/${l}`), ...may.packages.map((p) => p.replace(/\\/g, ''))].join(', ');
	const message = `src/${layer} may import only ${allowed} (the layer table).`;
	return [
		{ regex: relativeInto(forbidden), message, caseSensitive: true },
		{ regex: packageOtherThan(may.packages), message, caseSensitive: true },
	];
};

const layerRules = Object.entries(table).map(([layer, may]) => ({
	files: [`src/${layer}/**/*.ts`],
	rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns(layer, may) }] },
}));

/**
 * Inside the Host, the control-plane services (src/host/services) sit on top: the lifecycles of Runs, wakes and Turns
 * and what they stand on never import a service (a service may import them).
 */
const belowServices = ['runs', 'wakes', 'turns', 'checkpoints', 'checks', 'delivery', 'worktrees', 'usage'];
const belowServicesRule = {
	files: belowServices.map((folder) => `src/host/${folder}/**/*.ts`),
	rules: { 'no-restricted-imports': ['error', { patterns: [
		...layerPatterns('host', table.host),
		{ regex: relativeInto(['services']), message: `src/host/{${belowServices.join(',')}} never import src/host/services (services sit on top).`, caseSensitive: true },
	] }] },
};

const webviewMessage = 'webview/ is browser code: src/protocol (and zod), the DOM and the UI kit (with its codicons) only (the layer table).';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'media/**'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-imports': ['error', { patterns: [{ group: ['vscode'], message: "Only src/extension may import 'vscode'." }] }],
		},
	},
	...layerRules,
	belowServicesRule,
	{
		files: ['webview/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { patterns: [
				{ regex: '^\\.{1,2}/(?:.*/)?src/(?!protocol/)', message: webviewMessage, caseSensitive: true },
				{ regex: packageOtherThan(['zod', '@dagrejs/dagre', '@vscode/webview-ui-toolkit', '@vscode/codicons']), message: webviewMessage, caseSensitive: true },
			] }],
		},
	},
	{ files: ['src/extension/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
	{ files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-restricted-imports': 'off' } },
);
