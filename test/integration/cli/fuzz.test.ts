// Fuzz the CLI and the control-plane socket (fast-check, bounded runs): only structured errors come out, nothing
// crashes, invalid input never reaches a handler, and the server keeps answering afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { commandTable } from '../../../src/cli/commandTable.js';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import { runCli } from '../../../src/cli/runCli.js';
import { type Method, methods, wireReply } from '../../../src/protocol/controlPlane.js';
import { createFakeHostApi, type FakeHostApi, sourceToken, userToken } from '../../unit/control-plane/fakeHostApi.js';
import { makeTempDir, request, startTestServer, type TestServer } from '../../unit/control-plane/serverTestKit.js';

const words = [...new Set(['host', 'help', ...commandTable.flatMap((s) => s.path)])];
const flags = [...new Set(['--json', '--as-user', '--help', '-h', '--follow', '--workspace', ...commandTable.flatMap((s) => s.flags.map((f) => `--${f.name}`))])];
const values = ['0', '1', '-1', '3', 'true', 'false', '', '[]', '["a"]', '[1]', '{}', 'null', 'goal_satisfied', 'source', 'stdout', '--', '-', '=', 'x'.repeat(300)];

const token = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom(...words) },
	{ weight: 4, arbitrary: fc.constantFrom(...flags) },
	{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...flags), fc.constantFrom(...values)).map(([f, v]) => `${f}=${v}`) },
	{ weight: 3, arbitrary: fc.constantFrom(...values) },
	{ weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);
/** Mostly well-formed prefixes (a real command path) followed by noise. */
const argvArb = fc.oneof(
	fc.array(token, { maxLength: 12 }),
	fc.tuple(fc.constantFrom(...commandTable), fc.array(token, { maxLength: 10 })).map(([spec, rest]) => [...spec.path, ...rest]),
);

describe('fuzz: command line', () => {
	it('parseCommandLine never throws and only returns calls, help or structured invalid_input errors', () => {
		fc.assert(fc.property(argvArb, (argv) => {
			const result = parseCommandLine(argv);
			switch (result.kind) {
				case 'call':
					assert.ok(Object.prototype.hasOwnProperty.call(methods, result.method));
					assert.equal(typeof result.params, 'object');
					break;
				case 'error':
					assert.equal(result.exitCode, 2);
					assert.equal(result.error.reasonCode, 'invalid_input');
					assert.ok(result.error.message.length > 0);
					assert.match(result.error.hint, /^run `tutti[a-z -]*--help`$/);
					break;
				case 'help':
					assert.match(result.text, /Usage: tutti/);
					break;
				case 'host':
					assert.equal(typeof result.workspace, 'string');
					break;
			}
		}), { numRuns: 300 });
	});

	it('runCli with --json prints one JSON document and exits 0, 1 or 2 (no Host reachable)', async () => {
		const base = makeTempDir('tutti-fz-');
		try {
			const env = { TUTTI_IPC_HOOK: path.join(base, 'absent.sock'), TUTTI_CONNECT_TIMEOUT_MS: '0', TUTTI_SESSION_TOKEN: 't' };
			await fc.assert(fc.asyncProperty(argvArb, async (argv) => {
				let stdout = '';
				const code = await runCli([...argv, '--json'], {
					env, cwd: base, stdout: (t) => { stdout += t; }, stderr: () => undefined, loadHost: () => null, sleep: async () => undefined,
					stdin: () => Readable.from([]),
				});
				assert.ok(code === 0 || code === 1 || code === 2, `exit ${code}`);
				if (code !== 0) {
					const lines = stdout.trimEnd().split('\n');
					assert.equal(lines.length, 1, stdout);
					const parsed = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
					assert.equal(typeof parsed.error.reasonCode, 'string');
					assert.equal(typeof parsed.error.message, 'string');
					assert.equal(typeof parsed.error.hint, 'string');
				}
			}), { numRuns: 200 });
		} finally {
			fs.rmSync(base, { recursive: true, force: true });
		}
	});
});

/** Sends raw bytes on a fresh connection; resolves with everything the server wrote before closing (or '' on timeout). */
function rawExchange(socketPath: string, bytes: Buffer | string, endAfterWrite: boolean, waitMs = 3000): Promise<string> {
	return new Promise((resolve) => {
		const socket = net.connect({ path: socketPath });
		let text = '';
		const timer = setTimeout(() => { socket.destroy(); resolve(text); }, waitMs);
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => { text += chunk; });
		socket.on('error', () => undefined);
		socket.on('close', () => { clearTimeout(timer); resolve(text); });
		socket.write(bytes, () => { if (endAfterWrite) { socket.end(); } });
	});
}

/** Every HTTP response in `text` must carry a JSON body that is a protocol reply (error replies for status ≥ 400). */
function assertJsonResponses(text: string): void {
	const responses = text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.startsWith('HTTP/1.1'));
	for (const response of responses) {
		const status = Number(response.slice(9, 12));
		const body = response.slice(response.indexOf('\r\n\r\n') + 4);
		const length = Number(/content-length: (\d+)/i.exec(response)?.[1] ?? NaN);
		const json = body.slice(0, Number.isFinite(length) ? length : undefined);
		const reply = wireReply.parse(JSON.parse(json));
		assert.equal(reply.ok, status < 400, `status ${status} with ${json}`);
	}
}

