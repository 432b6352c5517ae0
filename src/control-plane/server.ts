// The control-plane server: HTTP/1.1 over a Unix socket, `POST /v1/<method>` with a JSON body of params, and
// `GET /v1/health`. Every request and every reply is checked against src/protocol/controlPlane.ts; bad input is
// answered with a JSON error and never crashes the Host.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import type { Disposable } from '../core/lifecycle.js';
import type { HostApi } from '../protocol/hostApi.js';
import { type Caller, type Method, type WireError, maxBodyBytes, methods, protocolVersion } from '../protocol/controlPlane.js';
import { type ConnectionLimits, ConnectionGate } from './connectionGate.js';
import { removeDiscoveryFileIfOwned, writeDiscoveryFile } from './discoveryFile.js';
import { methodCommands } from './methodCommands.js';
import { readBody } from './requestBody.js';
import { clearStaleSocket } from './socketProbe.js';
import { internalHint, paramsRejection, toWireError, wireError, wireReplyFor } from './wireErrors.js';

export interface ControlPlaneServerOptions {
	api: HostApi;
	socketPath: string;
	/** Written once the server listens, removed on dispose. */
	discovery?: { file: string; workspace: string };
	/** One line per unexpected failure (default: stderr). */
	log?: (line: string) => void;
	/** Slow-client limits; the defaults suit production (tests shorten them). */
	timeouts?: { headersMs?: number; requestMs?: number; keepAliveMs?: number; checkIntervalMs?: number };
	/** Idle connections, waiting connections and requests per agent session (src/control-plane/connectionGate.ts). */
	connections?: Partial<ConnectionLimits>;
	maxBodyBytes?: number;
}

type AnyHandler = (params: unknown, caller: Caller) => Promise<unknown>;

export const unauthenticatedHint = 'run the command inside a terminal Tutti opened for an agent session (it sets TUTTI_SESSION_TOKEN); only the developer acts with --as-user, from their own terminal';

export class ControlPlaneServer implements Disposable {
	readonly socketPath: string;
	readonly #server: http.Server;
	readonly #options: ControlPlaneServerOptions;
	readonly #log: (line: string) => void;
	readonly #bodyCap: number;
	readonly #gate: ConnectionGate;
	#disposed = false;
	#closed: Promise<void> | undefined;

