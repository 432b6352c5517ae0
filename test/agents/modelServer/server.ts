// The scripted model server for the agent tier: one per agent process, on
// 127.0.0.1 and port 0. It logs every request in full, picks the script turn, applies the protocol-neutral
// parts of the turn (`delay_ms`, `hang`, `http_error`) and hands the rest to the API's handler by path:
// `/v1/messages` → anthropicMessages.ts, `/v1/responses` → openaiResponses.ts. `HEAD /` (Claude Code's
// connectivity check) gets 200; Claude Code's session-title side request is answered without using a turn.
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { anthropicErrorBody, handleAnthropicSideRequest, handleMessages, isAnthropicSideRequest } from './anthropicMessages.js';
import { handleResponses } from './openaiResponses.js';
import { type Script, ScriptPlayer, type Turn } from './script.js';
import { sendJson } from './sse.js';

export interface LoggedRequest {
	method: string;
	/** The path including the query (e.g. `/v1/messages?beta=true`). */
	path: string;
	headers: IncomingHttpHeaders;
	/** The parsed JSON body, or the raw text when it is not JSON ('' for none). */
	body: unknown;
	/** How it was answered: the script turn's index, 'default', 'ok' (no match, no default), 'side', 'head' or 'unknown'. */
	served: number | 'default' | 'ok' | 'side' | 'head' | 'unknown';
	atUnixMs: number;
}

export interface ScriptedServerOptions {
	script: Script;
	/** Also append each logged request as one JSON line to this file. */
	logFile?: string;
}

export interface ScriptedServer {
	/** `http://127.0.0.1:<port>` — the base URL for ANTHROPIC_BASE_URL (or the Responses provider). */
	readonly url: string;
	readonly port: number;
	/** Every request, in arrival order. */
	readonly log: LoggedRequest[];
	/** The logged model requests that used a script turn (or the default / plain ok answer). */
	modelRequests(): LoggedRequest[];
	/** How many script turns have been played. */
	turnsUsed(): number;
	/** Resolves once `n` model requests have arrived (for tests that act mid-turn). */
	waitForModelRequests(n: number, timeoutMs?: number): Promise<void>;
	close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function parseBody(text: string): unknown {
	if (text === '') { return ''; }
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

type ApiHandler = (req: IncomingMessage, body: unknown, turn: Turn, res: ServerResponse) => Promise<void>;

interface Api {
	handle: ApiHandler;
	errorBody: (status: number) => unknown;
	isSideRequest?: (body: unknown) => boolean;
	handleSide?: (req: IncomingMessage, body: unknown, res: ServerResponse) => Promise<void>;
}

function apiFor(pathname: string): Api | undefined {
	if (pathname === '/v1/messages' || pathname === '/messages') {
		return { handle: handleMessages, errorBody: anthropicErrorBody, isSideRequest: isAnthropicSideRequest, handleSide: handleAnthropicSideRequest };
	}
	if (pathname === '/v1/responses' || pathname === '/responses') {
		return { handle: handleResponses, errorBody: (status) => ({ error: { type: 'server_error', code: String(status), message: 'scripted failure' } }) };
	}
	return undefined;
}

/** Starts a scripted model server on 127.0.0.1 (a free port). Close it after the test. */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
	const player = new ScriptPlayer(options.script);
	const log: LoggedRequest[] = [];
	const sockets = new Set<Socket>();
	const waiters: { n: number; resolve: () => void }[] = [];
	const isModelRequest = (r: LoggedRequest): boolean => typeof r.served === 'number' || r.served === 'default' || r.served === 'ok';

	function record(entry: LoggedRequest): void {
		log.push(entry);
		if (options.logFile !== undefined) { appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`); }
		const count = log.filter(isModelRequest).length;
		for (const w of waiters.splice(0)) {
			if (count >= w.n) { w.resolve(); } else { waiters.push(w); }
		}
	}

	async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const method = req.method ?? 'GET';
		const path = req.url ?? '/';
		const pathname = path.split('?')[0]!;
		const body = parseBody(await readBody(req));
		const base = { method, path, headers: req.headers, body, atUnixMs: Date.now() };
		if (method === 'HEAD') {
			record({ ...base, served: 'head' });
			res.writeHead(200);
			res.end();
			return;
		}
		const api = method === 'POST' ? apiFor(pathname) : undefined;
		if (api === undefined) {
			record({ ...base, served: 'unknown' });
			sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `The scripted server has no ${method} ${pathname}.` } });
			return;
		}
		if (api.isSideRequest?.(body) === true && api.handleSide !== undefined) {
			record({ ...base, served: 'side' });
			await api.handleSide(req, body, res);
			return;
		}
		const { turn, index } = player.next(path, body);
		record({ ...base, served: index });
		if ((turn.delay_ms ?? 0) > 0) { await sleep(turn.delay_ms!); }
		if (turn.hang === true) { return; } // never answered; closed with the socket
		if (turn.http_error !== undefined) {
			sendJson(res, turn.http_error.status, turn.http_error.body ?? api.errorBody(turn.http_error.status));
			return;
		}
		await api.handle(req, body, turn, res);
	}

	const server: Server = createServer((req, res) => {
		serve(req, res).catch((e: unknown) => {
			if (!res.headersSent) { sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `scripted server failure: ${String(e)}` } }); } else { res.destroy(); }
		});
	});
	server.on('connection', (s: Socket) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (address === null || typeof address === 'string') { throw new Error('The scripted server has no TCP address.'); }
	const port = address.port;

	return {
		url: `http://127.0.0.1:${port}`,
		port,
		log,
		modelRequests: () => log.filter(isModelRequest),
		turnsUsed: () => player.usedCount(),
		waitForModelRequests: (n, timeoutMs = 30_000) => new Promise<void>((resolve, reject) => {
			if (log.filter(isModelRequest).length >= n) { resolve(); return; }
			const timer = setTimeout(() => reject(new Error(`the scripted server saw fewer than ${n} model requests within ${timeoutMs} ms`)), timeoutMs);
			waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(); } });
		}),
		close: () => new Promise<void>((resolve) => {
			for (const s of sockets) { s.destroy(); }
			server.close(() => resolve());
		}),
	};
}
