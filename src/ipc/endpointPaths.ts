// Where a workspace's Host listens and how clients find it: pure path derivation shared by the Host and every
// client (node:crypto and node:path, no I/O), so that they derive byte-identical paths from one implementation.
import type * as Crypto from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';

export const socketFileName = 'cp.sock';
export const userTokenFileName = 'user.token';
/** sun_path is 108 bytes on Linux and 104 on macOS, both including the terminating NUL. */
export const maxSocketPathBytes = 103;

/** What the derivation depends on; pass `process`-derived values (the functions stay pure and testable). */
export interface EndpointEnvironment {
	/** `$XDG_RUNTIME_DIR`, if set and non-empty. */
	xdgRuntimeDir?: string;
	/** `os.tmpdir()`. */
	tmpDir: string;
	/** `process.getuid()`, or -1 where there is none. */
	uid: number;
	platform: NodeJS.Platform;
}

export interface EndpointPaths {
	/** The 0700 directory holding the socket and the user credential. Empty on Windows (named pipe). */
	runtimeDir: string;
	socketPath: string;
	userTokenPath: string;
	discoveryFile: string;
}

/** The contents of a discovery file. */
export interface DiscoveryRecord {
	workspace: string;
	socket: string;
	pid: number;
}

/**
 * The endpoint environment from an environment-variable record: `XDG_RUNTIME_DIR` and `TMPDIR` when absolute,
 * else `fallback.tmpDir` (pass `os.tmpdir()`). Host and CLI both call this so they agree.
 */
export function endpointEnvironmentFrom(
	env: Readonly<Record<string, string | undefined>>,
	fallback: { tmpDir: string; uid: number; platform: NodeJS.Platform },
): EndpointEnvironment {
	const absolute = (value: string | undefined): string | undefined =>
		value && isAbsolute(value) ? stripTrailingSeparators(value) : undefined;
	return {
		xdgRuntimeDir: absolute(env['XDG_RUNTIME_DIR']),
		tmpDir: absolute(env['TMPDIR']) ?? fallback.tmpDir,
		uid: fallback.uid,
		platform: fallback.platform,
	};
}

function stripTrailingSeparators(value: string): string {
	const trimmed = value.replace(/[\\/]+$/, '');
	return trimmed === '' ? value.slice(0, 1) : trimmed;
}

/** A short stable key for a workspace: the first 12 hex digits of sha256 of its real path. */
export function workspaceKey(realWorkspace: string): string {
	// node:crypto is loaded here, not at start-up: a `tutti` command that has TUTTI_IPC_HOOK never needs it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	const { createHash } = require('node:crypto') as typeof Crypto;
	return createHash('sha256').update(realWorkspace).digest('hex').slice(0, 12);
}

/**
 * The endpoint of the Host for a workspace (pass its realpath). The runtime directory is
 * `$XDG_RUNTIME_DIR/tutti-<key>` when that keeps the socket path under the sun_path limit, else
 * `<tmp>/tutti-<uid>-<key>`, else `/tmp/tutti-<uid>-<key>`.
 */
export function endpointPathsFor(realWorkspace: string, env: EndpointEnvironment): EndpointPaths {
	const key = workspaceKey(realWorkspace);
	const discoveryFile = join(discoveryDirFor(env), `${key}.json`);
	if (env.platform === 'win32') {
		const runtimeDir = join(env.tmpDir, `tutti-${key}`);
		return { runtimeDir, socketPath: `\\\\.\\pipe\\tutti-${key}`, userTokenPath: join(runtimeDir, userTokenFileName), discoveryFile };
	}
	const candidates: string[] = [];
	if (env.xdgRuntimeDir) {
		candidates.push(join(env.xdgRuntimeDir, `tutti-${key}`));
	}
	candidates.push(join(env.tmpDir, `tutti-${env.uid}-${key}`), join('/tmp', `tutti-${env.uid}-${key}`));
	const runtimeDir = candidates.find((dir) => fitsSunPath(join(dir, socketFileName))) ?? candidates[candidates.length - 1]!;
	return { runtimeDir, socketPath: join(runtimeDir, socketFileName), userTokenPath: join(runtimeDir, userTokenFileName), discoveryFile };
}

/** Where discovery files live: `$XDG_RUNTIME_DIR/tutti-discovery`, else `<tmp>/tutti-discovery-<uid>` (per user). */
export function discoveryDirFor(env: EndpointEnvironment): string {
	return env.xdgRuntimeDir ? join(env.xdgRuntimeDir, 'tutti-discovery') : join(env.tmpDir, `tutti-discovery-${env.uid}`);
}

/** The user credential sits next to the socket (for `TUTTI_IPC_HOOK` users, who only know the socket path). */
export function userTokenPathForSocket(socketPath: string): string {
	return join(dirname(socketPath), userTokenFileName);
}

export function fitsSunPath(socketPath: string): boolean {
	return new TextEncoder().encode(socketPath).length <= maxSocketPathBytes;
}

/** A discovery file's record, or null when the text is not one (hand-checked: the CLI does not load zod). */
export function parseDiscoveryRecord(text: string): DiscoveryRecord | null {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	if (typeof value !== 'object' || value === null) {
		return null;
	}
	const record = value as Record<string, unknown>;
	const { workspace, socket, pid } = record;
	if (typeof workspace !== 'string' || typeof socket !== 'string' || typeof pid !== 'number' || !Number.isInteger(pid)) {
		return null;
	}
	return { workspace, socket, pid };
}
