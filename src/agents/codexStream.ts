// Reads the Turn facts of a Codex run from its `codex exec --json` stdout (agent-cli-protocols.md §3.3): one
// JSON object per line — `thread.started` (the thread id), `turn.started`, `item.started`/`item.completed`
// (command executions, agent messages, file changes, …), and `turn.completed` (usage) or a top-level `error`
// followed by `turn.failed`. Items of `type:"error"` are warnings (model metadata, hook trust) and are not
// errors of the Turn. An interrupted run ends with no final event (result stays null). Garbage lines are
// skipped; this never throws.
// Usage: `turn.completed.usage` is the THREAD's running total (observed with 0.171: a resumed thread's Turn
// reports the earlier Turns' tokens too), so a caller that wants one Turn's usage subtracts the previous total.
import type { Usage } from '../core/model.js';
import type { TurnFacts } from './adapter.js';
import { count, isObject, type Json, parseLine, str, turnFactLimits } from './streamJson.js';

/** Bounds so a runaway stream cannot grow the facts without limit. */
export const codexFactLimits = turnFactLimits;

/** Codex usage (`input_tokens`, `cached_input_tokens`, `cache_write_input_tokens`, `output_tokens`). */
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

/** The tool call an item stands for, or undefined for items that are not tool calls. */
function toolCallOf(item: Json): { name: string; input: unknown } | undefined {
	switch (item.type) {
		case 'command_execution':
			return { name: 'exec_command', input: { command: str(item.command) ?? '' } };
		case 'file_change':
			return { name: 'apply_patch', input: { changes: item.changes ?? [] } };
		case 'mcp_tool_call':
			return { name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, input: item.arguments ?? {} };
		case 'web_search':
			return { name: 'web_search', input: { query: str(item.query) ?? '' } };
		default:
			return undefined;
	}
}

class FactsBuilder {
	threadId = '';
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

	line(v: Json): void {
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
				if (u !== undefined) {
					this.usage = {
						inputTokens: this.usage.inputTokens + u.inputTokens,
						outputTokens: this.usage.outputTokens + u.outputTokens,
						cacheReadTokens: this.usage.cacheReadTokens + u.cacheReadTokens,
						cacheWriteTokens: this.usage.cacheWriteTokens + u.cacheWriteTokens,
					};
				}
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
			// Codex names neither its model nor a cost in the stream: the Host prices the Turn by its launch model.
			model: '',
			costUsd: null,
			result: this.result,
			errors: this.errors,
		};
	}
}

/** The Turn facts of a `codex exec --json` stdout. Never throws. */
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
