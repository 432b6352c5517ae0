// The viewer window's client: another window owns the store, so every call (and every action) goes to that
// owner over its control-plane socket, as the developer (the 0600 user credential next to the socket).
// Replies are validated with the same method table the server uses.
import * as fs from 'node:fs';
import * as http from 'node:http';
import { authHeader, methods, wireReply, type Method, type Params, type Result } from '../../protocol/controlPlane.js';
import { type CallOptions, HostCallError, type HostClient, notAvailable } from './hostClient.js';

export interface SocketEndpoint {
	readonly socketPath: string;
	readonly userTokenPath: string;
}

const requestTimeoutMs = 60_000;

function post(socketPath: string, method: string, body: string, token: string | undefined): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' };
		if (token) {
			headers[authHeader] = `Bearer ${token}`;
		}
		const req = http.request({ socketPath, path: `/v1/${method}`, method: 'POST', headers, agent: false, host: 'tutti' }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
			res.on('error', reject);
		});
		req.setTimeout(requestTimeoutMs, () => req.destroy(new Error(`the Host did not answer ${method} within ${requestTimeoutMs / 1000} s`)));
		req.on('error', reject);
		req.end(body);
	});
}

function readToken(file: string): string | undefined {
	try {
		const token = fs.readFileSync(file, 'utf8').trim();
		return token === '' ? undefined : token;
	} catch {
		return undefined;
	}
}

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
		// Re-read every call: a restarted owner writes a new credential.
		const token = options?.sessionToken ?? readToken(this.endpoint.userTokenPath);
		let reply: { status: number; body: string };
		try {
			reply = await post(this.endpoint.socketPath, method, JSON.stringify(params ?? {}), token);
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
			throw new HostCallError('internal', `the Host sent a reply that is not a Tutti envelope (HTTP ${reply.status})`);
		}
		if (!envelope.data.ok) {
			const e = envelope.data.error;
			throw new HostCallError(e.reasonCode, e.message, e.hint, e.retryable ?? false);
		}
		const result = methods[method as Method].result.safeParse(envelope.data.result);
		if (!result.success) {
			throw new HostCallError('version_mismatch', `the owning window's Host answered ${method} in an unexpected shape; it may run another Tutti version`,
				'reload both windows after updating Tutti');
		}
		return result.data;
	}
}
