// The one request every client sends the Host: `POST /v1/<method>` over its socket, JSON body, optional bearer
// token. Node only (no zod, no protocol): the CLI, the supervisor, the extension's viewer client and tests share
// it, and each reads the reply its own way (the CLI passes the result text through, the extension validates it).
//
// HTTP/1.1 written and read by hand over a plain `net` socket: loading node:http (and the agent, TLS and crypto
// modules it pulls in) cost a `tutti` process more than the request itself. The Host always answers with a
// Content-Length; a chunked reply is read too, and a reply without either ends when the Host closes.
import { connect } from 'node:net';
import { checkOwnSocket } from './ownPaths.js';

export interface HostReply {
	status: number;
	body: string;
}

export interface HostRequest {
	socketPath: string;
	/** The method name, e.g. `await/review` (sent as `/v1/await/review`). */
	method: string;
	/** The JSON text of the params. */
	body: string;
	/** Sent as `Authorization: Bearer <token>` when set. */
	token?: string | undefined;
	/**
	 * Wall-clock bound on the whole exchange (connect, send, reply): past it the request is destroyed and the promise
	 * rejects with code `ETIMEDOUT`, however the Host behaves (silent, or trickling bytes).
	 */
	timeoutMs: number;
}

/** What a rejection of postToHost carries besides its `code`. */
export interface HostRequestError extends Error {
	code?: string;
	/**
	 * False when the request cannot have been read whole by the Host, which reads a body whole before it acts: the
	 * connection failed or closed before the request was written whole (EPIPE…), or the Host reset it before any byte
	 * of a reply (a peer that closes a Unix socket with our bytes still unread resets it; one that read them closes
	 * it cleanly). True otherwise: then the request may or may not have taken effect.
	 */
	requestSent?: boolean;
}

/** Whether a postToHost rejection came after the Host may have read the whole request (then it may have acted). */
export function requestWasSent(error: unknown): boolean {
	return (error as HostRequestError | null)?.requestSent === true;
}

/**
 * Rejects with the socket error; its `code` tells a connect failure (ENOENT, ECONNREFUSED…) from a broken exchange,
 * and `requestSent` whether the request was written whole. A socket (or its directory) that is not this user's own
 * is refused before connecting (UntrustedPathError, code EUNTRUSTED): nothing is sent to it.
 */
export function postToHost(request: HostRequest): Promise<HostReply> {
	return new Promise((resolve, reject) => {
		let problem: Error | null;
		try {
			checkOwnSocket(request.socketPath);
			problem = unsendable(request);
		} catch (error) {
			problem = error as Error;
		}
		if (problem !== null) {
			reject(Object.assign(problem, { requestSent: false }));
			return;
		}
		const body = Buffer.from(request.body, 'utf8');
		const head = `POST /v1/${request.method} HTTP/1.1\r\nHost: tutti\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n`
			+ (request.token ? `Authorization: Bearer ${request.token}\r\n` : '') + '\r\n';
		const socket = connect(request.socketPath);
		const received = new ReplyBuffer();
		let done = false;
		let sent = false;
		const finish = (error: Error | null, reply?: HostReply): void => {
			if (done) {
				return;
			}
			done = true;
			clearTimeout(deadline);
			socket.destroy();
			if (error !== null) {
				reject(Object.assign(error, { requestSent: sent }));
			} else {
				resolve(reply!);
			}
		};
		const deadline = setTimeout(() => {
			finish(withCode(new Error(`the Host did not answer ${request.method} within ${formatMs(request.timeoutMs)}`), 'ETIMEDOUT'));
		}, request.timeoutMs);
		const settleWith = (ended: boolean): void => {
			try {
				const reply = received.reply(ended);
				if (reply !== null) {
					finish(null, reply);
				} else if (ended) {
					finish(withCode(new Error('socket hang up: the Host closed the connection before its reply ended'), 'ECONNRESET'));
				}
			} catch (error) {
				finish(error as Error);
			}
		};
		socket.once('connect', () => {
			socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]), (error) => { sent = !error; });
		});
		socket.on('data', (chunk: Buffer) => {
			received.push(chunk);
			settleWith(false);
		});
		socket.once('end', () => settleWith(true));
		socket.once('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'ECONNRESET' && received.empty) {
				sent = false;
			}
			finish(error);
		});
		socket.once('close', () => finish(withCode(new Error('socket hang up'), 'ECONNRESET')));
	});
}

