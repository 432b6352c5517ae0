// Server-sent events for the scripted model server: headers, then events with an optional delay between them.
// Writing stops quietly when the client has gone (an interrupted agent aborts its request).
import type { ServerResponse } from 'node:http';

export interface SseEvent {
	event: string;
	data: unknown;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function gone(res: ServerResponse): boolean {
	return res.destroyed || res.writableEnded;
}

/** Sends `events` as an SSE response (status 200), `chunkDelayMs` apart, and ends it unless `keepOpen`. */
export async function sendSse(res: ServerResponse, events: SseEvent[], chunkDelayMs = 0, keepOpen = false): Promise<void> {
	if (gone(res)) { return; }
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	res.flushHeaders();
	for (let i = 0; i < events.length; i++) {
		if (i > 0 && chunkDelayMs > 0) { await sleep(chunkDelayMs); }
		if (gone(res)) { return; }
		const e = events[i]!;
		res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
	}
	if (!keepOpen && !gone(res)) { res.end(); }
}

/** Sends a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
	if (gone(res)) { return; }
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/** An event as a client reads it back. */
export interface ParsedSseEvent { event: string; data: Record<string, unknown> }

/** Reads an SSE body back into its events (the tests of the server check what it sent). */
export function parseSse(text: string): ParsedSseEvent[] {
	return text.split('\n\n').filter((chunk) => chunk.trim() !== '').map((chunk) => {
		const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
		const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? 'null') as Record<string, unknown>;
		return { event, data };
	});
}
