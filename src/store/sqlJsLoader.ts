// Loads the sql.js WASM module once per process, both bundled (dist/sql-wasm.wasm next to the bundle) and from
// source under tsx (node_modules/sql.js/dist/sql-wasm.wasm).
// Behaviour assumption: sql.js >= 1.15, whose export() keeps the connection and its prepared statements.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

const wasmFileName = 'sql-wasm.wasm';

/** The sql-wasm.wasm to load: next to this (bundled) file first, else the one in the sql.js package. */
export function sqlJsWasmPath(): string {
	const besideBundle = join(__dirname, wasmFileName);
	if (existsSync(besideBundle)) {
		return besideBundle;
	}
	return require.resolve(`sql.js/dist/${wasmFileName}`);
}

// Process-wide cache of an immutable library handle (the only module-level state in the store).
let loading: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(): Promise<SqlJsStatic> {
	if (!loading) {
		const wasm = sqlJsWasmPath();
		loading = initSqlJs({ locateFile: (file: string) => (file.endsWith('.wasm') ? wasm : file) });
		loading.catch(() => { loading = undefined; });
	}
	return loading;
}
