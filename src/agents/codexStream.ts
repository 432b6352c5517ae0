// Reads the Turn facts of a Codex run from its stdout, in either of the two shapes a codex Turn leaves there:
//
// `codex exec --json`: one JSON object per line — `thread.started` (the thread id),
// `turn.started`, `item.started`/`item.completed` (command executions, agent messages, file changes, …), and
// `turn.completed` (usage) or a top-level `error` followed by `turn.failed`. Items of `type:"error"` are warnings
// (model metadata, hook trust) and are not errors of the Turn. An interrupted run ends with no final event.
// Usage: `turn.completed.usage` is the THREAD's running total (observed with 0.171: a resumed thread's Turn reports the
// earlier Turns' tokens too), so a caller that wants one Turn's usage subtracts the previous total.
//
// `codex app-server` (docs/codex-app-server.md): the JSON-RPC lines the server wrote, kept by the Run's supervisor —
// the answer to `thread/start`/`thread/resume` (thread id, model), `turn/started`, `item/started`/`item/completed`
// (camelCase items), `thread/tokenUsage/updated` (each model response's usage as `last`; the one sent on resume for
// an earlier turn is not this process's), `error`, and `turn/completed` with status `completed`, `failed` or
// `interrupted` (no result, as an interrupted exec). The supervisor adds one line of its own when the session could
// not run (`{"tutti":"session_failed",…}`).
//
// Garbage lines are skipped; this never throws.
import type { Usage } from '../core/model.js';
import type { TurnFacts } from './adapter.js';
import { count, isObject, type Json, parseLine, str, turnFactLimits } from './streamJson.js';

/** Bounds so a runaway stream cannot grow the facts without limit. */
export const codexFactLimits = turnFactLimits;

/**
 * Codex's `turn.completed.usage` is the Responses API's: `input_tokens` counts every input token and
 * `cached_input_tokens` the part of them read from the cache (checked against the real CLI in
 * test/agents/e2e/usageCost.test.ts). Tutti keeps them apart, like Claude's usage, so that cache reads are neither
 * counted twice in the token total nor priced as both input and cache reads.
 */
function usageOf(v: unknown): Usage | undefined {
	if (!isObject(v)) { return undefined; }
	return {
		inputTokens: Math.max(0, count(v.input_tokens) - count(v.cached_input_tokens)),
		outputTokens: count(v.output_tokens),
		cacheReadTokens: count(v.cached_input_tokens),
		cacheWriteTokens: count(v.cache_write_input_tokens),
	};
}

/** The same usage from app-server's `TokenUsageBreakdown` (camelCase; `inputTokens` includes the cached ones). */
function appServerUsageOf(v: unknown): Usage | undefined {
	if (!isObject(v)) { return undefined; }
	return usageOf({ input_tokens: v.inputTokens, cached_input_tokens: v.cachedInputTokens, cache_write_input_tokens: v.cacheWriteInputTokens, output_tokens: v.outputTokens });
}

/** The tool call an item stands for (exec's snake_case item types, app-server's camelCase ones), or undefined. */
function toolCallOf(item: Json): { name: string; input: unknown } | undefined {
	switch (item.type) {
		case 'command_execution':
		case 'commandExecution':
			return { name: 'exec_command', input: { command: str(item.command) ?? '' } };
		case 'file_change':
		case 'fileChange':
			return { name: 'apply_patch', input: { changes: item.changes ?? [] } };
		case 'mcp_tool_call':
		case 'mcpToolCall':
			return { name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, input: item.arguments ?? {} };
		case 'web_search':
		case 'webSearch':
			return { name: 'web_search', input: { query: str(item.query) ?? '' } };
		default:
			return undefined;
	}
}

/** The line the supervisor adds to a codex app-server Turn's stdout when its session could not run. */
export function codexSessionFailureLine(message: string): string {
	return JSON.stringify({ tutti: 'session_failed', message: message || 'the codex app-server session ended early' });
}

class FactsBuilder {
	threadId = '';
	model = '';
	/** app-server: the turns this process started (usage of any other turn is not this Turn's). */
	readonly #turns = new Set<string>();
	readonly toolCalls: { name: string; input: unknown }[] = [];
	readonly #toolItemIds = new Set<string>();
	readonly #texts: string[] = [];
	#textChars = 0;
	#lastText = '';
	readonly errors: string[] = [];
	usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
	result: { ok: boolean; text: string } | null = null;

	addError(text: string): void {
		const t = text.trim();
		if (t === '' || this.errors.length >= codexFactLimits.errors) { return; }
		const bounded = t.length > codexFactLimits.errorChars ? `${t.slice(0, codexFactLimits.errorChars)}…` : t;
		if (!this.errors.includes(bounded)) { this.errors.push(bounded); }
	}

	addText(text: string): void {
		if (text === '') { return; }
		this.#lastText = text;
		const room = codexFactLimits.assistantTextChars - this.#textChars;
		if (room <= 0) { return; }
		const piece = text.length > room ? text.slice(0, room) : text;
		this.#texts.push(piece);
		this.#textChars += piece.length;
	}

