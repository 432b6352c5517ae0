// Anthropic `POST /v1/messages` (stream:true) for the scripted model server:
// message_start, one content block per script block (text, or tool_use with the input as one
// input_json_delta), message_delta with stop_reason `tool_use` when a tool block was sent, else `end_turn`,
// message_stop. Claude Code's session-title side request is answered without using a turn.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Turn } from './script.js';
import { type SseEvent, sendJson, sendSse } from './sse.js';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

let messageCounter = 0;

/** Claude Code's session-title request: no tools and `output_config.format` set to a JSON schema (§1). */
export function isAnthropicSideRequest(body: unknown): boolean {
	return isObject(body) && isObject(body.output_config) && body.output_config.format !== undefined;
}

/** The SSE events of a scripted turn. */
export function anthropicEvents(turn: Turn, model: string): SseEvent[] {
	const id = `msg_scripted_${++messageCounter}`;
	const usage = turn.usage ?? {};
	const events: SseEvent[] = [{
		event: 'message_start',
		data: {
			type: 'message_start',
			message: {
				id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
				usage: {
					input_tokens: usage.input_tokens ?? 10, output_tokens: 1,
					cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
					cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
				},
			},
		},
	}];
	let sawTool = false;
	turn.blocks.forEach((block, index) => {
		if (block.type === 'text') {
			events.push(
				{ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } },
				{ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } } },
			);
		} else {
			sawTool = true;
			const input = block.type === 'custom_tool' ? { input: block.input } : block.input ?? {};
			events.push(
				{ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } } },
				{ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } } },
			);
		}
		events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
	});
	events.push(
		{
			event: 'message_delta',
			data: { type: 'message_delta', delta: { stop_reason: sawTool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens ?? 5 } },
		},
		{ event: 'message_stop', data: { type: 'message_stop' } },
	);
	return events;
}

function modelOf(body: unknown): string {
	return isObject(body) && typeof body.model === 'string' ? body.model : 'claude-scripted';
}

/** Answers the session-title side request with `{"title":"Scripted session"}` as the text. */
export async function handleAnthropicSideRequest(_req: IncomingMessage, body: unknown, res: ServerResponse): Promise<void> {
	const turn: Turn = { blocks: [{ type: 'text', text: JSON.stringify({ title: 'Scripted session' }) }] };
	if (isObject(body) && body.stream === true) {
		await sendSse(res, anthropicEvents(turn, modelOf(body)));
		return;
	}
	sendJson(res, 200, {
		id: `msg_scripted_${++messageCounter}`, type: 'message', role: 'assistant', model: modelOf(body),
		content: [{ type: 'text', text: JSON.stringify({ title: 'Scripted session' }) }],
		stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
	});
}

/** Plays `turn` as an Anthropic Messages response (SSE when the request streams, else one JSON message). */
export async function handleMessages(_req: IncomingMessage, body: unknown, turn: Turn, res: ServerResponse): Promise<void> {
	const model = modelOf(body);
	if (isObject(body) && body.stream === false) {
		const content = turn.blocks.map((b) => b.type === 'text'
			? { type: 'text', text: b.text }
			: { type: 'tool_use', id: b.id, name: b.name, input: b.input ?? {} });
		sendJson(res, 200, {
			id: `msg_scripted_${++messageCounter}`, type: 'message', role: 'assistant', model, content,
			stop_reason: turn.blocks.some((b) => b.type === 'tool') ? 'tool_use' : 'end_turn', stop_sequence: null,
			usage: { input_tokens: turn.usage?.input_tokens ?? 10, output_tokens: turn.usage?.output_tokens ?? 5 },
		});
		return;
	}
	await sendSse(res, anthropicEvents(turn, model), turn.chunk_delay_ms ?? 0);
}

/** The error body of an `http_error` turn that gives none (Anthropic's error shape). */
export function anthropicErrorBody(status: number): unknown {
	return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message: 'scripted failure' } };
}