	private constructor(options: ControlPlaneServerOptions) {
		this.#options = options;
		this.socketPath = options.socketPath;
		this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
		this.#bodyCap = options.maxBodyBytes ?? maxBodyBytes;
		this.#gate = new ConnectionGate(options.connections);
		const t = options.timeouts ?? {};
		this.#server = http.createServer({
			headersTimeout: t.headersMs ?? 10_000,
			requestTimeout: t.requestMs ?? 10_000,
			keepAliveTimeout: t.keepAliveMs ?? 5_000,
			connectionsCheckingInterval: t.checkIntervalMs ?? 1_000,
			maxHeaderSize: 16 * 1024,
			requireHostHeader: false,
		}, (req, res) => {
			const socket = req.socket;
			this.#gate.requestStarted(socket);
			res.once('close', () => this.#gate.requestEnded(socket));
			this.#handle(req, res).catch((error: unknown) => {
				this.#log(`control plane: unexpected failure: ${describe(error)}`);
				this.#send(res, 500, { ok: false, error: wireError('internal', 'the Host failed while answering', internalHint) });
			});
		});
		this.#server.on('connection', (socket: Socket) => this.#gate.accepted(socket));
		this.#server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => this.#answerClientError(error, socket));
	}

	/** Clears a stale socket file (never a live one), listens, and writes the discovery file. */
	static async listen(options: ControlPlaneServerOptions): Promise<ControlPlaneServer> {
		await clearStaleSocket(options.socketPath);
		const server = new ControlPlaneServer(options);
		await new Promise<void>((resolve, reject) => {
			server.#server.once('error', reject);
			server.#server.listen(options.socketPath, () => {
				server.#server.off('error', reject);
				resolve();
			});
		});
		server.#server.on('error', (error) => server.#log(`control plane: server error: ${describe(error)}`));
		if (process.platform !== 'win32') {
			fs.chmodSync(options.socketPath, 0o600);
		}
		if (options.discovery) {
			writeDiscoveryFile(options.discovery.file, { workspace: options.discovery.workspace, socket: options.socketPath, pid: process.pid });
		}
		return server;
	}

	/** Stops accepting, drops open connections (pending requests fail), unlinks the socket and the discovery file. */
	dispose(): void {
		if (this.#disposed) {
			return;
		}
		this.#disposed = true;
		this.#closed = new Promise((resolve) => this.#server.close(() => resolve()));
		this.#server.closeAllConnections();
		if (this.#options.discovery) {
			removeDiscoveryFileIfOwned(this.#options.discovery.file, process.pid);
		}
		if (process.platform !== 'win32') {
			try {
				fs.unlinkSync(this.socketPath);
			} catch {
				// libuv already removed it
			}
		}
	}

	/** `dispose()`, then waits until the listener is closed. */
	async close(): Promise<void> {
		this.dispose();
		await this.#closed;
	}

	async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const pathname = (req.url ?? '/').split('?')[0] ?? '/';
		if (pathname === '/v1/health') {
			if (req.method !== 'GET' && req.method !== 'HEAD') {
				return this.#send(res, 405, { ok: false, error: wireError('invalid_input', 'use GET for /v1/health', 'curl --unix-socket SOCKET http://tutti/v1/health') }, { allow: 'GET, HEAD' });
			}
			return this.#send(res, 200, { ok: true, result: { status: 'ok', protocol: protocolVersion, pid: process.pid } });
		}
		const name = pathname.startsWith('/v1/') ? pathname.slice('/v1/'.length) : '';
		if (!isMethod(name)) {
			return this.#send(res, 404, {
				ok: false,
				error: wireError('invalid_input', `unknown control-plane method ${JSON.stringify(pathname.slice(0, 200))}`,
					'run `tutti --help`; if the command exists there, the CLI and the Host are different versions: reload the window or restart the Host'),
			});
		}
		if (req.method !== 'POST') {
			return this.#send(res, 405, { ok: false, error: wireError('invalid_input', `use POST for /v1/${name}`, `run \`${methodCommands[name]} --help\``) }, { allow: 'POST' });
		}
		const caller = this.#authenticate(req);
		if (caller === null) {
			return this.#send(res, 401, { ok: false, error: wireError('unauthenticated', 'the request carries no valid session token', unauthenticatedHint) });
		}
		if (caller.kind === 'session') {
			const sessionId = caller.sessionId;
			if (!this.#gate.admitSession(sessionId)) {
				return this.#send(res, 429, {
					ok: false,
					error: { ...wireError('host_unavailable', `this session already has ${this.#gate.limits.maxPerSession} requests in flight at the Host, its limit; this one was not handled`,
						'wait until one of them has answered, then run the same command again'), retryable: true },
				});
			}
			res.once('close', () => this.#gate.releaseSession(sessionId));
		}
		const body = await readBody(req, this.#bodyCap);
		if (body.kind === 'aborted') {
			return;
		}
		if (body.kind === 'too_large') {
			res.once('finish', () => req.socket.destroy());
			return this.#send(res, 413, {
				ok: false,
				error: wireError('invalid_input', `the request body is larger than the Host's request cap of ${this.#bodyCap} bytes${this.#bodyCap === maxBodyBytes ? ' (8 MiB, a plan of about 5,000 tasks)' : ''}`,
					`send less: split it into several commands, as \`${methodCommands[name]} --help\` shows`),
			}, { connection: 'close' });
		}
		let raw: unknown;
		try {
			raw = body.text.trim() === '' ? {} : JSON.parse(body.text);
		} catch (error) {
			return this.#send(res, 400, { ok: false, error: wireError('invalid_input', `the request body is not JSON: ${describe(error)}`, `run \`${methodCommands[name]} --help\``) });
		}
		const spec = methods[name];
		const params = (spec.params as z.ZodType).safeParse(raw);
		if (!params.success) {
			// Refused here, before any handler runs: a handler only ever sees params of the method table's shape.
			return this.#send(res, 400, { ok: false, error: toWireError(paramsRejection(name, params.error)) });
		}
		let result: unknown;
		try {
			result = await (this.#options.api.handlers[name] as AnyHandler)(params.data, caller);
		} catch (error) {
			const reply = wireReplyFor(name, error);
			if (reply !== null) {
				if (reply.status >= 500) {
					// The store refused (503: full disk, read-only, damaged) or a rule found a fault (500): said with its reason, and logged.
					this.#log(`control plane: ${name} ${reply.status === 503 ? 'refused by the store' : 'failed'}: ${describe(error)}`);
				}
				return this.#send(res, reply.status, { ok: false, error: reply.error });
			}
			this.#log(`control plane: ${name} failed: ${describe(error)}`);
			return this.#send(res, 500, { ok: false, error: wireError('internal', `the Host failed while handling ${name}: ${firstLine(error)}`, internalHint) });
		}
		const checked = (spec.result as z.ZodType).safeParse(result);
		if (!checked.success) {
			const detail = z.prettifyError(checked.error);
			this.#log(`control plane: ${name} produced a reply that does not match the protocol:\n${detail}`);
			return this.#send(res, 500, { ok: false, error: wireError('internal', `the Host produced a reply for ${name} that does not match the protocol:\n${detail}`, internalHint) });
		}
		return this.#send(res, 200, { ok: true, result: checked.data });
	}

	#authenticate(req: http.IncomingMessage): Caller | null {
		const header = req.headers.authorization;
		const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
		try {
			return this.#options.api.authenticate(match?.[1]);
		} catch (error) {
			this.#log(`control plane: authenticate failed: ${describe(error)}`);
			return null;
		}
	}

	#send(res: http.ServerResponse, status: number, reply: { ok: true; result: unknown } | { ok: false; error: WireError }, headers: Record<string, string> = {}): void {
		if (res.headersSent || res.destroyed) {
			return;
		}
		const text = JSON.stringify(reply);
		res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
		res.end(text);
	}

	/** Malformed HTTP, oversized headers, slow clients: answer with a JSON error when the socket can still take it. */
	#answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
		const [status, message] = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'the request took too long to arrive']
			: error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request headers are too large']
				: [400, 'the request is not valid HTTP/1.1'];
		if (!socket.writable || error.code === 'ECONNRESET') {
			socket.destroy();
			return;
		}
		const text = JSON.stringify({ ok: false, error: wireError('invalid_input', message, 'use the `tutti` CLI, or send `POST /v1/<method>` with a JSON body') });
		socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
	}
}

function isMethod(name: string): name is Method {
	return Object.prototype.hasOwnProperty.call(methods, name);
}

function describe(error: unknown): string {
	return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function firstLine(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
