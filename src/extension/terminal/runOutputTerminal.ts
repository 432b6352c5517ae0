// "Open Run Output": a read-only terminal view of a Run's live output. A Pseudoterminal polls `run/log` for
// stdout and stderr from the offsets it has shown, until the Run has ended and both streams are drained.
import * as vscode from 'vscode';
import type { HostClient } from '../client/hostClient.js';
import { describeError } from '../client/hostClient.js';

const pollMs = 300;
const red = '\x1b[31m';
const dim = '\x1b[2m';
const reset = '\x1b[0m';

/** Terminal text: CRLF line ends (a pseudoterminal does no translation). */
export function toTerminalText(text: string): string {
	return text.replace(/\r?\n/g, '\r\n');
}

export class RunOutputPty implements vscode.Pseudoterminal {
	readonly #write = new vscode.EventEmitter<string>();
	readonly onDidWrite = this.#write.event;
	readonly #offsets = { stdout: 0, stderr: 0 };
	#timer: NodeJS.Timeout | undefined;
	#closed = false;

	constructor(
		private readonly client: () => HostClient,
		private readonly runId: string,
	) {}

	open(): void {
		this.#write.fire(`${dim}Tutti · output of Run ${this.runId} (read-only)${reset}\r\n`);
		void this.#poll();
	}

	close(): void {
		this.#closed = true;
		clearTimeout(this.#timer);
		this.#write.dispose();
	}

	/** Read-only: typing does nothing. */
	handleInput(): void {
		// Intentionally empty.
	}

	async #poll(): Promise<void> {
		if (this.#closed) {
			return;
		}
		try {
			const client = this.client();
			const [out, err] = await Promise.all([
				client.call('run/log', { runId: this.runId, stream: 'stdout', offset: this.#offsets.stdout }),
				client.call('run/log', { runId: this.runId, stream: 'stderr', offset: this.#offsets.stderr }),
			]);
			if (this.#closed) {
				return;
			}
			this.#offsets.stdout = out.nextOffset;
			this.#offsets.stderr = err.nextOffset;
			if (out.data) {
				this.#write.fire(toTerminalText(out.data));
			}
			if (err.data) {
				this.#write.fire(`${red}${toTerminalText(err.data)}${reset}`);
			}
			if (out.done && err.done) {
				const run = await client.call('run/get', { runId: this.runId });
				this.#write.fire(`\r\n${dim}— ${run.outcomeLabel ?? `Run ${run.status}`}${reset}\r\n`);
				return;
			}
		} catch (error) {
			this.#write.fire(`\r\n${red}${toTerminalText(describeError(error))}${reset}\r\n`);
			return;
		}
		this.#timer = setTimeout(() => void this.#poll(), pollMs);
	}
}
