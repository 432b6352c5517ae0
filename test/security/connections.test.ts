// Security: agent connections never lock the developer out of the Host. Idle connections are closed after a
// timeout; a flood of them (more than the 256 that used to fill every slot) does not stop the developer's CLI; one
// agent session's requests in flight are limited, the developer's never are; and when a connection closes before
// the Host read the request, the CLI says that nothing was sent instead of "may or may not have taken effect".
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostHandle, expectError, expectOk, openSession, show, startHost, waitFor } from '../integration/harness.js';
import { userCredentialOf } from './securityKit.js';

/** A connection to the Host's socket that has connected (or was closed first), with its 'close' observed. */
interface RawConnection {
	socket: net.Socket;
	connectedAt: number;
	closedAt: number | undefined;
}

function openRaw(socketPath: string, firstBytes?: string): Promise<RawConnection> {
	return new Promise((resolve) => {
		const socket = net.connect(socketPath);
		const connection: RawConnection = { socket, connectedAt: Date.now(), closedAt: undefined };
		socket.on('error', () => { /* closed by the Host */ });
		socket.on('close', () => {
			connection.closedAt = Date.now();
			resolve(connection);
		});
		socket.once('connect', () => {
			connection.connectedAt = Date.now();
			if (firstBytes !== undefined) {
				socket.write(firstBytes);
			}
			resolve(connection);
		});
	});
}

function openCount(connections: readonly RawConnection[]): number {
	return connections.filter((c) => c.closedAt === undefined).length;
}

/** A request whose head is whole but whose body never comes: in flight at the Host until it times out. */
function halfSentRequest(token: string): string {
	return `POST /v1/issue/list HTTP/1.1\r\nhost: tutti\r\ncontent-type: application/json\r\nauthorization: Bearer ${token}\r\ncontent-length: 100\r\n\r\n`;
}

describe('security: connections cannot lock the developer out', function () {
	let host: HostHandle;
	const raw: RawConnection[] = [];

	before(async function () {
		host = await startHost();
	});

	afterEach(function () {
		for (const connection of raw.splice(0)) { connection.socket.destroy(); }
	});

	after(async function () {
		await host?.dispose();
	});

	it("300 idle connections (more than the old 256 slots): the developer's CLI and an agent's still succeed", async function () {
		raw.push(...await Promise.all(Array.from({ length: 300 }, () => openRaw(host.socket))));
		const idle = openCount(raw);
		assert.ok(idle >= 100, `the flood is held open while the CLI runs (${idle} of 300 open)`);
		const worker = await openSession(host, 'worker');
		expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true }));
		expectOk(await host.cli(['issue', 'list', '--json'], { token: worker.token }));
		assert.ok(openCount(raw) >= 100, `idle connections were still open after the calls (${openCount(raw)})`);
		// The waiting connections are bounded by closing the oldest, never by refusing the newcomer.
		await waitFor(() => raw.slice(0, 10).every((c) => c.closedAt !== undefined), { what: 'the oldest idle connections to be closed', timeoutMs: 3_000 });
		assert.ok(raw.slice(-10).every((c) => c.closedAt === undefined), 'the newest idle connections are still open');
	});

	it("one agent session's requests in flight are limited; the developer's and other sessions' are served", async function () {
		const [busy, other] = await Promise.all([openSession(host, 'worker'), openSession(host, 'worker')]);
		raw.push(...await Promise.all(Array.from({ length: 40 }, () => openRaw(host.socket, halfSentRequest(busy.token)))));
		const refused = await waitFor(async () => {
			const result = await host.cli(['issue', 'list', '--json'], { token: busy.token });
			return result.code !== 0 ? result : undefined;
		}, { what: 'a request of the busy session to be refused', timeoutMs: 5_000 });
		const error = expectError(refused, 'host_unavailable');
		assert.match(error.message, /requests in flight at the Host, its limit; this one was not handled/, show(refused));
		assert.equal(error.retryable, true);
		expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true }));
		expectOk(await host.cli(['issue', 'list', '--json'], { token: other.token }));
		for (const connection of raw.splice(0)) { connection.socket.destroy(); }
		await waitFor(async () => (await host.cli(['issue', 'list', '--json'], { token: busy.token })).code === 0,
			{ what: 'the busy session to be served again once its requests ended', timeoutMs: 5_000 });
	});

	it("the developer's credential is never limited: 40 half-sent developer requests, then the CLI succeeds", async function () {
		const credential = userCredentialOf(host);
		raw.push(...await Promise.all(Array.from({ length: 40 }, () => openRaw(host.socket, halfSentRequest(credential)))));
		expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true }));
	});
});

