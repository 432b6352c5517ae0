// The one inbox for the exits of every agent Turn's process, keyed by its runner id. An exit reaches the Host by two
// routes — the runner's watch (onExit) and the supervisor's `run/report` — and each is delivered once, to the owner
// that registered for that process (a worker Run, a wake): delivery removes the registration, so whichever route
// comes second finds nothing to deliver. A route never decides who owns a process by the shape of its id.
import type { Disposable } from '../../core/lifecycle.js';
import type { RunExit, RunProcessPort } from '../../core/runs/runProcessPort.js';

/** Handles one exit; the promise (if any) is what a route that reported it may wait for. */
export type ExitHandler = (exit: RunExit) => Promise<void> | void;

export class ExitInbox implements Disposable {
	readonly #port: Pick<RunProcessPort, 'onExit' | 'exitRecord' | 'checkNow'>;
	readonly #expected = new Map<string, ExitHandler>();
	readonly #subscription: Disposable;

	constructor(port: Pick<RunProcessPort, 'onExit' | 'exitRecord' | 'checkNow'>) {
		this.#port = port;
		this.#subscription = port.onExit((exit) => { this.#deliver(exit); });
	}

	/** The owner of `processId` wants its exit, once (a later registration for the same process replaces it). */
	expect(processId: string, handler: ExitHandler): void {
		this.#expected.set(processId, handler);
	}

	/** The owner no longer waits for this process (its Turn never started). */
	forget(processId: string): void {
		this.#expected.delete(processId);
	}

	/**
	 * A route says the process may have exited (its supervisor's report, a restart): the runner looks now (a launch
	 * waiting for the process's start stops waiting), and an exit record already on disk is delivered if still expected.
	 * Resolves once the exit this look delivered, if any, is handled.
	 */
	async lookNow(processId: string): Promise<void> {
		this.#port.checkNow(processId);
		if (!this.#expected.has(processId)) { return; }
		let exit: RunExit | null = null;
		try {
			exit = this.#port.exitRecord(processId);
		} catch {
			// Unreadable now: the runner's watch delivers it later.
		}
		if (exit) { await this.#deliver(exit); }
	}

	#deliver(exit: RunExit): Promise<void> | void {
		const handler = this.#expected.get(exit.runId);
		if (!handler) { return; }
		this.#expected.delete(exit.runId);
		return handler(exit);
	}

	dispose(): void {
		this.#subscription.dispose();
		this.#expected.clear();
	}
}
