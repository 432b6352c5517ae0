// The stdio transport of `tutti mcp`: one JSON-RPC message per line, like the SDK's StdioServerTransport, but every
// line that is not a valid request gets the JSON-RPC error for it and the server goes on serving. The SDK's transport
// drops such lines without an answer (a client waits forever on its id) and closes for good on a line over 10 MiB.
// Here: not JSON → -32700 (id null); JSON that is not a JSON-RPC 2.0 message → -32600 (with its id when it has a
// valid one); a request whose params do not fit its method → -32602; a line over maxLineBytes is skipped as it
// arrives (never buffered whole) and answered -32600 with id null.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read (32 MiB): far over what Claude Code sends; a tool input over 256 K characters is denied anyway. */
export const maxLineBytes = 32 * 1024 * 1024;

/** Checks a request's params for one method: a short description of what is wrong, or null when they fit. */
export type ParamsCheck = (request: { method: string; params?: unknown }) => string | null;

type Id = string | number | null;

function idOf(value: unknown): Id {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) { return null; }
	const id = (value as { id?: unknown }).id;
	return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

export class LineTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	#chunks: Buffer[] = [];
	#size = 0;
	/** The current line went over the cap: drop its bytes up to the next newline. */
	#skipping = false;
	#closed = false;
	readonly #onData = (chunk: Buffer): void => this.#read(chunk);
	readonly #onEnd = (): void => { void this.close(); };

	constructor(
		private readonly input: Readable,
		private readonly output: Writable,
		private readonly checks: Readonly<Record<string, ParamsCheck>> = {},
		private readonly maxLine = maxLineBytes,
	) {}

	async start(): Promise<void> {
		this.input.on('data', this.#onData);
		this.input.once('end', this.#onEnd);
		this.input.once('close', this.#onEnd);
		this.input.on('error', (error: Error) => this.onerror?.(error));
	}

	async send(message: JSONRPCMessage): Promise<void> {
		await this.#write(message);
	}

	async close(): Promise<void> {
		if (this.#closed) { return; }
		this.#closed = true;
		this.input.off('data', this.#onData);
		this.#chunks = [];
		this.onclose?.();
	}

	#read(chunk: Buffer): void {
		let start = 0;
		for (;;) {
			const newline = chunk.indexOf(10, start);
			if (newline === -1) {
				this.#keep(chunk.subarray(start));
				return;
			}
			this.#keep(chunk.subarray(start, newline));
			this.#endLine();
			start = newline + 1;
		}
	}

	#keep(part: Buffer): void {
		if (this.#skipping || part.length === 0) { return; }
		if (this.#size + part.length > this.maxLine) {
			this.#skipping = true;
			this.#chunks = [];
			this.#size = 0;
			return;
		}
		this.#chunks.push(part);
		this.#size += part.length;
	}

	#endLine(): void {
		if (this.#skipping) {
			this.#skipping = false;
			this.#fail(null, ErrorCode.InvalidRequest, `Request too large: a message line over ${this.maxLine} bytes was skipped.`);
			return;
		}
		const line = Buffer.concat(this.#chunks, this.#size).toString('utf8').replace(/\r$/, '');
		this.#chunks = [];
		this.#size = 0;
		if (line.trim() === '') { return; }
		this.#handle(line);
	}

	#handle(line: string): void {
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			this.#fail(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}).`);
			return;
		}
		const parsed = JSONRPCMessageSchema.safeParse(value);
		if (!parsed.success) {
			this.#fail(idOf(value), ErrorCode.InvalidRequest, 'Invalid Request: expected one JSON-RPC 2.0 message {"jsonrpc":"2.0","id":string|number,"method":string,"params"?:object}.');
			return;
		}
		const message = parsed.data;
		if ('method' in message && 'id' in message) {
			const check = Object.prototype.hasOwnProperty.call(this.checks, message.method) ? this.checks[message.method] : undefined;
			const problem = check?.(message) ?? null;
			if (problem !== null) {
				this.#fail(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${problem.slice(0, 1000)}`);
				return;
			}
		}
		this.onmessage?.(message);
	}

	/** An error reply; `id` null when the request's id could not be read (JSON-RPC 2.0 §5). */
	#fail(id: Id, code: number, message: string): void {
		this.onerror?.(new Error(message));
		void this.#write({ jsonrpc: '2.0', id, error: { code, message } });
	}

	async #write(message: unknown): Promise<void> {
		if (this.#closed) { return; }
		if (!this.output.write(`${JSON.stringify(message)}\n`)) {
			await new Promise<void>((resolve) => this.output.once('drain', resolve));
		}
	}
}
