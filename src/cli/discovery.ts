// How the CLI finds the Host: TUTTI_IPC_HOOK, else the discovery file of the current folder or its nearest
// ancestor that has one. Paths come from src/protocol/endpointPaths.ts, shared with the Host. Every discovery
// directory, discovery file and credential is checked to be this user's own before it is read (src/ipc/ownPaths.ts):
// a path that is not throws UntrustedPathError, which callHost turns into a refusal that names it.
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
	type EndpointEnvironment, discoveryDirFor, endpointEnvironmentFrom, parseDiscoveryRecord, userTokenPathForSocket, workspaceKey,
} from '../ipc/endpointPaths.js';
import { checkOwnDirectory, readOwnCredential, readOwnFile } from '../ipc/ownPaths.js';

export interface ResolvedEndpoint {
	socketPath: string;
	/** The 0600 user credential next to the socket (for --as-user). */
	userTokenPath: string;
	/** How it was found. */
	source: 'TUTTI_IPC_HOOK' | 'discovery';
	/** The workspace of the discovery file. */
	workspace?: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

export function cliEndpointEnvironment(env: Env): EndpointEnvironment {
	return endpointEnvironmentFrom(env, { tmpDir: tmpdir(), uid: process.getuid?.() ?? -1, platform: process.platform });
}

/**
 * The endpoint to call, or null when neither TUTTI_IPC_HOOK nor a discovery file names one. Throws UntrustedPathError
 * when the discovery directory or a discovery file on the way is not this user's own.
 */
export function resolveEndpoint(env: Env, cwd: string): ResolvedEndpoint | null {
	const hook = env['TUTTI_IPC_HOOK'];
	if (hook) {
		return { socketPath: hook, userTokenPath: userTokenPathForSocket(hook), source: 'TUTTI_IPC_HOOK' };
	}
	const discoveryDir = discoveryDirFor(cliEndpointEnvironment(env));
	if (!checkOwnDirectory(discoveryDir)) {
		return null;
	}
	let dir = realpathOr(cwd);
	for (;;) {
		const record = readDiscovery(join(discoveryDir, `${workspaceKey(dir)}.json`));
		if (record !== null && record.workspace === dir) {
			return { socketPath: record.socket, userTokenPath: userTokenPathForSocket(record.socket), source: 'discovery', workspace: dir };
		}
		const parent = dirname(dir);
		if (parent === dir) {
			return null;
		}
		dir = parent;
	}
}

/**
 * The user credential for --as-user, or null when the file is missing or unreadable. Throws UntrustedPathError when
 * it (or its directory) is not this user's own: a symlink planted there would hand this user's credential to
 * whoever owns the socket.
 */
export function readUserToken(file: string): string | null {
	return readOwnCredential(file);
}

function readDiscovery(file: string): ReturnType<typeof parseDiscoveryRecord> {
	const text = readOwnFile(file);
	return text === null ? null : parseDiscoveryRecord(text);
}

function realpathOr(dir: string): string {
	try {
		return realpathSync(dir);
	} catch {
		return resolve(dir);
	}
}
