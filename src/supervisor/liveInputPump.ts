// The supervisor's side of messages into a running agent (src/core/runs/liveInput.ts): it hands each new `input.jsonl`
// message to the agent in file order through a channel — Claude Code's stdin (this file), or codex app-server's
// `turn/start` and `turn/steer` (codexAppServerRun.ts) — and records written / echoed / closed in `input-state.jsonl`.
// The channel reports the agent's echo of a message and the end of the Turn; input closes at that end, on a `close`
// entry, or when the agent exits, so a Turn never waits for input that will not come. Everything it records is
// fsynced before the supervisor writes exit.json.
import { closeSync, fsyncSync, openSync, readFileSync, readSync, watch, type FSWatcher, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
	claudeOutputSignal, claudeUserMessageLine, type LiveInputRecord, liveInputFileNames, parseLiveInputEntry,
} from '../core/runs/liveInput.js';

export type CloseReason = 'result' | 'requested' | 'exited';

/** How messages reach one kind of agent. */
export interface LiveInputChannel {
	/** Hands one message to the agent (written in file order; the first is the Turn's prompt). */
	send(message: { uuid: string; text: string }): void;
	/** Nothing more goes in: the Turn ended (`result`), a Stop asked (`requested`), or the agent exited. */
	end(reason: CloseReason): void;
	/** Once per check, before new entries are read: looks for the agent's echoes and the Turn's end. */
	poll?(): void;
}

/** What a channel reports back to its pump. */
export interface LiveInputSink {
	/** The agent replayed (took in) the message it was sent with this uuid. */
	echoed(uuid: string): void;
	/** The Turn ended: close the input (the pump ends the channel). */
	closed(reason: CloseReason): void;
}

export interface LiveInputPumpOptions {
	runDir: string;
	/** Builds the agent's channel; it reports to the sink it is given. */
	channel: (sink: LiveInputSink) => LiveInputChannel;
	/** A fallback poll besides the directory watch (default 200 ms). */
	pollMs?: number;
	now?: () => number;
}

export class LiveInputPump {
	readonly #runDir: string;
	readonly #channel: LiveInputChannel;
	readonly #pollMs: number;
	readonly #now: () => number;
	/** Complete lines of input.jsonl already handled. */
	#entriesDone = 0;
	/** uuid → messageId of every message handed to the agent. */
	readonly #written = new Map<string, string>();
	readonly #echoed = new Set<string>();
	#closed = false;
	#timer: NodeJS.Timeout | undefined;
	#watcher: FSWatcher | undefined;
	#scheduled = false;

	constructor(options: LiveInputPumpOptions) {
		this.#runDir = options.runDir;
		this.#pollMs = options.pollMs ?? 200;
		this.#now = options.now ?? Date.now;
		this.#channel = options.channel({ echoed: (uuid) => this.#onEcho(uuid), closed: (reason) => this.#close(reason) });
	}

	/** Hands over what is already queued (the Turn's prompt) and starts watching. */
	start(): void {
		this.check();
		this.#timer = setInterval(() => this.check(), this.#pollMs);
		try {
			this.#watcher = watch(this.#runDir, () => this.#schedule());
			this.#watcher.on('error', () => undefined);
		} catch {
			// The poll alone still delivers.
		}
	}

	/** After the agent exited: reads its last output, then records the input closed. */
	finish(): void {
		this.#stop();
		this.check();
		this.#close('exited');
	}

	/** One pass: the agent's new output first (the Turn's end closes input before anything newer goes in), then new entries. */
	check(): void {
		this.#channel.poll?.();
		this.#readEntries();
	}

	#schedule(): void {
		if (this.#scheduled) { return; }
		this.#scheduled = true;
		setImmediate(() => { this.#scheduled = false; if (this.#timer !== undefined) { this.check(); } });
	}

	#stop(): void {
		if (this.#timer !== undefined) { clearInterval(this.#timer); this.#timer = undefined; }
		this.#watcher?.close();
		this.#watcher = undefined;
	}

	#onEcho(uuid: string): void {
		const messageId = this.#written.get(uuid);
		if (messageId !== undefined && !this.#echoed.has(messageId)) {
			this.#echoed.add(messageId);
			this.#record({ type: 'echoed', messageId, atUnixMs: this.#now() });
		}
	}

	#readEntries(): void {
		let text: string;
		try { text = readFileSync(join(this.#runDir, liveInputFileNames.entries), 'utf8'); } catch { return; }
		// Only complete lines: the Host's append may be seen half written.
		const lines = text.split('\n').slice(0, -1);
		for (; this.#entriesDone < lines.length; this.#entriesDone++) {
			let entry;
			try { entry = parseLiveInputEntry(JSON.parse(lines[this.#entriesDone]!) as unknown); } catch { entry = null; }
			if (entry === null || this.#closed) { continue; }
			if (entry.type === 'close') { this.#close('requested'); continue; }
			if ([...this.#written.values()].includes(entry.messageId)) { continue; }
			// Recorded before it is handed over: an echo can then never come before its `written`.
			this.#written.set(entry.uuid, entry.messageId);
			this.#record({ type: 'written', messageId: entry.messageId, atUnixMs: this.#now() });
			this.#channel.send({ uuid: entry.uuid, text: entry.text });
		}
	}

	#close(reason: CloseReason): void {
		if (this.#closed) { return; }
		this.#closed = true;
		this.#channel.end(reason);
		this.#record({ type: 'closed', reason, atUnixMs: this.#now() });
	}

	#record(record: LiveInputRecord): void {
		const fd = openSync(join(this.#runDir, liveInputFileNames.records), 'a', 0o600);
		try {
			writeSync(fd, `${JSON.stringify(record)}\n`);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}
}

/**
 * Claude Code in stream-json input mode: each message is a user line on the stdin pipe the supervisor owns; the agent
 * writes stdout.log itself, where its replay of a message (`--replay-user-messages`) and its `result` are read back.
 */
export function claudeStdinChannel(stdin: Writable, stdoutPath: string): (sink: LiveInputSink) => LiveInputChannel {
	// A write to an agent that already exited fails with EPIPE: the exit handling records what was delivered.
	stdin.on('error', () => undefined);
	return (sink) => {
		let offset = 0;
		let rest = '';
		const onLine = (line: string): void => {
			// Only lines that can be a replay or a result are parsed (tool output lines can be large).
			if (!line.includes('"isReplay"') && !line.includes('"result"')) { return; }
			const signal = claudeOutputSignal(line);
			if (signal === null) { return; }
			if (signal.kind === 'result') { sink.closed('result'); return; }
			sink.echoed(signal.uuid);
		};
		return {
			send: ({ uuid, text }) => { stdin.write(claudeUserMessageLine(uuid, text)); },
			end: () => { stdin.end(); },
			poll: () => {
				let fd: number;
				try { fd = openSync(stdoutPath, 'r'); } catch { return; }
				try {
					const chunk = Buffer.alloc(65_536);
					for (;;) {
						const n = readSync(fd, chunk, 0, chunk.length, offset);
						if (n <= 0) { break; }
						offset += n;
						rest += chunk.subarray(0, n).toString('utf8');
						let nl: number;
						while ((nl = rest.indexOf('\n')) >= 0) {
							const line = rest.slice(0, nl);
							rest = rest.slice(nl + 1);
							onLine(line);
						}
					}
				} finally {
					closeSync(fd);
				}
			},
		};
	};
}
