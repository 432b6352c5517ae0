// The scripted model server's script: `{"turns":[Turn...], "default": Turn?}`.
// Turns are used once each, in order; a request gets the first unused turn whose `when` matches, else
// `default`, else a plain "ok" text. Shared by the Anthropic and OpenAI Responses handlers.

export type ScriptBlock =
	| { type: 'text'; text: string }
	/** Anthropic `tool_use`, or a Responses `function_call` whose `arguments` is JSON.stringify(input). */
	| { type: 'tool'; name: string; id: string; input: unknown }
	/** Responses API: a `custom_tool_call` whose `input` is the raw text (Codex's freeform `apply_patch`). */
	| { type: 'custom_tool'; name: string; id: string; input: string };

export interface TurnMatch {
	/** The last user message (Anthropic) / last user, function_call_output or custom_tool_call_output item (Responses) contains this text. */
	last_user_includes?: string;
	/** The request offers tools (true) or none (false). */
	has_tools?: boolean;
	path_includes?: string;
	/** The whole request body (as JSON text) contains this text. */
	any_includes?: string;
}

export interface Turn {
	blocks: ScriptBlock[];
	when?: TurnMatch;
	/** Wait before sending the response headers. */
	delay_ms?: number;
	/** Wait between SSE events (a slow stream). */
	chunk_delay_ms?: number;
	/** Never answer (the socket stays open until the client or the server closes it). */
	hang?: boolean;
	http_error?: { status: number; body?: unknown };
	/** Responses API: only output_item.done + completed. */
	minimal?: boolean;
	/** Responses API: cut the stream before response.completed. */
	omit_completed?: boolean;
	/** Anthropic: the usage reported in message_start/message_delta (default input 10, output 5). */
	usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
	/**
	 * Responses API: the usage in response.completed (default scriptedResponsesUsage). As in the API, input_tokens
	 * counts every input token and cached_tokens is the part of them read from the cache.
	 */
	responses_usage?: { input_tokens: number; cached_tokens?: number; output_tokens: number };
}

export interface Script {
	turns: Turn[];
	default?: Turn;
}

/** The turn a request gets when nothing else matches and the script has no default. */
export const plainOkTurn: Turn = { blocks: [{ type: 'text', text: 'ok' }] };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text a `last_user_includes` match looks at, for either API. */
export function lastUserText(body: unknown): string {
	if (!isObject(body)) { return ''; }
	if (Array.isArray(body.messages)) {
		const users = body.messages.filter((m) => isObject(m) && m.role === 'user');
		const last = users[users.length - 1];
		return last === undefined ? '' : JSON.stringify(last);
	}
	if (Array.isArray(body.input)) {
		const items = body.input.filter((m) => isObject(m) && (m.role === 'user' || m.type === 'function_call_output' || m.type === 'custom_tool_call_output'));
		const last = items[items.length - 1];
		return last === undefined ? '' : JSON.stringify(last);
	}
	if (typeof body.input === 'string') { return body.input; }
	return '';
}

/** Whether a turn's `when` accepts this request. */
export function turnMatches(turn: Turn, path: string, body: unknown): boolean {
	const when = turn.when;
	if (when === undefined) { return true; }
	if (when.path_includes !== undefined && !path.includes(when.path_includes)) { return false; }
	if (when.has_tools !== undefined) {
		const hasTools = isObject(body) && Array.isArray(body.tools) && body.tools.length > 0;
		if (hasTools !== when.has_tools) { return false; }
	}
	if (when.last_user_includes !== undefined && !lastUserText(body).includes(when.last_user_includes)) { return false; }
	if (when.any_includes !== undefined && !JSON.stringify(body ?? null).includes(when.any_includes)) { return false; }
	return true;
}

/** Plays a script: each call takes the turn for one request. */
export class ScriptPlayer {
	readonly #script: Script;
	readonly #used = new Set<number>();

	constructor(script: Script) {
		this.#script = script;
	}

	/** The turn for this request: `{turn, index}` where index is the script index, or 'default' / 'ok'. */
	next(path: string, body: unknown): { turn: Turn; index: number | 'default' | 'ok' } {
		const turns = this.#script.turns;
		for (let i = 0; i < turns.length; i++) {
			if (this.#used.has(i)) { continue; }
			const turn = turns[i]!;
			if (turnMatches(turn, path, body)) {
				this.#used.add(i);
				return { turn, index: i };
			}
		}
		if (this.#script.default !== undefined) { return { turn: this.#script.default, index: 'default' }; }
		return { turn: plainOkTurn, index: 'ok' };
	}

	/** How many scripted turns have been played. */
	usedCount(): number {
		return this.#used.size;
	}

	/** Whether every scripted turn has been played. */
	done(): boolean {
		return this.#used.size === this.#script.turns.length;
	}
}