describe('security: idle connections time out', function () {
	let host: HostHandle;

	before(async function () {
		host = await startHost({ hostEnv: { TUTTI_HOST_IDLE_CONNECTION_MS: '300' } });
	});

	after(async function () {
		await host?.dispose();
	});

	/** Resolves when the connection closes; rejects if it is still open after `boundMs`. */
	async function closedWithin(connection: RawConnection, boundMs: number, what: string): Promise<number> {
		await waitFor(() => connection.closedAt !== undefined, { what, timeoutMs: boundMs, intervalMs: 20 });
		return connection.closedAt! - connection.connectedAt;
	}

	it('a connection that sends nothing, or half a request head, is closed after the idle timeout', async function () {
		const silent = await openRaw(host.socket);
		const partial = await openRaw(host.socket, 'POST /v1/issue/list HTTP/1.1\r\nhost: tutti\r\n');
		const silentMs = await closedWithin(silent, 3_000, 'the silent connection to be closed');
		const partialMs = await closedWithin(partial, 3_000, 'the half-sent head to be closed');
		assert.ok(silentMs >= 250 && partialMs >= 250, `closed by the timeout, not at once (${silentMs} ms, ${partialMs} ms)`);
	});

	it('a kept-alive connection is closed after the idle timeout that follows its reply', async function () {
		const credential = userCredentialOf(host);
		const kept = await openRaw(host.socket);
		let reply = '';
		kept.socket.setEncoding('utf8').on('data', (chunk: string) => { reply += chunk; });
		kept.socket.write(`GET /v1/health HTTP/1.1\r\nhost: tutti\r\nauthorization: Bearer ${credential}\r\n\r\n`);
		await waitFor(() => reply.includes('"status":"ok"'), { what: 'the health reply', timeoutMs: 5_000 });
		await closedWithin(kept, 3_000, 'the kept-alive connection to be closed');
	});
});

describe('security: the CLI says whether anything was sent', function () {
	let host: HostHandle;
	let dir: string;
	let server: net.Server | undefined;

	before(async function () {
		host = await startHost();
	});

	beforeEach(function () {
		dir = mkdtempSync(join(tmpdir(), 'tutti-sec-sent-'));
	});

	afterEach(async function () {
		await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
		server = undefined;
		rmSync(dir, { recursive: true, force: true });
	});

	after(async function () {
		await host?.dispose();
	});

	async function listen(onConnection: (socket: net.Socket) => void): Promise<string> {
		const socketPath = join(dir, 'cp.sock');
		server = net.createServer((socket) => {
			socket.on('error', () => { /* the CLI gives up */ });
			onConnection(socket);
		});
		await new Promise<void>((resolve) => server!.listen(socketPath, () => resolve()));
		chmodSync(socketPath, 0o600);
		return socketPath;
	}

	function callThrough(socketPath: string): ReturnType<HostHandle['cli']> {
		return host.cli(['issue', 'create', '--title', 'Sent?', '--json'], { token: 'f'.repeat(64), env: { TUTTI_IPC_HOOK: socketPath, TUTTI_CONNECT_TIMEOUT_MS: '300' } });
	}

	it('a connection closed before the request was read: "nothing was sent; it did not take effect", and the command to run again', async function () {
		let connections = 0;
		const socketPath = await listen((socket) => {
			connections += 1;
			socket.destroy();
		});
		const result = await callThrough(socketPath);
		const error = expectError(result, 'host_unavailable');
		assert.ok(connections >= 1, 'the CLI did connect');
		assert.match(error.message, /nothing was sent; it did not take effect/, show(result));
		assert.doesNotMatch(error.message, /may or may not/, show(result));
		assert.match(error.hint, /run the same command again: `.*issue create --title 'Sent\?' --json`/, show(result));
	});

	it('a connection closed after the whole request was read: "may or may not have taken effect"', async function () {
		const socketPath = await listen((socket) => {
			let text = '';
			socket.setEncoding('utf8').on('data', (chunk: string) => {
				text += chunk;
				const headEnd = text.indexOf('\r\n\r\n');
				const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 'NaN');
				if (headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= length) {
					socket.end();
				}
			});
		});
		const result = await callThrough(socketPath);
		const error = expectError(result, 'host_unavailable');
		assert.match(error.message, /may or may not have taken effect/, show(result));
		assert.doesNotMatch(error.message, /nothing was sent/, show(result));
	});
});
