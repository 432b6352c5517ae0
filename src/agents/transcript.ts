// A readable transcript of a Run, read from its captured stdout: assistant text, tool calls (the command or the
// file), files edited, errors, messages from the developer and the final result; its stderr lines are entries of
// their own (`stderr`), placed among them by src/agents/outputInterleave.ts. One parser for every adapter:
// each line says what it is — Claude Code stream-json (`assistant`, `user`, `result`), Codex `exec --json`
// (`item.completed`, `turn.completed`, …), codex app-server JSON-RPC (`item/completed`, `turn/completed`, …) or plain
// text (command targets). Pure; garbage never throws.
import { isObject, type Json, parseLine, str } from './streamJson.js';

export type TranscriptEntryKind = 'assistant' | 'tool' | 'edit' | 'error' | 'user' | 'result' | 'output' | 'stderr';

export interface TranscriptEntry {
	readonly kind: TranscriptEntryKind;
	/** What happened, in one readable piece: the assistant's words, `$ npm test`, `src/a.ts`, the error text; `user`: a message the agent was sent (its prompt first, then your messages). */
	readonly text: string;
	/** The tool's name for `tool` and `edit` entries ('' otherwise). */
	readonly tool: string;
}

/** Bounds: one entry's text, and how much of a plain-text line is kept. */
export const transcriptLimits = { entryChars: 2_000 } as const;

function bounded(text: string): string {
	const t = text.trim();
	return t.length > transcriptLimits.entryChars ? `${t.slice(0, transcriptLimits.entryChars - 1)}…` : t;
}

function entry(kind: TranscriptEntryKind, text: string, tool = ''): TranscriptEntry | undefined {
	const t = bounded(text);
	return t === '' ? undefined : { kind, text: t, tool };
}

/** Claude Code's file tools: their entries name the file. */
const claudeEditTools = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

function firstString(input: Json, keys: readonly string[]): string | undefined {
	for (const k of keys) {
		const v = str(input[k]);
		if (v !== undefined && v !== '') { return v; }
	}
	return undefined;
}

/** One Claude Code tool call in words: the command for Bash, the file for file tools, the pattern for searches. */
function claudeToolEntry(name: string, rawInput: unknown): TranscriptEntry | undefined {
	const input = isObject(rawInput) ? rawInput : {};
	if (claudeEditTools.has(name)) {
		return entry('edit', firstString(input, ['file_path', 'notebook_path', 'path']) ?? name, name);
	}
	if (name === 'Bash') { return entry('tool', `$ ${str(input.command) ?? ''}`, name); }
	const what = firstString(input, ['file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt']);
	if (what !== undefined) { return entry('tool', `${name} ${what}`, name); }
	const json = JSON.stringify(input);
	return entry('tool', json === '{}' ? name : `${name} ${json}`, name);
}

/** The text of a `tool_result` content (a string, or text blocks). */
function toolResultText(content: unknown): string {
	if (typeof content === 'string') { return content; }
	if (!Array.isArray(content)) { return ''; }
	return content.filter(isObject).map((b) => str(b.text) ?? '').filter((t) => t !== '').join('\n');
}

function claudeEntries(line: Json): TranscriptEntry[] {
	const out: (TranscriptEntry | undefined)[] = [];
	const message = isObject(line.message) ? line.message : undefined;
	const content = message && Array.isArray(message.content) ? message.content : typeof message?.content === 'string' ? [{ type: 'text', text: message.content }] : [];
	switch (line.type) {
		case 'assistant': {
			const synthetic = message?.model === '<synthetic>';
			for (const block of content) {
				if (!isObject(block)) { continue; }
				if (block.type === 'text') { out.push(entry(synthetic ? 'error' : 'assistant', str(block.text) ?? '')); }
				if (block.type === 'tool_use') { out.push(claudeToolEntry(str(block.name) ?? 'tool', block.input)); }
			}
			break;
		}
		case 'user':
			for (const block of content) {
				if (!isObject(block)) { continue; }
				if (block.type === 'tool_result' && block.is_error === true) { out.push(entry('error', toolResultText(block.content))); }
				if (block.type === 'text') { out.push(entry('user', str(block.text) ?? '')); }
			}
			break;
		case 'result': {
			const failed = line.is_error === true || (str(line.subtype) ?? 'success') !== 'success';
			const errors = Array.isArray(line.errors) ? line.errors.filter((e): e is string => typeof e === 'string') : [];
			const text = str(line.result) ?? errors.join('\n');
			out.push(failed ? entry('error', text !== '' ? text : `Ended with ${str(line.subtype) ?? 'an error'}`) : entry('result', text !== '' ? text : 'Done.'));
			break;
		}
		case 'error':
			out.push(entry('error', str(line.message) ?? str(line.error) ?? ''));
			break;
		default:
			break;
	}
	return out.filter((e): e is TranscriptEntry => e !== undefined);
}

