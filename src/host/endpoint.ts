// The Host's endpoint on disk: the 0700 runtime directory holding the socket and the 0600 user credential.
// Paths come from src/protocol/endpointPaths.ts so that the CLI derives the same ones; the discovery file is
// written by the control-plane server once it listens (src/control-plane/discoveryFile.ts).
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { DomainError } from '../core/errors.js';
import { ensurePrivateDirectory, writePrivateFile } from '../control-plane/privateFiles.js';
import {
	type EndpointEnvironment, type EndpointPaths, discoveryDirFor, endpointEnvironmentFrom, endpointPathsFor, fitsSunPath,
} from '../ipc/endpointPaths.js';

/** The endpoint environment of this process (`env` defaults to `process.env`). */
export function endpointEnvironment(env: NodeJS.ProcessEnv = process.env): EndpointEnvironment {
	return endpointEnvironmentFrom(env, { tmpDir: os.tmpdir(), uid: process.getuid?.() ?? -1, platform: process.platform });
}

/** Derives the endpoint of a workspace (pass its realpath) and creates its private directories (0700). */
export function prepareEndpoint(realWorkspace: string, env: EndpointEnvironment): EndpointPaths {
	const paths = endpointPathsFor(realWorkspace, env);
	if (env.platform !== 'win32' && !fitsSunPath(paths.socketPath)) {
		throw new DomainError('host_unavailable', `the socket path ${paths.socketPath} is longer than a Unix socket allows`,
			'set TMPDIR (or XDG_RUNTIME_DIR) to a shorter directory, then run `tutti host --workspace DIR` again');
	}
	ensurePrivateDirectory(paths.runtimeDir);
	ensurePrivateDirectory(discoveryDirFor(env));
	return paths;
}

/** Writes a fresh random user credential (32 bytes, hex) with mode 0600 and returns it. */
export function writeUserCredential(file: string): string {
	const token = randomBytes(32).toString('hex');
	writePrivateFile(file, `${token}\n`);
	return token;
}
