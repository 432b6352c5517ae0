// The supervisor's side of messages into a running agent (src/core/runs/liveInput.ts): it owns the agent's stdin
// pipe, writes each new `input.jsonl` message to it in file order, watches the agent's stdout.log (the agent writes
// it directly) for replayed messages and the Turn's `result`, and records written / echoed / closed in
// `input-state.jsonl`. Stdin closes at the first `result`, on a `close` entry, or when the agent exits, so a Turn
// never waits for input that will not come. Everything it records is fsynced before the supervisor writes exit.json.
import { closeSync, fsyncSync, openSync, readFileSync, readSync, watch, type FSWatcher, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
	claudeOutputSignal, claudeUserMessageLine, type LiveInputRecord, liveInputFileNames, parseLiveInputEntry,
} from '../core/runs/liveInput.js';

export interface LiveInputPumpOptions {
	runDir: string;
	/** The agent's stdin pipe (the supervisor's only copy). */
	stdin: Writable;
	/** The agent's stdout file. */
	stdoutPath: string;
	/** A fallback poll besides the directory watch (default 200 ms). */
	pollMs?: number;
	now?: () => number;
}

export class LiveInputPump {
	readonly #o: Required<LiveInputPumpOptions>;
	/** Complete lines of input.jsonl already handled. */
	#entriesDone = 0;
	#stdoutOffset = 0;
	#stdoutRest = '';
	/** uuid → messageId of every message written to stdin. */
	readonly #written = new Map<string, string>();
	readonly #echoed = new Set<string>();
	#closed = false;
	#timer: NodeJS.Timeout | undefined;
	#watcher: FSWatcher | undefined;
	#scheduled = false;

	constructor(options: LiveInputPumpOptions) {
		this.#o = { pollMs: 200, now: Date.now, ...options };
		// A write to an agent that already exited fails with EPIPE: the exit handling records what was delivered.
		this.#o.stdin.on('error', () => undefined);
	}

	/** Writes what is already queued (the Turn's prompt) and starts watching. */
	start(): void {
		this.check();
		this.#timer = setInterval(() => this.check(), this.#o.pollMs);
		try {
			this.#watcher = watch(this.#o.runDir, () => this.#schedule());
			this.#watcher.on('error', () => undefined);
		} catch {
			// The poll alone still delivers.
		}
	}

	/** After the agent exited: reads its last output, then records stdin closed. */
	finish(): void {
		this.#stop();
		this.check();
		this.#close('exited');
	}

	/** One pass: the agent's new output first (a `result` closes stdin before anything newer is written), then new entries. */
	check(): void {
		this.#readStdout();
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

	#readStdout(): void {
		let fd: number;
		try { fd = openSync(this.#o.stdoutPath, 'r'); } catch { return; }
		try {
			const chunk = Buffer.alloc(65_536);
			for (;;) {
				const n = readSync(fd, chunk, 0, chunk.length, this.#stdoutOffset);
				if (n <= 0) { break; }
				this.#stdoutOffset += n;
				this.#stdoutRest += chunk.subarray(0, n).toString('utf8');
				let nl: number;
				while ((nl = this.#stdoutRest.indexOf('\n')) >= 0) {
					const line = this.#stdoutRest.slice(0, nl);
					this.#stdoutRest = this.#stdoutRest.slice(nl + 1);
					this.#onOutputLine(line);
				}
			}
		} finally {
			closeSync(fd);
		}
	}

	#onOutputLine(line: string): void {
		// Only lines that can be a replay or a result are parsed (tool output lines can be large).
		if (!line.includes('"isReplay"') && !line.includes('"result"')) { return; }
		const signal = claudeOutputSignal(line);
		if (signal === null) { return; }
		if (signal.kind === 'result') { this.#close('result'); return; }
		const messageId = this.#written.get(signal.uuid);
		if (messageId !== undefined && !this.#echoed.has(messageId)) {
			this.#echoed.add(messageId);
			this.#record({ type: 'echoed', messageId, atUnixMs: this.#o.now() });
		}
	}

	#readEntries(): void {
		let text: string;
		try { text = readFileSync(join(this.#o.runDir, liveInputFileNames.entries), 'utf8'); } catch { return; }
		// Only complete lines: the Host's append may be seen half written.
		const lines = text.split('\n').slice(0, -1);
		for (; this.#entriesDone < lines.length; this.#entriesDone++) {
			let entry;
			try { entry = parseLiveInputEntry(JSON.parse(lines[this.#entriesDone]!) as unknown); } catch { entry = null; }
			if (entry === null || this.#closed) { continue; }
			if (entry.type === 'close') { this.#close('requested'); continue; }
			if ([...this.#written.values()].includes(entry.messageId)) { continue; }
			this.#o.stdin.write(claudeUserMessageLine(entry.uuid, entry.text));
			this.#written.set(entry.uuid, entry.messageId);
			this.#record({ type: 'written', messageId: entry.messageId, atUnixMs: this.#o.now() });
		}
	}

	#close(reason: 'result' | 'requested' | 'exited'): void {
		if (this.#closed) { return; }
		this.#closed = true;
		this.#o.stdin.end();
		this.#record({ type: 'closed', reason, atUnixMs: this.#o.now() });
	}

	#record(record: LiveInputRecord): void {
		const fd = openSync(join(this.#o.runDir, liveInputFileNames.records), 'a', 0o600);
		try {
			writeSync(fd, `${JSON.stringify(record)}\n`);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}
}