/** The text of app-server's user input items (`{type:"text", text}`). */
function inputText(content: unknown): string {
	return Array.isArray(content) ? content.filter(isObject).map((c) => str(c.text) ?? '').filter((t) => t !== '').join('\n') : '';
}

function codexItemEntries(item: Json): TranscriptEntry[] {
	switch (item.type) {
		case 'userMessage': {
			const e = entry('user', inputText(item.content));
			return e ? [e] : [];
		}
		case 'agentMessage':
		case 'agent_message': {
			const e = entry('assistant', str(item.text) ?? '');
			return e ? [e] : [];
		}
		case 'command_execution':
		case 'commandExecution': {
			const out = [entry('tool', `$ ${str(item.command) ?? ''}`, 'exec_command')];
			const exitCode = item.exit_code ?? item.exitCode;
			const code = typeof exitCode === 'number' ? exitCode : null;
			const output = str(item.aggregated_output) ?? str(item.aggregatedOutput);
			if (code !== null && code !== 0) { out.push(entry('error', `exit ${code}${output ? `: ${output}` : ''}`)); }
			if (item.status === 'declined') { out.push(entry('error', 'declined: the command did not run')); }
			return out.filter((e): e is TranscriptEntry => e !== undefined);
		}
		case 'file_change':
		case 'fileChange': {
			const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
			return changes.map((c) => entry('edit', str(c.path) ?? '', 'apply_patch')).filter((e): e is TranscriptEntry => e !== undefined);
		}
		case 'mcp_tool_call':
		case 'mcpToolCall': {
			const e = entry('tool', `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, 'mcp');
			return e ? [e] : [];
		}
		case 'web_search':
		case 'webSearch': {
			const e = entry('tool', `web search ${str(item.query) ?? ''}`, 'web_search');
			return e ? [e] : [];
		}
		default:
			return [];
	}
}

function codexEntries(line: Json): TranscriptEntry[] {
	switch (line.type) {
		case 'item.completed':
			return isObject(line.item) ? codexItemEntries(line.item) : [];
		case 'turn.completed':
			return [{ kind: 'result', text: 'Turn completed.', tool: '' }];
		case 'turn.failed': {
			const e = entry('error', isObject(line.error) ? str(line.error.message) ?? 'The turn failed.' : 'The turn failed.');
			return e ? [e] : [];
		}
		case 'error': {
			const e = entry('error', str(line.message) ?? '');
			return e ? [e] : [];
		}
		default:
			return [];
	}
}

/** The entries of one codex app-server line: completed items, a turn's end, errors, and the supervisor's failure line. */
function appServerEntries(line: Json): TranscriptEntry[] {
	const params = isObject(line.params) ? line.params : {};
	switch (line.method) {
		case 'item/completed':
			return isObject(params.item) ? codexItemEntries(params.item) : [];
		case 'turn/completed': {
			const turn = isObject(params.turn) ? params.turn : {};
			if (turn.status === 'completed') { return [{ kind: 'result', text: 'Turn completed.', tool: '' }]; }
			if (turn.status === 'interrupted') { return [{ kind: 'result', text: 'Turn interrupted.', tool: '' }]; }
			const e = entry('error', (isObject(turn.error) ? str(turn.error.message) : undefined) ?? 'The turn failed.');
			return e ? [e] : [];
		}
		case 'error': {
			const e = params.willRetry === true ? undefined : entry('error', isObject(params.error) ? str(params.error.message) ?? '' : '');
			return e ? [e] : [];
		}
		default: {
			const e = line.tutti === 'session_failed' ? entry('error', str(line.message) ?? '') : undefined;
			return e ? [e] : [];
		}
	}
}

const claudeTypes = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'rate_limit_event']);

/** The entries of one line of a Run's stdout. */
export function transcriptEntriesOfLine(raw: string): TranscriptEntry[] {
	const line = parseLine(raw);
	if (line === undefined) {
		const e = entry('output', raw);
		return e ? [e] : [];
	}
	try {
		const type = str(line.type) ?? '';
		if (claudeTypes.has(type) || (type === 'error' && 'session_id' in line)) { return claudeEntries(line); }
		if (type === '' && (typeof line.method === 'string' || typeof line.tutti === 'string')) { return appServerEntries(line); }
		return codexEntries(line);
	} catch {
		return [];
	}
}

/** A line the agent wrote to stderr, as it is (none for a blank line). */
export function stderrEntry(raw: string): TranscriptEntry | undefined {
	return entry('stderr', raw);
}

/** The entries of whole lines of stdout, in order. */
export function transcriptEntries(text: string): TranscriptEntry[] {
	const out: TranscriptEntry[] = [];
	for (const raw of text.split('\n')) { out.push(...transcriptEntriesOfLine(raw)); }
	return out;
}
