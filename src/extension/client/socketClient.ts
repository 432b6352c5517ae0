// The viewer window's client: another window owns the store, so every call (and every action) goes to that
// owner over its control-plane socket, as the developer (the 0600 user credential next to the socket).
// Replies are validated with the same method table the server uses.
import { readOwnCredential } from '../../ipc/ownPaths.js';
import { type HostReply, postToHost } from '../../ipc/postToHost.js';
import { methods, peerErrorReply, wireReply, type Method, type Params, type Result } from '../../protocol/controlPlane.js';
import { fromUnknownReason } from '../../protocol/reasonCodes.js';
import { type CallOptions, HostCallError, type HostClient, notAvailable } from './hostClient.js';

export interface SocketEndpoint {
	readonly socketPath: string;
	readonly userTokenPath: string;
}

const requestTimeoutMs = 60_000;

export class SocketClient implements HostClient {
	readonly mode = 'viewer' as const;

	constructor(private readonly endpoint: SocketEndpoint) {}

	async call<M extends Method>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>> {
		return (await this.callByName(method, params, options)) as Result<M>;
	}

	has(method: string): boolean {
		return Object.hasOwn(methods, method);
	}

	async callByName(method: string, params: unknown, options?: CallOptions): Promise<unknown> {
		if (!this.has(method)) {
			throw notAvailable(method);
		}
		let reply: HostReply;
		try {
			// Re-read every call: a restarted owner writes a new credential.
			const token = options?.sessionToken ?? readOwnCredential(this.endpoint.userTokenPath) ?? undefined;
			reply = await postToHost({ socketPath: this.endpoint.socketPath, method, body: JSON.stringify(params ?? {}), token, timeoutMs: requestTimeoutMs });
		} catch (error) {
			throw new HostCallError('host_unavailable', `cannot reach the Tutti Host that owns this folder (${(error as Error).message})`,
				'the window that owns the store may have closed; Tutti takes over when it can', true);
		}
		let json: unknown;
		try {
			json = JSON.parse(reply.body);
		} catch {
			json = undefined;
		}
		const envelope = wireReply.safeParse(json);
		if (!envelope.success) {
			// An error whose reason code this version does not know (a newer owner) keeps its words as version_mismatch.
			const newer = peerErrorReply.safeParse(json);
			if (newer.success) {
				const e = fromUnknownReason(newer.data.error);
				throw new HostCallError(e.reasonCode, e.message, e.hint, e.retryable ?? false, e.details);
			}
			throw new HostCallError('internal', `the Host sent a reply that is not a Tutti envelope (HTTP ${reply.status})`);
		}
		if (!envelope.data.ok) {
			const e = envelope.data.error;
			throw new HostCallError(e.reasonCode, e.message, e.hint, e.retryable ?? false, e.details);
		}
		const result = methods[method as Method].result.safeParse(envelope.data.result);
		if (!result.success) {
			throw new HostCallError('version_mismatch', `the owning window's Host answered ${method} in an unexpected shape; it may run another Tutti version`,
				'reload both windows after updating Tutti');
		}
		return result.data;
	}
}
