// Reads the Turn facts of a Claude Code run from its `--output-format stream-json --verbose` stdout:
// one JSON object per line — `system/init`, one `assistant` line per content
// block (the same message id on each), `user` lines with tool results, and one final `result` line (absent
// when the process was interrupted before it). Partial or garbage lines are skipped; this never throws.
import type { Usage } from '../core/model.js';
import type { TurnFacts } from './adapter.js';
import { count, isObject, type Json, parseLine, str, turnFactLimits } from './streamJson.js';

/** Bounds so a runaway stream cannot grow the facts without limit. */
export const claudeFactLimits = turnFactLimits;

/** Anthropic usage (`input_tokens`, `output_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`). */
function usageOf(v: unknown): Usage | undefined {
	if (!isObject(v)) { return undefined; }
	return {
		inputTokens: count(v.input_tokens),
		outputTokens: count(v.output_tokens),
		cacheReadTokens: count(v.cache_read_input_tokens),
		cacheWriteTokens: count(v.cache_creation_input_tokens),
	};
}

function addUsage(a: Usage, b: Usage): Usage {
	return {
		inputTokens: a.inputTokens + b.inputTokens,
		outputTokens: a.outputTokens + b.outputTokens,
		cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
		cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
	};
}

const zeroUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

class FactsBuilder {
	sessionId = '';
	readonly toolCalls: { name: string; input: unknown }[] = [];
	readonly #toolIds = new Set<string>();
	readonly #texts: string[] = [];
	#textChars = 0;
	readonly errors: string[] = [];
	/** Usage per assistant message id (each content-block line of a message repeats the message's usage). */
	readonly #messageUsage = new Map<string, Usage>();
	resultUsage: Usage | undefined;
	model = '';
	costUsd: number | null = null;
	result: { ok: boolean; text: string } | null = null;

	noteSession(v: unknown): void {
		const id = str(v);
		if (id !== undefined && id !== '' && this.sessionId === '') { this.sessionId = id; }
	}

	addError(text: string): void {
		const t = text.trim();
		if (t === '' || this.errors.length >= claudeFactLimits.errors) { return; }
		const bounded = t.length > claudeFactLimits.errorChars ? `${t.slice(0, claudeFactLimits.errorChars)}…` : t;
		if (!this.errors.includes(bounded)) { this.errors.push(bounded); }
	}

	addText(text: string): void {
		if (text === '') { return; }
		this.#texts.push(text);
		this.#textChars += text.length;
		// Keep the latest text: the end of a Turn says what it did.
		while (this.#texts.length > 1 && this.#textChars - this.#texts[0]!.length >= claudeFactLimits.assistantTextChars) {
			this.#textChars -= this.#texts.shift()!.length;
		}
	}

	assistantText(): string {
		const text = this.#texts.join('\n');
		const max = claudeFactLimits.assistantTextChars;
		return text.length > max ? `…${text.slice(text.length - max + 1)}` : text;
	}

	usage(): Usage {
		if (this.resultUsage !== undefined) { return this.resultUsage; }
		let total = zeroUsage;
		for (const u of this.#messageUsage.values()) { total = addUsage(total, u); }
		return total;
	}

	assistant(line: Json): void {
		const message = line.message;
		if (!isObject(message)) { return; }
		const synthetic = message.model === '<synthetic>';
		const model = str(message.model);
		if (!synthetic && model !== undefined && model !== '') { this.model = model; }
		const id = str(message.id);
		const usage = usageOf(message.usage);
		if (!synthetic && id !== undefined && usage !== undefined) { this.#messageUsage.set(id, usage); }
		const content = Array.isArray(message.content) ? message.content : [];
		for (const block of content) {
			if (!isObject(block)) { continue; }
			if (block.type === 'text') {
				const text = str(block.text) ?? '';
				if (synthetic) { this.addError(text); } else { this.addText(text); }
			} else if (block.type === 'tool_use') {
				const name = str(block.name);
				if (name === undefined) { continue; }
				const toolId = str(block.id);
				if (toolId !== undefined) {
					if (this.#toolIds.has(toolId)) { continue; }
					this.#toolIds.add(toolId);
				}
				if (this.toolCalls.length < claudeFactLimits.toolCalls) { this.toolCalls.push({ name, input: block.input ?? null }); }
			}
		}
	}

	finalResult(line: Json): void {
		const isError = line.is_error === true || (str(line.subtype) ?? 'success') !== 'success';
		const errors = Array.isArray(line.errors) ? line.errors.filter((e): e is string => typeof e === 'string') : [];
		const text = str(line.result) ?? errors.join('\n');
		this.result = { ok: !isError, text };
		if (isError) {
			for (const e of errors) { this.addError(e); }
			if (errors.length === 0) { this.addError(text !== '' ? text : `claude ended with ${str(line.subtype) ?? 'an error'}`); }
		}
		const denials = Array.isArray(line.permission_denials) ? line.permission_denials : [];
		for (const d of denials) {
			if (!isObject(d)) { continue; }
			const input = isObject(d.tool_input) ? str(d.tool_input.command) : undefined;
			this.addError(`permission denied: ${str(d.tool_name) ?? 'a tool'}${input !== undefined ? ` (${input})` : ''}`);
		}
		const usage = usageOf(line.usage);
		if (usage !== undefined) { this.resultUsage = usage; }
		const cost = line.total_cost_usd;
		if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) { this.costUsd = cost; }
	}

	line(line: Json): void {
		this.noteSession(line.session_id);
		switch (line.type) {
			case 'system': {
				const model = str(line.model);
				if (line.subtype === 'init' && model !== undefined && model !== '' && this.model === '') { this.model = model; }
				break;
			}
			case 'assistant':
				this.assistant(line);
				break;
			case 'result':
				this.finalResult(line);
				break;
			case 'error':
				this.addError(str(line.message) ?? str(line.error) ?? JSON.stringify(line));
				break;
			default:
				break;
		}
	}
}

/** The Turn facts of one Claude Code process, read from its captured stdout. Never throws. */
export function parseClaudeTurnFacts(stdout: string): TurnFacts {
	const facts = new FactsBuilder();
	for (const raw of typeof stdout === 'string' ? stdout.split('\n') : []) {
		const line = parseLine(raw);
		if (line === undefined) { continue; }
		try {
			facts.line(line);
		} catch {
			// A line of an unexpected shape is skipped like garbage.
		}
	}
	return {
		providerSessionId: facts.sessionId,
		toolCalls: facts.toolCalls,
		assistantText: facts.assistantText(),
		usage: facts.usage(),
		model: facts.model,
		costUsd: facts.costUsd,
		result: facts.result,
		errors: facts.errors,
	};
}