/** The bytes of one reply as they arrive; the head is parsed once, then only the body's length is counted. */
class ReplyBuffer {
	readonly #chunks: Buffer[] = [];
	#size = 0;
	#head: { status: number; bodyStart: number; length: number | undefined; chunked: boolean } | undefined;

	get empty(): boolean {
		return this.#size === 0;
	}

	push(chunk: Buffer): void {
		this.#chunks.push(chunk);
		this.#size += chunk.length;
	}

	/** The whole reply, or null while it is incomplete; throws on a reply that is not HTTP/1.x. */
	reply(ended: boolean): HostReply | null {
		if (this.#head === undefined) {
			const data = this.#joined();
			const headEnd = data.indexOf('\r\n\r\n');
			if (headEnd < 0) {
				return null;
			}
			this.#head = parseHead(data.subarray(0, headEnd).toString('latin1'), headEnd + 4);
		}
		const head = this.#head;
		if (head.chunked) {
			const body = dechunk(this.#joined().subarray(head.bodyStart));
			return body === null ? null : { status: head.status, body: body.toString('utf8') };
		}
		if (head.length !== undefined ? this.#size - head.bodyStart < head.length : !ended) {
			return null;
		}
		const end = head.length !== undefined ? head.bodyStart + head.length : this.#size;
		return { status: head.status, body: this.#joined().subarray(head.bodyStart, end).toString('utf8') };
	}

	#joined(): Buffer {
		if (this.#chunks.length > 1) {
			const whole = Buffer.concat(this.#chunks);
			this.#chunks.splice(0, this.#chunks.length, whole);
		}
		return this.#chunks[0] ?? Buffer.alloc(0);
	}
}

function parseHead(text: string, bodyStart: number): { status: number; bodyStart: number; length: number | undefined; chunked: boolean } {
	const lines = text.split('\r\n');
	const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
	if (status === null) {
		throw withCode(new Error(`the Host's reply is not HTTP/1.1: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`), 'HPE_INVALID_CONSTANT');
	}
	let length: number | undefined;
	let chunked = false;
	for (const line of lines.slice(1)) {
		const colon = line.indexOf(':');
		const name = line.slice(0, colon).trim().toLowerCase();
		const value = line.slice(colon + 1).trim();
		if (name === 'content-length' && /^\d+$/.test(value)) {
			length = Number(value);
		} else if (name === 'transfer-encoding' && /\bchunked\b/i.test(value)) {
			chunked = true;
		}
	}
	return { status: Number(status[1]), bodyStart, length: chunked ? undefined : length, chunked };
}

/** What node:http would refuse to send: a method that is not a plain path, a token that would break the header. */
function unsendable(request: HostRequest): Error | null {
	if (!/^[A-Za-z0-9/_.-]+$/.test(request.method)) {
		return withCode(new TypeError(`the method ${JSON.stringify(request.method)} is not a valid request path`), 'ERR_UNESCAPED_CHARACTERS');
	}
	if (request.token && !/^[\x21-\x7e]+$/.test(request.token)) {
		return withCode(new TypeError('the session token contains characters that cannot be sent in a header'), 'ERR_INVALID_CHAR');
	}
	return null;
}

/** A whole chunked body, or null until its last (empty) chunk has arrived. */
function dechunk(data: Buffer): Buffer | null {
	const parts: Buffer[] = [];
	let at = 0;
	for (;;) {
		const lineEnd = data.indexOf('\r\n', at);
		if (lineEnd < 0) {
			return null;
		}
		const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
		if (!Number.isFinite(size)) {
			return null;
		}
		if (size === 0) {
			return Buffer.concat(parts);
		}
		const start = lineEnd + 2;
		if (data.length < start + size + 2) {
			return null;
		}
		parts.push(data.subarray(start, start + size));
		at = start + size + 2;
	}
}

function withCode<E extends Error>(error: E, code: string): E & { code: string } {
	return Object.assign(error, { code });
}

function formatMs(ms: number): string {
	return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
