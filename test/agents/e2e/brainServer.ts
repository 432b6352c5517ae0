// A model server for the end-to-end tier whose answers are computed from the request (a "brain") instead of a
// fixed script: the source agent's tool inputs depend on ids the Host mints (issue, checkpoint, revision), so each
// turn is derived from the wake prompt or from the JSON in the last tool_result. It reuses the scripted server's
// protocol handlers (Anthropic Messages SSE, OpenAI Responses SSE) and logs every request like it.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleAnthropicSideRequest, handleMessages, isAnthropicSideRequest } from '../modelServer/anthropicMessages.js';
import { handleResponses } from '../modelServer/openaiResponses.js';
import type { Turn } from '../modelServer/script.js';
import { sendJson } from '../modelServer/sse.js';

export interface BrainRequest {
	path: string;
	headers: IncomingHttpHeaders;
	body: unknown;
	/** 0-based index among the model requests this server answered. */
	index: number;
}

/** Computes the Turn for one model request. A throw answers HTTP 500 with the message (and is logged). */
export type Brain = (request: BrainRequest) => Turn;

export interface BrainLogEntry {
	path: string;
	headers: IncomingHttpHeaders;
	body: unknown;
	turn: Turn | null;
	error?: string;
}

export interface BrainServer {
	readonly url: string;
	/** Every model request with the Turn it got. */
	readonly log: BrainLogEntry[];
	close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			try { resolve(text === '' ? '' : JSON.parse(text) as unknown); } catch { resolve(text); }
		});
		req.on('error', reject);
	});
}

/** Starts a brain-driven model server on 127.0.0.1 (a free port). */
export async function startBrainServer(brain: Brain): Promise<BrainServer> {
	const log: BrainLogEntry[] = [];
	const sockets = new Set<Socket>();

	async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = req.url ?? '/';
		const pathname = path.split('?')[0]!;
		const body = await readBody(req);
		if (req.method === 'HEAD') { res.writeHead(200); res.end(); return; }
		const messages = pathname.endsWith('/messages');
		if (req.method !== 'POST' || (!messages && !pathname.endsWith('/responses'))) {
			sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no ${req.method ?? ''} ${pathname}` } });
			return;
		}
		if (messages && isAnthropicSideRequest(body)) { await handleAnthropicSideRequest(req, body, res); return; }
		let turn: Turn;
		try {
			turn = brain({ path, headers: req.headers, body, index: log.length });
		} catch (e) {
			log.push({ path, headers: req.headers, body, turn: null, error: (e as Error).message });
			sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `brain failure: ${(e as Error).message}` } });
			return;
		}
		log.push({ path, headers: req.headers, body, turn });
		if ((turn.delay_ms ?? 0) > 0) { await sleep(turn.delay_ms!); }
		if (turn.hang === true) { return; }
		await (messages ? handleMessages(req, body, turn, res) : handleResponses(req, body, turn, res));
	}

	const server = createServer((req, res) => {
		serve(req, res).catch((e: unknown) => {
			if (!res.headersSent) { sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(e) } }); } else { res.destroy(); }
		});
	});
	server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const address = server.address();
	if (address === null || typeof address === 'string') { throw new Error('the brain server has no TCP address'); }
	return {
		url: `http://127.0.0.1:${address.port}`,
		log,
		close: () => new Promise<void>((resolve) => {
			for (const s of sockets) { s.destroy(); }
			server.close(() => resolve());
		}),
	};
}
