// When the agent's stdout and stderr grew relative to each other. The agent writes both files itself (so the
// supervisor's death never stops its output), and two files keep no order between them; the supervisor therefore
// samples both sizes while the agent runs and appends `[stdoutBytes, stderrBytes]` to output-order.jsonl whenever one
// grew. A reader places each stderr line after the stdout that was written before the first sample that saw it
// (src/agents/outputInterleave.ts). Advisory: not fsynced, and a torn or missing file only loses the interleaving.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runFile } from './runFiles.js';

export const outputOrderFileName = 'output-order.jsonl';

/** How often the sizes are sampled: the interleaving's resolution. */
export const outputOrderSampleMs = 200;

/** Both sizes at one sample: [stdout bytes, stderr bytes]. */
export type OutputMark = readonly [number, number];

function sizeOf(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

export class OutputOrderRecorder {
	readonly #runDir: string;
	readonly #intervalMs: number;
	#timer: NodeJS.Timeout | undefined;
	#last: OutputMark = [0, 0];

	constructor(runDir: string, intervalMs = outputOrderSampleMs) {
		this.#runDir = runDir;
		this.#intervalMs = intervalMs;
	}

	start(): void {
		this.#timer ??= setInterval(() => this.sample(), this.#intervalMs);
		// The agent's exit, not this timer, decides when the supervisor ends.
		this.#timer.unref();
	}

	/** Appends a mark when either file grew since the last one. Never throws: the order is advisory. */
	sample(): void {
		const mark: OutputMark = [sizeOf(runFile(this.#runDir, 'stdout')), sizeOf(runFile(this.#runDir, 'stderr'))];
		if (mark[0] === this.#last[0] && mark[1] === this.#last[1]) { return; }
		try {
			appendFileSync(join(this.#runDir, outputOrderFileName), `${JSON.stringify(mark)}\n`, { mode: 0o600 });
			this.#last = mark;
		} catch {
			// A full disk or a removed folder: the next sample tries again.
		}
	}

	/** The last sample (the agent has ended: nothing more will grow). */
	stop(): void {
		if (this.#timer !== undefined) { clearInterval(this.#timer); }
		this.#timer = undefined;
		this.sample();
	}
}

/** The marks of a Run directory, in order; lines that do not parse, or that go backwards, are skipped. */
export function readOutputOrder(runDir: string): OutputMark[] {
	let text: string;
	try {
		text = readFileSync(join(runDir, outputOrderFileName), 'utf8');
	} catch {
		return [];
	}
	const marks: OutputMark[] = [];
	let last: OutputMark = [0, 0];
	for (const line of text.split('\n')) {
		let value: unknown;
		try { value = JSON.parse(line); } catch { continue; }
		if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) { continue; }
		const mark: OutputMark = [value[0] as number, value[1] as number];
		if (mark[0] < last[0] || mark[1] < last[1]) { continue; }
		marks.push(mark);
		last = mark;
	}
	return marks;
}
