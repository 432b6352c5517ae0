// A JSON-RPC client for `codex app-server` over a readable/writable pair (the server's stdout and stdin): one JSON
// object per line in each direction. It sends requests and notifications, matches answers by id, answers the
// server's requests through typed handlers, and hands notifications to listeners — validating every message it reads
// against src/agents/codexAppServerProtocol.ts. It spawns nothing (the Run supervisor owns the process), so tests
// drive it with a fake peer. Every wait is bounded: a request not answered in time rejects, and so does every
// pending request once the server's output ends.
import type { Readable, Writable } from 'node:stream';
import * as z from 'zod/mini';
import {
	type ClientMethod, type ClientParams, type ClientResult, clientRequests, type NotificationMethod, type NotificationParams, rpcError,
	type RpcRequestId, serverNotifications, type ServerRequestMethod, type ServerRequestParams, type ServerRequestResult, serverRequests,
} from './codexAppServerProtocol.js';

/** JSON-RPC error codes the client answers with. */
export const rpcErrorCodes = { invalidParams: -32602, methodNotFound: -32601, internal: -32603 } as const;

/** An answer the server sent as an error, a request it did not answer in time, or an answer Tutti cannot read. */
export class CodexAppServerError extends Error {
	constructor(readonly method: string, readonly code: number | 'timeout' | 'closed' | 'invalid_result', message: string) {
		super(`codex app-server ${method}: ${message}`);
		this.name = 'CodexAppServerError';
	}
}

export type ServerRequestHandlers = {
	[M in ServerRequestMethod]?: (params: ServerRequestParams<M>, id: RpcRequestId) => Promise<ServerRequestResult<M>>;
};

export type NotificationListeners = {
	[M in NotificationMethod]?: (params: NotificationParams<M>) => void;
};

export interface CodexAppServerClientOptions {
	/** The server's stdout. */
	input: Readable;
	/** The server's stdin. */
	output: Writable;
	/** Every line the server wrote, in order, before it is handled (the supervisor keeps them as the Turn's stdout). */
	onServerLine?: (line: string) => void;
	/** The server's requests Tutti answers; any other is answered with "method not found". */
	handlers?: ServerRequestHandlers;
	notifications?: NotificationListeners;
	/** A message that could not be read (not JSON, or a known method with params Tutti cannot read). */
	onProtocolProblem?: (problem: string) => void;
	/** How long a request waits for its answer unless it says otherwise (default 60 s). */
	requestTimeoutMs?: number;
}

