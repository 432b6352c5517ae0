// The codex app-server JSON-RPC client (src/agents/codexAppServerClient.ts) against a fake peer: requests answered,
// refused, unreadable, unanswered and cut off; notifications read or refused; the server's requests answered through
// typed handlers (or refused); every line the server wrote handed on in order.
import { strict as assert } from 'node:assert';
import { CodexAppServerClient, type CodexAppServerClientOptions, CodexAppServerError, rpcErrorCodes } from '../../../src/agents/codexAppServerClient.js';
import { FakePeer, type Json } from './codexAppServerPeer.js';

function client(peer: FakePeer, options: Partial<CodexAppServerClientOptions> = {}): CodexAppServerClient {
	return new CodexAppServerClient({ input: peer.toClient, output: peer.fromClient, ...options });
}

async function rejection(promise: Promise<unknown>): Promise<CodexAppServerError> {
	try {
		await promise;
	} catch (e) {
		assert.ok(e instanceof CodexAppServerError, String(e));
		return e;
	}
	assert.fail('expected a rejection');
}

const started = { threadId: 't1', turn: { id: 'u1', status: 'inProgress', error: null, items: [] } };

describe('codex app-server client', () => {
	it('sends a request as one JSON line and resolves with its answer, read through the schema (unknown fields dropped)', async () => {
		const peer = new FakePeer();
		const c = client(peer);
		const answer = c.request('turn/steer', { threadId: 't1', expectedTurnId: 'u1', input: [{ type: 'text', text: 'hi', text_elements: [] }], clientUserMessageId: 'm1' });
		const sent = await peer.request('turn/steer');
		assert.deepEqual(sent, { id: 1, method: 'turn/steer', params: { threadId: 't1', expectedTurnId: 'u1', input: [{ type: 'text', text: 'hi', text_elements: [] }], clientUserMessageId: 'm1' } });
		peer.answer(sent, { turnId: 'u1', extra: true });
		assert.deepEqual(await answer, { turnId: 'u1' });
		c.dispose();
	});

	it('rejects with the server\'s error, an unreadable answer, and no answer in time (a late answer is ignored)', async () => {
		const peer = new FakePeer();
		const c = client(peer);
		const refused = c.request('turn/steer', { threadId: 't1', expectedTurnId: 'x', input: [], clientUserMessageId: 'm' });
		peer.send({ id: (await peer.request('turn/steer')).id, error: { code: -32600, message: 'no active turn to steer' } });
		const e1 = await rejection(refused);
		assert.deepEqual([e1.code, e1.message], [-32600, 'codex app-server turn/steer: no active turn to steer']);

		const unreadable = c.request('thread/start', { cwd: '/ws' });
		peer.answer(await peer.request('thread/start'), { thread: { name: 'no id' } });
		assert.equal((await rejection(unreadable)).code, 'invalid_result');

		const slow = c.request('turn/interrupt', { threadId: 't1', turnId: 'u1' }, 30);
		const sent = await peer.request('turn/interrupt');
		assert.equal((await rejection(slow)).code, 'timeout');
		peer.answer(sent, {}); // nothing waits for it any more; nothing breaks
		const after = c.request('turn/interrupt', { threadId: 't1', turnId: 'u1' });
		peer.answer(await peer.next((m) => m.method === 'turn/interrupt' && m.id !== sent.id), {});
		assert.deepEqual(await after, {});
		c.dispose();
	});

	it('rejects what waits when the server\'s output ends, and every later request at once', async () => {
		const peer = new FakePeer();
		const c = client(peer);
		const waiting = c.request('initialize', { clientInfo: { name: 'tutti', title: null, version: '1' }, capabilities: { experimentalApi: false, requestAttestation: false } });
		await peer.request('initialize');
		peer.end();
		assert.equal((await rejection(waiting)).code, 'closed');
		await c.ended;
		assert.equal((await rejection(c.request('turn/interrupt', { threadId: 't', turnId: 'u' }))).code, 'closed');
	});

	it('hands each line on in order (split and joined chunks alike), reads known notifications, and reports what it cannot read', async () => {
		const peer = new FakePeer();
		const lines: string[] = [];
		const problems: string[] = [];
		const seen: unknown[] = [];
		const c = client(peer, {
			onServerLine: (l) => lines.push(l),
			onProtocolProblem: (p) => problems.push(p),
			notifications: { 'turn/started': (p) => seen.push(p) },
		});
		const good = JSON.stringify({ method: 'turn/started', params: started });
		peer.toClient.write(`${good.slice(0, 10)}`);
		peer.toClient.write(`${good.slice(10)}\n${JSON.stringify({ method: 'turn/started', params: { threadId: 't1' } })}\nnot json\n`);
		peer.send({ method: 'account/rateLimits/updated', params: {} });
		peer.send({ method: 'turn/completed', params: { threadId: 't1', turn: { id: 'u1', status: 'completed', error: null } } });
		const ping = c.request('turn/interrupt', { threadId: 't', turnId: 'u' });
		peer.answer(await peer.request('turn/interrupt'), {});
		await ping; // every line before the answer has been handled
		assert.equal(lines.length, 6);
		assert.equal(lines[0], good);
		assert.deepEqual(seen, [{ threadId: 't1', turn: { id: 'u1', status: 'inProgress', error: null } }]);
		assert.equal(problems.length, 2, problems.join('\n'));
		assert.match(problems[0]!, /^turn\/started with params Tutti cannot read/);
		assert.match(problems[1]!, /^a line that is not JSON/);
		c.dispose();
	});

	it("answers the server's requests through typed handlers: result, unknown method, unreadable params, a failing handler", async () => {
		const peer = new FakePeer();
		const asked: unknown[] = [];
		const c = client(peer, {
			handlers: {
				'item/commandExecution/requestApproval': async (params) => { asked.push(params); return { decision: params.command === 'rm' ? 'decline' : 'accept' }; },
				'item/fileChange/requestApproval': async () => { throw new Error('the store is gone'); },
				'item/tool/requestUserInput': async () => ({ answers: { q: { answers: 'not a list' } } }) as never,
			},
		});
		const approval = { threadId: 't1', turnId: 'u1', itemId: 'call_1', command: 'ls', cwd: '/ws', reason: null, availableDecisions: ['accept'] };
		peer.send({ id: 0, method: 'item/commandExecution/requestApproval', params: approval });
		peer.send({ id: 'x1', method: 'item/commandExecution/requestApproval', params: { ...approval, command: 'rm' } });
		peer.send({ id: 1, method: 'item/commandExecution/requestApproval', params: { threadId: 't1' } });
		peer.send({ id: 2, method: 'item/fileChange/requestApproval', params: { threadId: 't1', turnId: 'u1', itemId: 'p' } });
		peer.send({ id: 3, method: 'item/tool/requestUserInput', params: { threadId: 't1', turnId: 'u1', itemId: 'q', questions: [] } });
		peer.send({ id: 4, method: 'mcpServer/elicitation/request', params: {} });
		const answerTo = (id: unknown): Promise<Json> => peer.next((m) => m.id === id && !('method' in m));
		assert.deepEqual(await answerTo(0), { id: 0, result: { decision: 'accept' } });
		assert.deepEqual(await answerTo('x1'), { id: 'x1', result: { decision: 'decline' } });
		assert.equal(((await answerTo(1)).error as Json).code, rpcErrorCodes.invalidParams);
		assert.deepEqual((await answerTo(2)).error, { code: rpcErrorCodes.internal, message: 'the store is gone' });
		assert.equal(((await answerTo(3)).error as Json).code, rpcErrorCodes.internal);
		assert.deepEqual((await answerTo(4)).error, { code: rpcErrorCodes.methodNotFound, message: 'Tutti does not answer mcpServer/elicitation/request' });
		assert.deepEqual(asked, [{ threadId: 't1', turnId: 'u1', itemId: 'call_1', command: 'ls', cwd: '/ws', reason: null }, { threadId: 't1', turnId: 'u1', itemId: 'call_1', command: 'rm', cwd: '/ws', reason: null }]);
		c.dispose();
	});
});
