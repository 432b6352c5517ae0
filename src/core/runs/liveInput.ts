// Messages into a running agent process (a claude Turn launched with `--input-format stream-json`): the two files
// of a Turn process's directory that carry them, and the stream-json lines that go in and come back. Pure.
//
//   input.jsonl        LiveInputEntry lines, appended by the Host (the Turn's first prompt is entry one)
//   input-state.jsonl  LiveInputRecord lines, appended by the Run's supervisor, the one owner of the agent's stdin
//
// The supervisor writes each message to the agent's stdin in file order and records it `written`; it records it
// `echoed` when the agent replays it (`--replay-user-messages`, matched by the uuid the message was written with).
// A message counts as delivered only once echoed. After the agent's `result` line (the Turn ended), when asked to
// close, or when the agent exits, the supervisor closes stdin and records `closed`: entries after that are never
// written, so the Host delivers them as the next `--resume` Turn instead. Claude Code handles every line written
// before stdin closed before it exits, so a `written` message is echoed unless the agent process dies first.

/** Host → supervisor. */
export type LiveInputEntry =
	| { type: 'message'; messageId: string; uuid: string; text: string; atUnixMs: number }
	/** Close the agent's stdin now (a Stop interrupts the Turn; nothing more goes in). */
	| { type: 'close'; atUnixMs: number };

/** Supervisor → Host. */
export type LiveInputRecord =
	| { type: 'written'; messageId: string; atUnixMs: number }
	| { type: 'echoed'; messageId: string; atUnixMs: number }
	| { type: 'closed'; reason: 'result' | 'requested' | 'exited'; atUnixMs: number };

export const liveInputFileNames = { entries: 'input.jsonl', records: 'input-state.jsonl' } as const;

/** The messageId of a Turn's first prompt (entry one of input.jsonl). */
export const promptMessageId = 'prompt';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonLines(text: string): unknown[] {
	const out: unknown[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') { continue; }
		try { out.push(JSON.parse(line) as unknown); } catch { /* a torn line from an interrupted append */ }
	}
	return out;
}

export function parseLiveInputEntry(v: unknown): LiveInputEntry | null {
	if (!isObject(v) || typeof v.atUnixMs !== 'number') { return null; }
	if (v.type === 'close') { return { type: 'close', atUnixMs: v.atUnixMs }; }
	if (v.type === 'message' && typeof v.messageId === 'string' && typeof v.uuid === 'string' && typeof v.text === 'string') {
		return { type: 'message', messageId: v.messageId, uuid: v.uuid, text: v.text, atUnixMs: v.atUnixMs };
	}
	return null;
}

export function parseLiveInputRecord(v: unknown): LiveInputRecord | null {
	if (!isObject(v) || typeof v.atUnixMs !== 'number') { return null; }
	if ((v.type === 'written' || v.type === 'echoed') && typeof v.messageId === 'string') {
		return { type: v.type, messageId: v.messageId, atUnixMs: v.atUnixMs };
	}
	if (v.type === 'closed' && (v.reason === 'result' || v.reason === 'requested' || v.reason === 'exited')) {
		return { type: 'closed', reason: v.reason, atUnixMs: v.atUnixMs };
	}
	return null;
}

export function parseLiveInputEntries(text: string): LiveInputEntry[] {
	return jsonLines(text).map(parseLiveInputEntry).filter((e): e is LiveInputEntry => e !== null);
}

export function parseLiveInputRecords(text: string): LiveInputRecord[] {
	return jsonLines(text).map(parseLiveInputRecord).filter((r): r is LiveInputRecord => r !== null);
}

/** What the records say about one Turn process's input. */
export interface LiveInputState {
	/** stdin is closed: nothing more reaches this process. */
	closed: boolean;
	written: Set<string>;
	echoed: Set<string>;
}

export function liveInputState(records: readonly LiveInputRecord[]): LiveInputState {
	const state: LiveInputState = { closed: false, written: new Set(), echoed: new Set() };
	for (const r of records) {
		if (r.type === 'closed') { state.closed = true; } else if (r.type === 'written') { state.written.add(r.messageId); } else { state.echoed.add(r.messageId); }
	}
	return state;
}

/** One Claude Code stream-json input line (`--input-format stream-json`) carrying a user message. */
export function claudeUserMessageLine(uuid: string, text: string): string {
	return `${JSON.stringify({ type: 'user', uuid, message: { role: 'user', content: [{ type: 'text', text }] } })}\n`;
}

/** What a line of Claude Code's stream-json output means for the input: a replayed user message, the Turn's result, or nothing. */
export type ClaudeOutputSignal = { kind: 'echo'; uuid: string } | { kind: 'result' } | null;

export function claudeOutputSignal(line: string): ClaudeOutputSignal {
	const trimmed = line.trim();
	if (!trimmed.startsWith('{')) { return null; }
	let v: unknown;
	try { v = JSON.parse(trimmed); } catch { return null; }
	if (!isObject(v)) { return null; }
	if (v.type === 'result') { return { kind: 'result' }; }
	if (v.type === 'user' && v.isReplay === true && typeof v.uuid === 'string') { return { kind: 'echo', uuid: v.uuid }; }
	return null;
}
