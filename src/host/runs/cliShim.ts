// The `tutti` shim an agent finds first on PATH: `<private dir>/tutti` runs the Host's own CLI bundle with the
// Host's own Node (VS Code's Electron in Node mode inside the editor), so agents need no Node install. The
// directory is the Host's own 0700 one outside the workspace (next to its socket; the extension's globalStorage
// for terminals): nothing a repository delivers can sit on an agent's PATH or stand in for `tutti`.
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirectory } from '../../control-plane/privateFiles.js';

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The shim script's text. Volatile paths live here, never in the environment. */
export function cliShimText(nodePath: string, nodeArgs: readonly string[], cliScript: string): string {
	const words = [nodePath, ...nodeArgs, cliScript].map(shellQuote).join(' ');
	return [
		'#!/bin/sh',
		'# Written by Tutti: runs the `tutti` CLI that belongs to this Host. Rewritten when its paths change.',
		'# The CLI only talks to a local socket: extra CA certificates would cost ~80 ms per start on Node 20.',
		'unset NODE_EXTRA_CA_CERTS',
		`ELECTRON_RUN_AS_NODE=1 exec ${words} "$@"`,
		'',
	].join('\n');
}

/** The shim directory of a Host: `bin/` in its private runtime directory (the one holding its socket). */
export function hostShimDir(runtimeDir: string): string {
	return join(runtimeDir, 'bin');
}

/** Writes `<binDir>/tutti` (0755 in a 0700 directory) unless it already has this exact text. Returns binDir. */
export function ensureCliShim(binDir: string, nodePath: string, nodeArgs: readonly string[], cliScript: string): string {
	const text = cliShimText(nodePath, nodeArgs, cliScript);
	const shim = join(binDir, 'tutti');
	ensurePrivateDirectory(binDir);
	let current: string | null = null;
	try { current = readFileSync(shim, 'utf8'); } catch { /* first write */ }
	if (current !== text) {
		const tmp = `${shim}.${process.pid}.tmp`;
		writeFileSync(tmp, text, { mode: 0o755 });
		chmodSync(tmp, 0o755);
		renameSync(tmp, shim);
	}
	return binDir;
}
