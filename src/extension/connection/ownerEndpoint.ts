// Where the Host that owns a workspace listens: its discovery file when there is one, else the derived socket path
// (both come from src/protocol/endpointPaths.ts, the same derivation the Host and the CLI use). A discovery file
// that is not this user's own (src/ipc/ownPaths.ts) is never followed.
import { endpointEnvironment } from '../../host/endpoint.js';
import { endpointPathsFor, parseDiscoveryRecord, userTokenPathForSocket } from '../../ipc/endpointPaths.js';
import { readOwnFile } from '../../ipc/ownPaths.js';

export interface OwnerEndpoint {
	readonly socketPath: string;
	readonly userTokenPath: string;
	/** From the discovery file, when it names one. */
	readonly pid?: number;
}

/** The socket path this window's Host uses (or would use) for the workspace (pass its real path). Stable. */
export function workspaceSocketPath(realWorkspace: string, env: NodeJS.ProcessEnv = process.env): string {
	return endpointPathsFor(realWorkspace, endpointEnvironment(env)).socketPath;
}

export function ownerEndpoint(realWorkspace: string, env: NodeJS.ProcessEnv = process.env): OwnerEndpoint {
	const paths = endpointPathsFor(realWorkspace, endpointEnvironment(env));
	try {
		const text = readOwnFile(paths.discoveryFile);
		const record = text === null ? null : parseDiscoveryRecord(text);
		if (record !== null && record.workspace === realWorkspace) {
			return { socketPath: record.socket, userTokenPath: userTokenPathForSocket(record.socket), pid: record.pid };
		}
	} catch {
		// Not this user's own: the derived path (its socket is checked again before every request).
	}
	return { socketPath: paths.socketPath, userTokenPath: paths.userTokenPath };
}
