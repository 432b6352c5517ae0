// The scripted server's OpenAI Responses half, over real HTTP: the event sequence
// Codex needs, tool blocks as function_call items, `minimal` and `omit_completed`.
import assert from 'node:assert/strict';
import type { Script } from './modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';
import { type ParsedSseEvent, parseSse } from './modelServer/sse.js';

describe('scripted server: OpenAI Responses SSE', () => {
	let server: ScriptedServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	async function play(script: Script): Promise<{ status: number; type: string | null; events: ParsedSseEvent[] }> {
		server = await startScriptedServer({ script });
		const res = await fetch(`${server.url}/v1/responses`, {
			method: 'POST', headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'gpt-5.5', stream: true, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] }),
		});
		return { status: res.status, type: res.headers.get('content-type'), events: parseSse(await res.text()) };
	}

	it('streams the full sequence: created, added/delta/done per item, completed with usage', async () => {
		const { status, type, events } = await play({ turns: [{ blocks: [{ type: 'text', text: 'hello' }, { type: 'tool', name: 'exec_command', id: 'call_1', input: { cmd: 'echo hi' } }] }] });
		assert.equal(status, 200);
		assert.equal(type, 'text/event-stream');
		assert.deepEqual(events.map((e) => e.event), [
			'response.created',
			'response.output_item.added', 'response.output_text.delta', 'response.output_item.done',
			'response.output_item.added', 'response.output_item.done',
			'response.completed',
		]);
		assert.ok(events.every((e) => e.data.type === e.event), 'each data names its event');
		const [text, call] = events.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item as Record<string, unknown>);
		assert.deepEqual((text!.content as unknown[])[0], { type: 'output_text', text: 'hello', annotations: [] });
		assert.equal(text!.role, 'assistant');
		assert.equal(call!.type, 'function_call');
		assert.equal(call!.name, 'exec_command');
		assert.equal(call!.call_id, 'call_1');
		assert.equal(call!.arguments, '{"cmd":"echo hi"}');
		const completed = events.at(-1)!.data.response as { usage: Record<string, unknown> };
		assert.equal(completed.usage.input_tokens, 20);
		assert.equal(completed.usage.output_tokens, 10);
	});

	it('minimal: only output_item.done and completed; omit_completed: no completed; no turn: plain "ok"', async () => {
		const minimal = await play({ turns: [{ blocks: [{ type: 'text', text: 'x' }], minimal: true }] });
		assert.deepEqual(minimal.events.map((e) => e.event), ['response.output_item.done', 'response.completed']);
		await server?.close();
		const cut = await play({ turns: [{ blocks: [{ type: 'text', text: 'x' }], omit_completed: true }] });
		assert.ok(!cut.events.some((e) => e.event === 'response.completed'));
		await server?.close();
		const ok = await play({ turns: [] });
		const done = ok.events.find((e) => e.event === 'response.output_item.done')!.data.item as { content: { text: string }[] };
		assert.equal(done.content[0]!.text, 'ok');
	});
});