interface Pending {
	method: string;
	resolve: (result: unknown) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class CodexAppServerClient {
	readonly #o: CodexAppServerClientOptions;
	readonly #pending = new Map<number, Pending>();
	#nextId = 1;
	#buffer = '';
	#closed = false;
	readonly #ended: Promise<void>;
	#markEnded: () => void = () => undefined;

	constructor(options: CodexAppServerClientOptions) {
		this.#o = options;
		this.#ended = new Promise((resolve) => { this.#markEnded = resolve; });
		options.input.setEncoding('utf8');
		options.input.on('data', (chunk: string) => this.#receive(chunk));
		options.input.once('end', () => this.#close('the server closed its output'));
		options.input.once('close', () => this.#close('the server closed its output'));
		options.input.on('error', () => this.#close('reading the server failed'));
		// Writing to a server that already exited fails with EPIPE; the end of its output rejects what waits.
		options.output.on('error', () => undefined);
	}

	/** Resolves once the server's output has ended (every pending request is rejected by then). */
	get ended(): Promise<void> {
		return this.#ended;
	}

	get isClosed(): boolean {
		return this.#closed;
	}

	/** Sends a request and resolves with its validated answer; rejects with CodexAppServerError. */
	request<M extends ClientMethod>(method: M, params: ClientParams<M>, timeoutMs = this.#o.requestTimeoutMs ?? 60_000): Promise<ClientResult<M>> {
		if (this.#closed) { return Promise.reject(new CodexAppServerError(method, 'closed', 'the server is gone')); }
		const id = this.#nextId++;
		return new Promise<ClientResult<M>>((resolve, reject) => {
			const timer = setTimeout(() => {
				this.#pending.delete(id);
				reject(new CodexAppServerError(method, 'timeout', `no answer within ${timeoutMs} ms`));
			}, timeoutMs);
			timer.unref();
			this.#pending.set(id, {
				method,
				resolve: (raw) => {
					const parsed = z.safeParse(clientRequests[method].result, raw);
					if (parsed.success) { resolve(parsed.data as ClientResult<M>); } else {
						reject(new CodexAppServerError(method, 'invalid_result', `an answer Tutti cannot read: ${z.prettifyError(parsed.error)}`));
					}
				},
				reject,
				timer,
			});
			this.#send({ id, method, params });
		});
	}

	/** Sends a notification (no answer). */
	notify(method: 'initialized'): void {
		this.#send({ method });
	}

	/** Stops reading and rejects what still waits (the server process is the caller's to end). */
	dispose(): void {
		this.#close('the client was disposed');
	}

	#send(message: Json): void {
		if (this.#closed) { return; }
		this.#o.output.write(`${JSON.stringify(message)}\n`);
	}

	#receive(chunk: string): void {
		this.#buffer += chunk;
		let newline: number;
		while ((newline = this.#buffer.indexOf('\n')) >= 0) {
			const line = this.#buffer.slice(0, newline);
			this.#buffer = this.#buffer.slice(newline + 1);
			if (line.trim() !== '') { this.#line(line); }
		}
	}

	#line(line: string): void {
		this.#o.onServerLine?.(line);
		let message: unknown;
		try { message = JSON.parse(line); } catch {
			this.#o.onProtocolProblem?.(`a line that is not JSON: ${line.slice(0, 200)}`);
			return;
		}
		if (!isObject(message)) { this.#o.onProtocolProblem?.(`a message that is not an object: ${line.slice(0, 200)}`); return; }
		const hasId = typeof message.id === 'number' || typeof message.id === 'string';
		if (typeof message.method === 'string') {
			if (hasId) { void this.#answer(message.id as RpcRequestId, message.method, message.params); } else { this.#notification(message.method, message.params); }
			return;
		}
		if (hasId) { this.#response(message); return; }
		this.#o.onProtocolProblem?.(`a message that is neither a request, a notification nor an answer: ${line.slice(0, 200)}`);
	}

	#response(message: Json): void {
		if (typeof message.id !== 'number') { return; } // not an id Tutti sent
		const pending = this.#pending.get(message.id);
		if (pending === undefined) { return; } // answered after its timeout: nothing waits for it
		this.#pending.delete(message.id);
		clearTimeout(pending.timer);
		if ('error' in message) {
			const error = z.safeParse(rpcError, message.error);
			pending.reject(error.success
				? new CodexAppServerError(pending.method, error.data.code, error.data.message)
				: new CodexAppServerError(pending.method, 'invalid_result', 'an error answer Tutti cannot read'));
			return;
		}
		pending.resolve(message.result);
	}

	#notification(method: string, params: unknown): void {
		if (!(method in serverNotifications)) { return; }
		const known = method as NotificationMethod;
		const listener = this.#o.notifications?.[known] as ((p: unknown) => void) | undefined;
		if (listener === undefined) { return; }
		const parsed = z.safeParse(serverNotifications[known], params);
		if (!parsed.success) {
			this.#o.onProtocolProblem?.(`${method} with params Tutti cannot read: ${z.prettifyError(parsed.error)}`);
			return;
		}
		listener(parsed.data);
	}

	async #answer(id: RpcRequestId, method: string, params: unknown): Promise<void> {
		const known = method in serverRequests ? method as ServerRequestMethod : undefined;
		const handler = known === undefined ? undefined : this.#o.handlers?.[known] as ((p: unknown, id: RpcRequestId) => Promise<unknown>) | undefined;
		if (known === undefined || handler === undefined) {
			this.#send({ id, error: { code: rpcErrorCodes.methodNotFound, message: `Tutti does not answer ${method}` } });
			return;
		}
		const parsed = z.safeParse(serverRequests[known].params, params);
		if (!parsed.success) {
			this.#o.onProtocolProblem?.(`${method} with params Tutti cannot read: ${z.prettifyError(parsed.error)}`);
			this.#send({ id, error: { code: rpcErrorCodes.invalidParams, message: `Tutti cannot read these params: ${z.prettifyError(parsed.error)}` } });
			return;
		}
		try {
			const result = await handler(parsed.data, id);
			const checked = z.safeParse(serverRequests[known].result, result);
			if (!checked.success) { throw new Error(`an answer that does not fit ${method}: ${z.prettifyError(checked.error)}`); }
			this.#send({ id, result: checked.data });
		} catch (e) {
			this.#send({ id, error: { code: rpcErrorCodes.internal, message: e instanceof Error ? e.message : String(e) } });
		}
	}

	#close(reason: string): void {
		if (this.#closed) { return; }
		this.#closed = true;
		for (const [id, pending] of this.#pending) {
			clearTimeout(pending.timer);
			pending.reject(new CodexAppServerError(pending.method, 'closed', reason));
			this.#pending.delete(id);
		}
		this.#markEnded();
	}
}
