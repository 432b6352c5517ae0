// The scripted model server itself (no agent CLI): turn selection, side requests, errors, the request log,
// and the Anthropic SSE shape.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../agentKit.js';
import { type ScriptedServer, startScriptedServer } from './server.js';
import type { Script } from './script.js';
import { parseSse } from './sse.js';

describe('scripted model server', () => {
	let server: ScriptedServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	async function start(script: Script, logFile?: string): Promise<ScriptedServer> {
		server = await startScriptedServer({ script, ...(logFile !== undefined ? { logFile } : {}) });
		return server;
	}

	function messages(s: ScriptedServer, body: Record<string, unknown>): Promise<Response> {
		return fetch(`${s.url}/v1/messages?beta=true`, {
			method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' },
			body: JSON.stringify({ model: 'claude-test', stream: true, tools: [{ name: 'Bash' }], ...body }),
		});
	}

	const user = (text: string): Record<string, unknown> => ({ messages: [{ role: 'user', content: [{ type: 'text', text }] }] });

	it('streams text and tool_use blocks as Anthropic SSE, with stop_reason tool_use', async () => {
		const s = await start({ turns: [{ blocks: [{ type: 'text', text: 'on it' }, { type: 'tool', name: 'Bash', id: 'toolu_1', input: { command: 'ls' } }] }] });
		const res = await messages(s, user('go'));
		assert.equal(res.status, 200);
		assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
		const events = parseSse(await res.text());
		assert.deepEqual(events.map((e) => e.event), [
			'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop',
			'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
		]);
		assert.deepEqual(events[4]!.data.content_block, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} });
		assert.deepEqual(events[5]!.data.delta, { type: 'input_json_delta', partial_json: '{"command":"ls"}' });
		assert.equal((events[7]!.data.delta as { stop_reason: string }).stop_reason, 'tool_use');
	});

	it('plays the first unused matching turn, then default, and plain "ok" without a default', async () => {
		const script: Script = {
			turns: [
				{ when: { last_user_includes: 'tool_result' }, blocks: [{ type: 'text', text: 'after tool' }] },
				{ blocks: [{ type: 'text', text: 'first' }] },
			],
		};
		const s = await start(script);
		const text = async (body: Record<string, unknown>): Promise<string> =>
			parseSse(await (await messages(s, body)).text()).filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text).join('');
		assert.equal(await text(user('hello')), 'first');
		assert.equal(await text({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] }, { role: 'system', content: 'x' }] }), 'after tool');
		assert.equal(await text(user('again')), 'ok');
		assert.deepEqual(s.modelRequests().map((r) => r.served), [1, 0, 'ok']);
		assert.equal(s.turnsUsed(), 2);
		await s.close();

		const withDefault = await start({ turns: [], default: { blocks: [{ type: 'text', text: 'fallback' }] } });
		assert.equal(parseSse(await (await messages(withDefault, user('x'))).text()).filter((e) => e.event === 'content_block_delta').length, 1);
		assert.equal(withDefault.modelRequests()[0]!.served, 'default');
	});

	it('answers the session-title side request and HEAD / without using a turn', async () => {
		const s = await start({ turns: [{ blocks: [{ type: 'text', text: 'real turn' }] }] });
		const side = await messages(s, { ...user('title?'), tools: [], output_config: { format: { type: 'json_schema', schema: {} } } });
		assert.ok((await side.text()).includes('Scripted session'));
		assert.equal((await fetch(s.url, { method: 'HEAD' })).status, 200);
		assert.equal(s.turnsUsed(), 0);
		assert.deepEqual(s.log.map((r) => r.served), ['side', 'head']);
	});

	it('has_tools and any_includes match; http_error answers with the status and an Anthropic error body', async () => {
		const s = await start({
			turns: [
				{ when: { has_tools: false }, blocks: [{ type: 'text', text: 'no tools' }] },
				{ when: { any_includes: 'boom' }, blocks: [], http_error: { status: 500 } },
			],
		});
		const res = await messages(s, user('boom please'));
		assert.equal(res.status, 500);
		assert.deepEqual(await res.json(), { type: 'error', error: { type: 'api_error', message: 'scripted failure' } });
		assert.deepEqual(s.modelRequests().map((r) => r.served), [1]);
	});

	it('logs every request in full, also as JSON lines to a file', async () => {
		const dir = makeTempDir('tutti-msrv-');
		try {
			const logFile = join(dir.path, 'requests.jsonl');
			const s = await start({ turns: [] }, logFile);
			await (await messages(s, user('logged prompt'))).text();
			await (await fetch(`${s.url}/nowhere`, { method: 'POST', body: 'not json' })).text();
			assert.equal(s.log.length, 2);
			assert.equal(s.log[0]!.headers['x-api-key'], 'sk-test');
			assert.equal(s.log[0]!.path, '/v1/messages?beta=true');
			assert.deepEqual(s.log[1]!.body, 'not json');
			assert.equal(s.log[1]!.served, 'unknown');
			const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { body: unknown });
			assert.equal(lines.length, 2);
			assert.ok(JSON.stringify(lines[0]!.body).includes('logged prompt'));
		} finally {
			dir.remove();
		}
	});

	it('a hanging turn never answers, and close() still ends the server', async () => {
		const s = await start({ turns: [{ blocks: [], hang: true }] });
		const pending = messages(s, user('wait')).then(() => 'answered', () => 'closed');
		await s.waitForModelRequests(1);
		await s.close();
		assert.equal(await pending, 'closed');
		server = undefined;
	});
});