	/** A tool call is counted once per item id, from `item.started` (a long command never completes) or `item.completed`. */
	addItem(item: Json): void {
		const call = toolCallOf(item);
		if (call !== undefined) {
			const id = str(item.id);
			if (id !== undefined && this.#toolItemIds.has(id)) { return; }
			if (id !== undefined) { this.#toolItemIds.add(id); }
			if (this.toolCalls.length < codexFactLimits.toolCalls) { this.toolCalls.push(call); }
		}
	}

	/** One JSON-RPC line of codex app-server (a notification, or the answer to Tutti's request). */
	appServerLine(v: Json): void {
		const params = isObject(v.params) ? v.params : {};
		if (v.method === undefined) {
			const result = isObject(v.result) ? v.result : undefined;
			const thread = result !== undefined && isObject(result.thread) ? str(result.thread.id) : undefined;
			if (thread !== undefined && thread !== '' && this.threadId === '') { this.threadId = thread; }
			if (result !== undefined && thread !== undefined && this.model === '') { this.model = str(result.model) ?? ''; }
			return;
		}
		switch (v.method) {
			case 'thread/started': {
				const id = isObject(params.thread) ? str(params.thread.id) : undefined;
				if (id !== undefined && id !== '' && this.threadId === '') { this.threadId = id; }
				break;
			}
			case 'turn/started':
				if (isObject(params.turn) && typeof params.turn.id === 'string') { this.#turns.add(params.turn.id); }
				break;
			case 'item/started':
			case 'item/completed':
				if (isObject(params.item)) {
					this.addItem(params.item);
					if (v.method === 'item/completed' && params.item.type === 'agentMessage') { this.addText(str(params.item.text) ?? ''); }
				}
				break;
			case 'thread/tokenUsage/updated': {
				const u = isObject(params.tokenUsage) && typeof params.turnId === 'string' && this.#turns.has(params.turnId)
					? appServerUsageOf(params.tokenUsage.last) : undefined;
				if (u !== undefined) { this.#addUsage(u); }
				break;
			}
			case 'error':
				if (params.willRetry !== true && isObject(params.error)) { this.addError(str(params.error.message) ?? ''); }
				break;
			case 'turn/completed': {
				const turn = isObject(params.turn) ? params.turn : {};
				const error = isObject(turn.error) ? str(turn.error.message) ?? '' : '';
				if (turn.status === 'completed') {
					this.result = { ok: true, text: this.#lastText };
				} else if (turn.status === 'failed') {
					this.addError(error);
					this.result = { ok: false, text: error !== '' ? error : (this.errors.at(-1) ?? 'The Codex turn failed.') };
				} else {
					this.result = null; // interrupted: no result, as when exec is interrupted
				}
				break;
			}
			default:
				break;
		}
	}

	#addUsage(u: Usage): void {
		this.usage = {
			inputTokens: this.usage.inputTokens + u.inputTokens,
			outputTokens: this.usage.outputTokens + u.outputTokens,
			cacheReadTokens: this.usage.cacheReadTokens + u.cacheReadTokens,
			cacheWriteTokens: this.usage.cacheWriteTokens + u.cacheWriteTokens,
		};
	}

	line(v: Json): void {
		if (v.tutti === 'session_failed') {
			const message = str(v.message) ?? 'the codex app-server session ended early';
			this.addError(message);
			this.result = { ok: false, text: message };
			return;
		}
		if (typeof v.method === 'string' || (v.type === undefined && ('id' in v))) { this.appServerLine(v); return; }
		switch (v.type) {
			case 'thread.started': {
				const id = str(v.thread_id);
				if (id !== undefined && id !== '' && this.threadId === '') { this.threadId = id; }
				break;
			}
			case 'item.started':
				if (isObject(v.item)) { this.addItem(v.item); }
				break;
			case 'item.completed':
				if (isObject(v.item)) {
					this.addItem(v.item);
					if (v.item.type === 'agent_message') { this.addText(str(v.item.text) ?? ''); }
				}
				break;
			case 'turn.completed': {
				const u = usageOf(v.usage);
				if (u !== undefined) { this.#addUsage(u); }
				this.result = { ok: true, text: this.#lastText };
				break;
			}
			case 'turn.failed': {
				const message = isObject(v.error) ? str(v.error.message) ?? '' : '';
				this.addError(message);
				this.result = { ok: false, text: message !== '' ? message : (this.errors.at(-1) ?? 'The Codex turn failed.') };
				break;
			}
			case 'error':
				this.addError(str(v.message) ?? '');
				break;
			default:
				break;
		}
	}

	facts(): TurnFacts {
		return {
			providerSessionId: this.threadId,
			toolCalls: this.toolCalls,
			assistantText: this.#texts.join('\n\n'),
			usage: this.usage,
			// exec names no model (the Host prices the Turn by its launch model); app-server's thread answer does. No cost.
			model: this.model,
			costUsd: null,
			result: this.result,
			errors: this.errors,
		};
	}
}

/** The Turn facts of a codex Turn's stdout (`codex exec --json` or codex app-server's JSON-RPC lines). Never throws. */
export function parseCodexTurnFacts(stdout: string): TurnFacts {
	const builder = new FactsBuilder();
	for (const line of stdout.split('\n')) {
		const v = parseLine(line);
		if (v === undefined) { continue; }
		try {
			builder.line(v);
		} catch {
			// A malformed line never breaks the facts of the others.
		}
	}
	return builder.facts();
}
