// A raw stdio client for `node dist/cli.js mcp`: writes exactly the bytes a test gives it (malformed, oversize) and
// reads every line the server prints, so a test sees each JSON-RPC reply — or the lack of one — as it is.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cliJs } from '../integration/harness.js';

export type JsonRpcId = string | number | null;

/** One message the server printed on stdout. */
export interface Printed {
	jsonrpc?: unknown;
	id?: JsonRpcId;
	result?: unknown;
	error?: { code: number; message: string; data?: unknown };
}

/** The environment of a `tutti mcp` process: ours without any TUTTI_* (the test names exactly what it gets). */
export function mcpEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (value !== undefined && !name.startsWith('TUTTI_')) { env[name] = value; }
	}
	return { ...env, ...extra };
}

export class McpProcess {
	readonly child: ChildProcessWithoutNullStreams;
	stderr = '';
	/** Lines on stdout that were not JSON (a stdio MCP server may print nothing else). */
	readonly strayLines: string[] = [];
	readonly #replies: Printed[] = [];
	#wake: (() => void) | undefined;
	#exitCode: number | null | undefined;

	constructor(env: NodeJS.ProcessEnv) {
		this.child = spawn(process.execPath, [cliJs, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
		this.child.stderr.setEncoding('utf8').on('data', (c: string) => { this.stderr += c; });
		this.child.stdin.on('error', () => { /* the server may have exited; the test reports that */ });
		createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
			try {
				this.#replies.push(JSON.parse(line) as Printed);
			} catch {
				this.strayLines.push(line.slice(0, 500));
			}
			this.#wake?.();
		});
		this.child.on('exit', (code) => {
			this.#exitCode = code;
			this.#wake?.();
		});
	}

	get running(): boolean {
		return this.#exitCode === undefined;
	}

	/** Writes raw bytes (respecting back-pressure, so many MB go through whole). */
	async write(data: string | Buffer): Promise<void> {
		if (!this.child.stdin.write(data)) {
			await new Promise<void>((resolve) => this.child.stdin.once('drain', resolve));
		}
	}

	/** Writes one message as one line. */
	async send(message: unknown): Promise<void> {
		await this.write(`${JSON.stringify(message)}\n`);
	}

	/** The next message the server prints, in order. Fails when the server exits first. */
	async next(): Promise<Printed> {
		for (;;) {
			const reply = this.#replies.shift();
			if (reply !== undefined) { return reply; }
			if (!this.running) {
				throw new Error(`tutti mcp exited (code ${String(this.#exitCode)}) before answering; stderr:\n${this.stderr.slice(-2000)}`);
			}
			await new Promise<void>((resolve) => { this.#wake = resolve; });
			this.#wake = undefined;
		}
	}

	/** Sends a request and returns the next message, which must be its reply (nothing else may come first). */
	async call(id: string | number, method: string, params?: unknown): Promise<Printed> {
		await this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
		const reply = await this.next();
		if (reply.id !== id) { throw new Error(`expected the reply to ${JSON.stringify(id)}, got ${JSON.stringify(reply).slice(0, 500)}`); }
		return reply;
	}

	/** The MCP handshake Claude Code performs first. */
	async initialize(): Promise<void> {
		const reply = await this.call('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'security-test', version: '1' } });
		if (reply.error !== undefined) { throw new Error(`initialize failed: ${JSON.stringify(reply.error)}`); }
		await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
	}

	/** Ends stdin and waits for the process to exit; resolves with its exit code. */
	async close(): Promise<number | null> {
		this.child.stdin.end();
		while (this.running) {
			await new Promise<void>((resolve) => { this.#wake = resolve; });
		}
		return this.#exitCode ?? null;
	}

	kill(): void {
		if (this.running) { this.child.kill('SIGKILL'); }
	}
}

/** The text block of a tools/call result parsed as the permission answer. */
export function permissionOf(reply: Printed): { behavior: string; message?: string; updatedInput?: unknown } {
	if (reply.error !== undefined) { throw new Error(`expected a tool result, got the error ${JSON.stringify(reply.error)}`); }
	const result = reply.result as { content?: { type: string; text: string }[] };
	const text = result.content?.[0]?.text;
	if (typeof text !== 'string') { throw new Error(`no text block in ${JSON.stringify(reply.result).slice(0, 500)}`); }
	return JSON.parse(text) as { behavior: string; message?: string; updatedInput?: unknown };
}
