// The one POST every client sends: the request it writes, and a wall-clock bound that holds however the Host
// behaves (silent after accepting, or trickling a reply that never ends).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { postToHost, requestWasSent } from '../../../src/ipc/postToHost.js';

describe('postToHost', () => {
	let dir: string;
	let server: http.Server;
	const intervals: NodeJS.Timeout[] = [];

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-post-'));
	});
	afterEach(async () => {
		for (const interval of intervals.splice(0)) { clearInterval(interval); }
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		fs.rmSync(dir, { recursive: true, force: true });
	});

	function listen(handler: http.RequestListener): Promise<string> {
		const socketPath = path.join(dir, 'cp.sock');
		server = http.createServer(handler);
		return new Promise((resolve) => server.listen(socketPath, () => resolve(socketPath)));
	}

	it('POSTs the body to /v1/<method> with the bearer token and returns status and body', async () => {
		const seen: { url?: string; method?: string; auth?: string; body?: string } = {};
		const socketPath = await listen((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				Object.assign(seen, { url: req.url, method: req.method, auth: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
				res.writeHead(409, { 'content-type': 'application/json' }).end('{"ok":false}');
			});
		});
		const reply = await postToHost({ socketPath, method: 'await/review', body: '{"issueId":"I1"}', token: 'tok', timeoutMs: 10_000 });
		assert.deepEqual(reply, { status: 409, body: '{"ok":false}' });
		assert.deepEqual(seen, { url: '/v1/await/review', method: 'POST', auth: 'Bearer tok', body: '{"issueId":"I1"}' });
	});

	it('rejects with ETIMEDOUT when the Host accepts and never answers', async () => {
		const socketPath = await listen(() => { /* never answers */ });
		await assert.rejects(postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 300 }), { code: 'ETIMEDOUT' });
	});

	it('rejects with ETIMEDOUT when the Host keeps the reply open by trickling bytes (the bound is wall clock, not idle time)', async () => {
		const socketPath = await listen((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			intervals.push(setInterval(() => res.write(' '), 50));
		});
		await assert.rejects(postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 300 }), { code: 'ETIMEDOUT' });
	});

	it('reads a chunked reply', async () => {
		const chunked = await listen((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('{"ok":true,');
			setTimeout(() => res.end('"result":"é"}'), 20);
		});
		assert.deepEqual(await postToHost({ socketPath: chunked, method: 'hello', body: '{}', timeoutMs: 10_000 }), { status: 200, body: '{"ok":true,"result":"é"}' });
	});

	it('resolves at the end of a Content-Length body even when the server never closes', async () => {
		server = http.createServer();
		const socketPath = path.join(dir, 'raw.sock');
		const raw = net.createServer((socket) => {
			socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{"ok":true}'));
		});
		await new Promise<void>((resolve) => raw.listen(socketPath, () => resolve()));
		try {
			assert.deepEqual(await postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }), { status: 200, body: '{"ok":true}' });
		} finally {
			await new Promise<void>((resolve) => raw.close(() => resolve()));
		}
	});

	it('rejects a reply cut short with ECONNRESET (a broken exchange, not a connect failure), and a reply that is not HTTP', async () => {
		server = http.createServer();
		const replies = ['HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"ok":', 'SSH-2.0-OpenSSH\r\n\r\n'];
		const socketPath = path.join(dir, 'cut.sock');
		const raw = net.createServer((socket) => {
			socket.once('data', () => socket.end(replies.shift() ?? ''));
		});
		await new Promise<void>((resolve) => raw.listen(socketPath, () => resolve()));
		try {
			await assert.rejects(postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }), { code: 'ECONNRESET' });
			await assert.rejects(postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }), { code: 'HPE_INVALID_CONSTANT' });
		} finally {
			await new Promise<void>((resolve) => raw.close(() => resolve()));
		}
	});

	it('never sends a token that would break the header', async () => {
		let requests = 0;
		const socketPath = await listen((_req, res) => { requests += 1; res.end('{}'); });
		await assert.rejects(postToHost({ socketPath, method: 'hello', body: '{}', token: 'tok\r\nX-Evil: 1', timeoutMs: 10_000 }), { code: 'ERR_INVALID_CHAR' });
		assert.equal(requests, 0);
	});

	it('rejects with the connect error when nothing listens', async () => {
		server = http.createServer();
		await assert.rejects(postToHost({ socketPath: path.join(dir, 'absent.sock'), method: 'hello', body: '{}', timeoutMs: 10_000 }), { code: 'ENOENT' });
	});

	it('tells a request the Host never read (closed at once: requestSent false) from one it read whole (true)', async () => {
		server = http.createServer();
		const socketPath = path.join(dir, 'drop.sock');
		let readWhole = false;
		const raw = net.createServer((socket) => {
			socket.on('error', () => undefined);
			if (!readWhole) {
				socket.destroy();
				return;
			}
			socket.on('data', (chunk: Buffer) => { if (chunk.toString('latin1').endsWith('{}')) { socket.end(); } });
		});
		await new Promise<void>((resolve) => raw.listen(socketPath, () => resolve()));
		try {
			const dropped = await postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }).then(() => undefined, (error: unknown) => error);
			assert.ok(dropped instanceof Error, 'a dropped connection rejects');
			assert.equal(requestWasSent(dropped), false, `closed before reading: ${(dropped as Error).message}`);
			readWhole = true;
			const read = await postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }).then(() => undefined, (error: unknown) => error);
			assert.equal(requestWasSent(read), true, 'read whole, then closed without a reply');
		} finally {
			await new Promise<void>((resolve) => raw.close(() => resolve()));
		}
	});

	it('refuses a socket of another user before connecting (EUNTRUSTED, nothing sent)', async function () {
		if (process.getuid?.() !== 0) {
			this.skip(); // only root can give a file to another uid
		}
		let requests = 0;
		const socketPath = await listen((_req, res) => { requests += 1; res.end('{}'); });
		fs.chownSync(socketPath, 65534, 65534);
		const refused = await postToHost({ socketPath, method: 'hello', body: '{}', timeoutMs: 10_000 }).then(() => undefined, (error: unknown) => error);
		assert.equal((refused as { code?: string }).code, 'EUNTRUSTED');
		assert.match((refused as Error).message, /belongs to uid 65534/);
		assert.equal(requestWasSent(refused), false);
		assert.equal(requests, 0);
	});
});
