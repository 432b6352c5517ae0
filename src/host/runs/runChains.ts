// What the Run owner (runLifecycle.ts) keeps per Run it carries: the Run's serial chain, in which every step that
// touches its process runs one at a time, and its current Turn process; plus the background work it waits for.
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { currentProcessOf } from './runRecovery.js';

export class RunChains {
	/** Each carried Run's serial chain (dropped when it runs dry). */
	readonly #chains = new Map<string, Promise<unknown>>();
	/** Each carried Run's current Turn process (`<runId>`, then `<runId>.t<n>` per delivered message). */
	readonly #process = new Map<string, string>();
	/** Exit handling and settlement retries in flight. */
	readonly #background = new Set<Promise<unknown>>();

	/** Runs `fn` after every earlier step of the same Run (launch, interrupt, queued Turn, settlement retry). */
	serial<T>(runId: string, fn: () => Promise<T>): Promise<T> {
		const next = (this.#chains.get(runId) ?? Promise.resolve()).then(fn, fn);
		const tail = next.then(() => undefined, () => undefined);
		this.#chains.set(runId, tail);
		void tail.then(() => { if (this.#chains.get(runId) === tail) { this.#chains.delete(runId); } });
		return next;
	}

	/** Whether a step of the Run is queued or running. */
	busy(runId: string): boolean {
		return this.#chains.has(runId);
	}

	constructor(private readonly runs: Pick<RunProcessPort, 'runDir'>, private readonly log: (line: string) => void) {}

	/** The Run's current Turn process; read from its queue file once (after a restart), then kept. */
	processOf(runId: string): string {
		let processId = this.#process.get(runId);
		if (processId === undefined) {
			processId = currentProcessOf(this.runs, runId, this.log);
			this.#process.set(runId, processId);
		}
		return processId;
	}

	setProcess(runId: string, processId: string): void {
		this.#process.set(runId, processId);
	}

	/** The Run settled: nothing of it is carried any more. */
	drop(runId: string): void {
		this.#process.delete(runId);
	}

	/** Background work whenIdle() waits for; returns it (settled, never rejected) for a caller that waits too. */
	track(p: Promise<unknown>): Promise<void> {
		this.#background.add(p);
		const remove = (): void => { this.#background.delete(p); };
		return p.then(remove, remove);
	}

	/** Resolves once the background work (not the chains) has settled, including work it started. */
	async backgroundSettled(): Promise<void> {
		while (this.#background.size > 0) { await Promise.allSettled([...this.#background]); }
	}

	isIdle(): boolean {
		return this.#background.size === 0 && this.#chains.size === 0;
	}

	async whenIdle(): Promise<void> {
		while (this.#background.size > 0 || this.#chains.size > 0) {
			await Promise.allSettled([...this.#background, ...this.#chains.values()]);
		}
	}
}