describe('fuzz: control-plane socket', () => {
	let api: FakeHostApi;
	let t: TestServer;

	beforeEach(async () => {
		api = createFakeHostApi();
		t = await startTestServer(api, { timeouts: { headersMs: 400, requestMs: 800, keepAliveMs: 200, checkIntervalMs: 100 } });
	});
	afterEach(async () => {
		await t.close();
	});

	async function stillServing(): Promise<void> {
		const health = await request(t.socketPath, { method: 'GET', path: '/v1/health' });
		assert.equal(health.status, 200);
	}

	it('random JSON bodies to real methods: a protocol reply every time, handlers only see valid params', async () => {
		const implemented: Method[] = ['issue/get', 'issue/list', 'issue/create', 'run/get', 'run/log', 'agent/list', 'plan/schedule', 'plan/mutate', 'task/add', 'session/open'];
		await fc.assert(fc.asyncProperty(
			fc.constantFrom(...implemented),
			fc.oneof(fc.json(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.record({ issueId: fc.string(), runId: fc.string() }).map((v) => JSON.stringify(v))),
			fc.constantFrom(userToken, sourceToken, undefined, 'bogus'),
			async (method, body, bearer) => {
				const before = api.calls.length;
				const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
				const reply = await request(t.socketPath, { path: `/v1/${method}`, headers, body });
				const parsed = wireReply.parse(reply.json);
				assert.equal(parsed.ok, reply.status === 200);
				assert.ok([200, 400, 401, 403, 404, 409].includes(reply.status), `status ${reply.status}: ${reply.text}`);
				if (api.calls.length > before) {
					const seen = api.calls.at(-1)!;
					assert.ok(methods[method].params.safeParse(seen.params).success, 'a handler saw params its schema rejects');
				} else {
					assert.notEqual(reply.status, 200);
				}
			},
		), { numRuns: 200 });
		await stillServing();
	});

	it('random bytes and broken HTTP: JSON errors or a closed connection, never a crash', async () => {
		const prefix = fc.constantFrom('', 'POST /v1/issue/get HTTP/1.1\r\n', 'GET /v1/health HTTP/1.1\r\nhost: x\r\n', 'POST /v1/issue/list HTTP/1.1\r\ncontent-length: 5\r\n\r\n');
		await fc.assert(fc.asyncProperty(prefix, fc.uint8Array({ maxLength: 2048 }), async (head, noise) => {
			const text = await rawExchange(t.socketPath, Buffer.concat([Buffer.from(head), Buffer.from(noise)]), true);
			assertJsonResponses(text);
		}), { numRuns: 200 });
		await stillServing();
	});

	it('bodies around the 1 MiB cap: 413 or a normal answer, and the server keeps serving', async () => {
		await fc.assert(fc.asyncProperty(fc.integer({ min: 1_048_560, max: 1_048_600 }), fc.boolean(), async (size, declareLength) => {
			const body = `{"issueId":"${'x'.repeat(size - 14)}"}`;
			const head = `POST /v1/issue/get HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${userToken}\r\n`;
			const framing = declareLength ? `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
				: `transfer-encoding: chunked\r\nconnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
			const text = await rawExchange(t.socketPath, head + framing, false);
			assert.match(text, /^HTTP\/1\.1 (413|400) /, text.slice(0, 200));
			assertJsonResponses(text);
		}), { numRuns: 12 });
		assert.equal(api.calls.length, 0, 'no oversized or invalid request reached a handler');
		await stillServing();
	});

	it('slow clients are cut off by the header timeout while others are served', async () => {
		const stalled = await Promise.all(Array.from({ length: 20 }, (_, i) => new Promise<net.Socket>((resolve) => {
			const socket = net.connect({ path: t.socketPath }, () => {
				socket.write(i % 2 === 0 ? 'POST /v1/issue/list HTTP/1.1\r\nhost: x\r\n' : `POST /v1/issue/list HTTP/1.1\r\ncontent-length: 100\r\nauthorization: Bearer ${userToken}\r\n\r\n{"`);
				resolve(socket);
			});
			socket.on('error', () => undefined);
		})));
		await stillServing();
		const closed = await Promise.all(stalled.map((socket) => new Promise<string>((resolve) => {
			let text = '';
			socket.setEncoding('utf8');
			socket.on('data', (chunk: string) => { text += chunk; });
			socket.on('close', () => resolve(text));
		})));
		for (const text of closed) {
			if (text !== '') {
				assertJsonResponses(text);
			}
		}
		assert.ok(closed.some((text) => /^HTTP\/1\.1 408 /.test(text)), 'at least the header-stalled ones get a 408');
		assert.equal(api.calls.length, 0);
		await stillServing();
	});
});
