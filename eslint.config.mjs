// Layer rules: dependencies point one way (see ../shared/STYLE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const vscodeOnly = { group: ['vscode'], message: "Only src/extension may import 'vscode'." };
const noCli = { group: ['**/cli/**', '../cli/*'], message: 'The CLI is a client; core and store never import it.' };
const noStore = { group: ['**/store/**', 'sql.js'], message: 'core is pure: no store, no sql.js.' };
const noNode = { group: ['node:*', 'fs', 'path', 'child_process', 'net', 'http'], message: 'core is pure: no node I/O.' };
const noDomain = { group: ['**/core/**', '**/store/**', '**/host/**', '**/control-plane/**', 'sql.js'], message: 'The CLI imports protocol only.' };

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'media/**'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-imports': ['error', { patterns: [vscodeOnly] }],
		},
	},
	{ files: ['src/core/**/*.ts'], rules: restrict([vscodeOnly, noCli, noStore, noNode]) },
	{ files: ['src/store/**/*.ts'], rules: restrict([vscodeOnly, noCli]) },
	{ files: ['src/protocol/**/*.ts'], rules: restrict([vscodeOnly, noCli, noStore]) },
	{ files: ['src/cli/**/*.ts'], rules: restrict([vscodeOnly, noDomain]) },
	{ files: ['src/host/**/*.ts', 'src/control-plane/**/*.ts', 'src/agents/**/*.ts', 'src/supervisor/**/*.ts'], rules: restrict([vscodeOnly, noCli]) },
	{ files: ['webview/**/*.ts'], rules: restrict([vscodeOnly, noDomain, { group: ['node:*'], message: 'The webview is browser code: protocol, DOM and the UI kit only.' }]) },
	{ files: ['src/extension/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
	{ files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-restricted-imports': 'off' } },
);
