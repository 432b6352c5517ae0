// OpenAI `POST /v1/responses` (SSE) for the scripted model server. The server
// has already chosen the Turn and applied its `delay_ms`, `hang` and `http_error`; this plays the Turn's blocks:
// a `text` block becomes an assistant `message` item, a `tool` block a `function_call` item whose `arguments`
// is JSON.stringify(input) and whose `call_id` is the block's id, a `custom_tool` block a `custom_tool_call` item
// (Codex's freeform apply_patch) with its raw `input`. The full sequence is response.created, then
// per item output_item.added (+ output_text.delta for text) and output_item.done, then response.completed with
// usage. `minimal` sends only the output_item.done events and response.completed; `omit_completed` cuts the
// stream before response.completed (Codex then reports "stream disconnected before completion").
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Turn } from './script.js';
import { sendSse, type SseEvent } from './sse.js';

type Json = Record<string, unknown>;

/** The usage every scripted response reports (Codex shows it in `turn.completed.usage`). */
export const scriptedResponsesUsage = { input_tokens: 20, cached_tokens: 0, output_tokens: 10, reasoning_tokens: 0 } as const;

/** The Responses output items for a Turn's blocks; `seq` keeps ids unique across responses. */
export function responseItems(turn: Turn, seq: string): Json[] {
	return turn.blocks.map((block, index): Json => {
		const n = `${seq}_${String(index + 1)}`;
		if (block.type === 'tool') {
			return {
				type: 'function_call', id: `fc_${n}`, status: 'completed', name: block.name,
				arguments: JSON.stringify(block.input ?? {}), call_id: block.id,
			};
		}
		if (block.type === 'custom_tool') {
			return { type: 'custom_tool_call', id: `ctc_${n}`, status: 'completed', name: block.name, input: block.input, call_id: block.id };
		}
		return {
			type: 'message', role: 'assistant', id: `msg_${n}`, status: 'completed',
			content: [{ type: 'output_text', text: block.text, annotations: [] }],
		};
	});
}

function event(data: Json): SseEvent {
	return { event: String(data.type), data };
}

/** The SSE events of one scripted response, in order. */
export function responseEvents(turn: Turn, seq: string, model: string): SseEvent[] {
	const responseId = `resp_${seq}`;
	const items = responseItems(turn, seq);
	const minimal = turn.minimal === true;
	const events: SseEvent[] = [];
	if (!minimal) {
		events.push(event({ type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', model, output: [] } }));
	}
	items.forEach((item, outputIndex) => {
		if (!minimal) {
			const added = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : { ...item, status: 'in_progress' };
			events.push(event({ type: 'response.output_item.added', output_index: outputIndex, item: added }));
			if (item.type === 'message') {
				const text = (item.content as { text: string }[])[0]?.text ?? '';
				events.push(event({ type: 'response.output_text.delta', item_id: item.id, output_index: outputIndex, content_index: 0, delta: text }));
			}
		}
		events.push(event({ type: 'response.output_item.done', output_index: outputIndex, item }));
	});
	if (turn.omit_completed !== true) {
		const u = turn.responses_usage === undefined ? scriptedResponsesUsage
			: { reasoning_tokens: 0, cached_tokens: 0, ...turn.responses_usage };
		const response: Json = minimal ? { id: responseId } : {
			id: responseId, object: 'response', status: 'completed', model, output: items,
			usage: {
				input_tokens: u.input_tokens, input_tokens_details: { cached_tokens: u.cached_tokens },
				output_tokens: u.output_tokens, output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
				total_tokens: u.input_tokens + u.output_tokens,
			},
		};
		events.push(event({ type: 'response.completed', response }));
	}
	return events;
}

function modelOf(body: unknown): string {
	const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
	return typeof model === 'string' ? model : 'gpt-5.5';
}

/** Plays `turn` as a Responses API SSE answer and ends the response (quietly stops if the client went away). */
export async function handleResponses(req: IncomingMessage, body: unknown, turn: Turn, res: ServerResponse): Promise<void> {
	void req;
	await sendSse(res, responseEvents(turn, randomUUID().slice(0, 8), modelOf(body)), turn.chunk_delay_ms ?? 0);
}
