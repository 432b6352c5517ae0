// The control-plane server end to end in process: a fake HostApi behind a real temporary Unix socket.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { ControlPlaneServer } from '../../../src/control-plane/server.js';
import { createFakeHostApi, type FakeHostApi, sourceToken, special, userToken } from './fakeHostApi.js';
import { waitFor } from '../../waitFor.js';
import { call, makeTempDir, request, startTestServer, type TestServer } from './serverTestKit.js';

interface ErrorReply {
	ok: false;
	error: { reasonCode: string; message: string; hint: string; retryable?: boolean; details?: Record<string, unknown> };
}

function errorOf(json: unknown): ErrorReply['error'] {
	const reply = json as ErrorReply;
	assert.equal(reply.ok, false, `expected an error reply, got ${JSON.stringify(json)}`);
	assert.equal(typeof reply.error.reasonCode, 'string');
	assert.equal(typeof reply.error.message, 'string');
	assert.equal(typeof reply.error.hint, 'string');
	return reply.error;
}

describe('control-plane server', () => {
	let api: FakeHostApi;
	let t: TestServer;

	beforeEach(async () => {
		api = createFakeHostApi();
		t = await startTestServer(api);
	});
	afterEach(async () => {
		await t.close();
	});

	it('answers GET /v1/health without a token', async () => {
		const reply = await request(t.socketPath, { method: 'GET', path: '/v1/health' });
		assert.equal(reply.status, 200);
		assert.deepEqual(reply.json, { ok: true, result: { status: 'ok', protocol: 1, pid: process.pid } });
		assert.match(String(reply.headers['content-type']), /^application\/json/);
	});

	it('calls the handler with the parsed params and the caller from the bearer token', async () => {
		const reply = await call(t.socketPath, 'issue/get', { issueId: 'I-7' }, sourceToken);
		assert.equal(reply.status, 200);
		const body = reply.json as { ok: true; result: { issueId: string } };
		assert.equal(body.ok, true);
		assert.equal(body.result.issueId, 'I-7');
		assert.deepEqual(api.calls.at(-1), { method: 'issue/get', params: { issueId: 'I-7' }, caller: { kind: 'session', sessionId: 'S-1', role: 'source' } });
	});

	it('applies the schema defaults before the handler sees the params', async () => {
		api.log.text = 'hello';
		const reply = await call(t.socketPath, 'run/log', { runId: 'R-1' }, userToken);
		assert.equal(reply.status, 200);
		assert.deepEqual(api.calls.at(-1)?.params, { runId: 'R-1', stream: 'stdout', offset: 0, maxBytes: 262_144 });
	});

	it('treats an empty body as {}', async () => {
		const reply = await request(t.socketPath, { path: '/v1/issue/list', headers: { authorization: `Bearer ${userToken}` } });
		assert.equal(reply.status, 200);
	});

	it('rejects a missing or unknown token with 401 unauthenticated and names --as-user', async () => {
		for (const token of [undefined, 'not-a-token']) {
			const reply = await call(t.socketPath, 'issue/list', {}, token);
			assert.equal(reply.status, 401);
			const error = errorOf(reply.json);
			assert.equal(error.reasonCode, 'unauthenticated');
			assert.match(error.hint, /--as-user/);
		}
		const malformed = await request(t.socketPath, { path: '/v1/issue/list', headers: { authorization: userToken }, body: '{}' });
		assert.equal(malformed.status, 401, 'the token must come as "Bearer <token>"');
		assert.equal(api.calls.length, 0);
	});

	it('answers an unknown method with 404 JSON (prototype keys included)', async () => {
		for (const name of ['nope', 'plan/nope', '__proto__', 'constructor', 'toString', '']) {
			const reply = await call(t.socketPath, name, {}, userToken);
			assert.equal(reply.status, 404, name);
			assert.equal(errorOf(reply.json).reasonCode, 'invalid_input');
		}
		const outside = await request(t.socketPath, { method: 'GET', path: '/elsewhere' });
		assert.equal(outside.status, 404);
		errorOf(outside.json);
	});

	it('answers a method called with GET with 405 JSON', async () => {
		const reply = await request(t.socketPath, { method: 'GET', path: '/v1/issue/list', headers: { authorization: `Bearer ${userToken}` } });
		assert.equal(reply.status, 405);
		assert.equal(reply.headers['allow'], 'POST');
		errorOf(reply.json);
	});

	it('answers a body that is not JSON with 400 invalid_input', async () => {
		const reply = await request(t.socketPath, { path: '/v1/issue/get', headers: { authorization: `Bearer ${userToken}` }, body: '{"issueId":' });
		assert.equal(reply.status, 400);
		const error = errorOf(reply.json);
		assert.equal(error.reasonCode, 'invalid_input');
		assert.match(error.message, /not JSON/);
		assert.match(error.hint, /tutti issue get --help/);
	});

	it('validates params with the method schema: 400 with a readable message and the --help hint', async () => {
		const reply = await call(t.socketPath, 'plan/schedule', { issueId: 'I', checkpointId: 'C', expectedGraphRevision: 0, taskIds: [], requestId: 'r', extra: 1 }, sourceToken);
		assert.equal(reply.status, 400);
		const error = errorOf(reply.json);
		assert.equal(error.reasonCode, 'invalid_input');
		assert.match(error.message, /plan\/schedule/);
		assert.match(error.message, /expectedGraphRevision/);
		assert.match(error.message, /taskIds/);
		assert.match(error.message, /extra/);
		assert.equal(error.hint, 'run `tutti plan issue schedule --help` and fix the flags it names');
		assert.equal(api.calls.length, 0, 'the handler never sees invalid params');
		for (const body of ['[]', '"text"', '42', 'null']) {
			const other = await request(t.socketPath, { path: '/v1/issue/get', headers: { authorization: `Bearer ${userToken}` }, body });
			assert.equal(other.status, 400, body);
		}
	});

	it('refuses a malformed plan operation in the method table, before any handler runs: 400 invalid_mutation_operation naming kind and task', async () => {
		const fence = { issueId: 'I', checkpointId: 'C', expectedGraphRevision: 1, requestId: 'r' };
		const malformed: unknown[] = [
			[{ op: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } }],
			[{ kind: 'rework', taskId: 'a', replacement: { taskId: 'a2', title: 'A2' } }],
			[{ kind: 'delete', taskId: 'a' }],
			[{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh', bogus: 1 } }],
			{ kind: 'supersede', taskId: 'a' },
			[],
			Array.from({ length: 5001 }, (_, i) => ({ kind: 'supersede', taskId: `t${i}` })),
			'[{"kind":"supersede","taskId":"a"}]',
		];
		for (const operations of malformed) {
			const reply = await call(t.socketPath, 'plan/mutate', { ...fence, operations }, sourceToken);
			const what = JSON.stringify(operations).slice(0, 80);
			assert.equal(reply.status, 400, what);
			const error = errorOf(reply.json);
			assert.equal(error.reasonCode, 'invalid_mutation_operation', what);
			assert.match(error.message, /^--operations-json is malformed: entries must use kind add, update, rework, or supersede; op and replacement are not supported/, what);
			assert.match(error.message, /"task"/, what);
			assert.match(error.hint, /`tutti plan issue mutate --help`/, what);
		}
		assert.equal(api.calls.length, 0, 'no handler ran for a malformed operation');
		const ok = [{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } }, { kind: 'supersede', taskId: 'a' }];
		await call(t.socketPath, 'plan/mutate', { ...fence, operations: ok }, sourceToken);
		assert.deepEqual(api.calls.map((c) => [c.method, c.params]), [['plan/mutate', { ...fence, operations: ok }]], 'well-formed operations reach the handler as structured JSON');
	});

	it('answers a body over the 8 MiB cap with 413 JSON naming the cap, and keeps serving', async () => {
		const big = JSON.stringify({ issueId: 'x'.repeat(8_388_608) });
		const reply = await request(t.socketPath, { path: '/v1/issue/get', headers: { authorization: `Bearer ${userToken}` }, body: big });
		assert.equal(reply.status, 413);
		assert.equal(errorOf(reply.json).reasonCode, 'invalid_input');
		assert.match(errorOf(reply.json).message, /request cap of 8388608 bytes \(8 MiB, a plan of about 5,000 tasks\)/);
		assert.equal(api.calls.length, 0);
		const after = await call(t.socketPath, 'issue/list', {}, userToken);
		assert.equal(after.status, 200);
	});

	it('stops reading a chunked body once it passes the cap (no content-length)', async () => {
		const reply = await new Promise<string>((resolve) => {
			const socket = net.connect({ path: t.socketPath });
			let text = '';
			socket.setEncoding('utf8');
			socket.on('data', (chunk: string) => { text += chunk; });
			socket.on('close', () => resolve(text));
			socket.on('error', () => { /* the server closes while we still write */ });
			socket.write(`POST /v1/issue/get HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${userToken}\r\ntransfer-encoding: chunked\r\n\r\n`);
			const chunk = 'y'.repeat(64 * 1024);
			let sent = 0;
			const pump = (): void => {
				while (sent < 140 && !socket.destroyed) {
					sent++;
					if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) {
						socket.once('drain', pump);
						return;
					}
				}
			};
			pump();
		});
		assert.match(reply, /^HTTP\/1\.1 413 /);
		assert.match(reply, /"reasonCode":"invalid_input"/);
	});

	it('maps DomainError reason codes to statuses and passes hint, retryable and details', async () => {
		const missing = await call(t.socketPath, 'issue/get', { issueId: special.missing }, userToken);
		assert.equal(missing.status, 404);
		assert.equal(errorOf(missing.json).reasonCode, 'issue_not_found');

		const forbidden = await call(t.socketPath, 'issue/pause', { issueId: 'I-1' }, sourceToken);
		assert.equal(forbidden.status, 403);
		assert.equal(errorOf(forbidden.json).reasonCode, 'forbidden');

		const stale = await call(t.socketPath, 'issue/get', { issueId: special.stale }, userToken);
		assert.equal(stale.status, 409);
		assert.deepEqual(errorOf(stale.json), {
			reasonCode: 'stale_graph_revision', message: 'graphRevision 3 is stale (current 4)', hint: 'run `tutti plan issue get` once',
			retryable: true, details: { current: 4 },
		});
		assert.equal('retryable' in errorOf(missing.json), false, 'retryable is only sent when true');
	});

	it('answers a handler crash with 500 internal, logs it, and keeps serving', async () => {
		const reply = await call(t.socketPath, 'issue/get', { issueId: special.crash }, userToken);
		assert.equal(reply.status, 500);
		const error = errorOf(reply.json);
		assert.equal(error.reasonCode, 'internal');
		assert.match(error.message, /kaput/);
		assert.doesNotMatch(error.message, /second line/);
		assert.ok(t.logs.some((line) => line.includes('kaput')));
		assert.equal((await call(t.socketPath, 'issue/list', {}, userToken)).status, 200);
	});

	it('answers a store refusal (full disk) with 503 store_unavailable and its message, never internal', async () => {
		const reply = await call(t.socketPath, 'issue/get', { issueId: special.diskFull }, userToken);
		assert.equal(reply.status, 503);
		const error = errorOf(reply.json);
		assert.equal(error.reasonCode, 'store_unavailable');
		assert.match(error.message, /ENOSPC/);
		assert.equal(error.retryable, true);
		assert.match(error.hint, /same command again/);
	});

	it('validates results: a reply that breaks the protocol is a 500 with a clear message', async () => {
		const reply = await call(t.socketPath, 'issue/get', { issueId: special.badReply }, userToken);
		assert.equal(reply.status, 500);
		const error = errorOf(reply.json);
		assert.equal(error.reasonCode, 'internal');
		assert.match(error.message, /issue\/get.*does not match the protocol/s);
		assert.ok(t.logs.some((line) => line.includes('does not match the protocol')));
	});

	it('answers malformed HTTP with a JSON 400 and keeps serving', async () => {
		const reply = await new Promise<string>((resolve) => {
			const socket = net.connect({ path: t.socketPath });
			let text = '';
			socket.setEncoding('utf8');
			socket.on('data', (chunk: string) => { text += chunk; });
			socket.on('close', () => resolve(text));
			socket.write('THIS IS NOT HTTP\r\n\r\n');
		});
		assert.match(reply, /^HTTP\/1\.1 400 /);
		assert.match(reply, /\{"ok":false,"error":\{"reasonCode":"invalid_input"/);
		assert.equal((await request(t.socketPath, { method: 'GET', path: '/v1/health' })).status, 200);
	});

	it('keeps the socket 0600 and writes a 0600 discovery file naming the socket and this pid', () => {
		assert.equal(fs.statSync(t.socketPath).mode & 0o777, 0o600);
		assert.equal(fs.statSync(t.discoveryFile).mode & 0o777, 0o600);
		assert.equal(fs.statSync(path.dirname(t.discoveryFile)).mode & 0o777, 0o700);
		assert.deepEqual(JSON.parse(fs.readFileSync(t.discoveryFile, 'utf8')), { workspace: api.workspace, socket: t.socketPath, pid: process.pid });
	});
});

describe('control-plane server lifecycle', () => {
	const dirs: string[] = [];
	afterEach(() => {
		for (const dir of dirs.splice(0)) {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('dispose() unlinks the socket and the discovery file', async () => {
		const t = await startTestServer(createFakeHostApi());
		dirs.push(t.dir);
		await t.server.close();
		assert.equal(fs.existsSync(t.socketPath), false);
		assert.equal(fs.existsSync(t.discoveryFile), false);
	});

	it('leaves a discovery file that a newer Host rewrote', async () => {
		const t = await startTestServer(createFakeHostApi());
		dirs.push(t.dir);
		fs.writeFileSync(t.discoveryFile, JSON.stringify({ workspace: '/w', socket: t.socketPath, pid: process.pid + 1 }));
		await t.server.close();
		assert.equal(fs.existsSync(t.discoveryFile), true);
	});

	it('replaces a stale socket file, but refuses to take over a live one', async () => {
		const dir = makeTempDir();
		dirs.push(dir);
		const socketPath = path.join(dir, 'cp.sock');
		// A stale socket: bound by a server that is gone (libuv would unlink on close, so copy the inode first).
		const stale = net.createServer();
		await new Promise<void>((resolve) => stale.listen(socketPath, resolve));
		fs.linkSync(socketPath, `${socketPath}.keep`);
		await new Promise<void>((resolve) => stale.close(() => resolve()));
		fs.renameSync(`${socketPath}.keep`, socketPath);
		assert.equal(fs.existsSync(socketPath), true);

		const first = await ControlPlaneServer.listen({ api: createFakeHostApi(), socketPath, log: () => undefined });
		try {
			assert.equal((await request(socketPath, { method: 'GET', path: '/v1/health' })).status, 200);
			await assert.rejects(ControlPlaneServer.listen({ api: createFakeHostApi(), socketPath, log: () => undefined }), (error: Error & { reasonCode?: string }) => {
				assert.equal(error.reasonCode, 'host_unavailable');
				assert.match(error.message, /already serving/);
				return true;
			});
			assert.equal((await request(socketPath, { method: 'GET', path: '/v1/health' })).status, 200, 'the live server is untouched');
		} finally {
			await first.close();
		}
	});

	it('never cuts off a slow handler: the request timeout covers receiving the request only', async () => {
		const api = createFakeHostApi();
		const t = await startTestServer(api, { timeouts: { headersMs: 100, requestMs: 200, checkIntervalMs: 50 } });
		dirs.push(t.dir);
		const pending = call(t.socketPath, 'issue/get', { issueId: special.slow }, userToken);
		await waitFor(() => api.calls.length > 0, { what: 'the slow handler to be called' });
		await new Promise((r) => setTimeout(r, 500));
		api.release();
		assert.equal((await pending).status, 200);
		await t.server.close();
	});

	it('fails pending requests on dispose instead of hanging', async () => {
		const api = createFakeHostApi();
		const t = await startTestServer(api);
		dirs.push(t.dir);
		const pending = call(t.socketPath, 'issue/get', { issueId: special.slow }, userToken).then(() => 'answered', () => 'failed');
		await waitFor(() => api.calls.length > 0, { what: 'the slow handler to be called' });
		t.server.dispose();
		assert.equal(await pending, 'failed');
		api.release();
	});
});
