// A WaitTimer the test steps instead of the wall clock. "elapse": each pause moves time forward by what the call
// asked for and returns at once (a whole bound passes in microseconds). "hold": time stands still and a pause ends
// only when the store commits (or the test calls `wake()`: the poll's timer fired), so the only thing that can end
// the wait is what the test does; `paused()` resolves once the call is parked in a pause (its heartbeat is already
// recorded then).
import type { WaitTimer } from '../../../../src/host/services/await/awaitService.js';
import type { Store } from '../../../../src/store/database.js';

export class SteppedWaitTimer implements WaitTimer {
	/** Real time as the waiting calls see it (ms since the timer was made). */
	t = 0;
	/** Every pause a call asked for, in order. */
	readonly pauses: number[] = [];
	#onPause: (() => void)[] = [];
	#parked: (() => void)[] = [];

	#store: Store | undefined;

	private constructor(private readonly mode: 'elapse' | 'hold') {}

	static elapsing(): SteppedWaitTimer { return new SteppedWaitTimer('elapse'); }
	/** Call attach(store) before a call waits. */
	static holdingUntilCommit(): SteppedWaitTimer { return new SteppedWaitTimer('hold'); }

	attach(store: Store): void { this.#store = store; }

	now(): number { return this.t; }

	pause(ms: number): Promise<void> {
		this.pauses.push(ms);
		for (const notify of this.#onPause.splice(0)) { notify(); }
		if (this.mode === 'elapse') {
			this.t += ms;
			return Promise.resolve();
		}
		const store = this.#store;
		if (store === undefined) { return Promise.reject(new Error('SteppedWaitTimer: attach(store) before a call waits')); }
		return new Promise((resolve) => {
			const end = (): void => { sub.dispose(); this.#parked = this.#parked.filter((p) => p !== end); resolve(); };
			const sub = store.onDidCommit(end);
			this.#parked.push(end);
		});
	}

	/** "hold": every parked pause ends now, as when a waiting call's poll timer fires before any commit is durable. */
	wake(): void {
		for (const end of [...this.#parked]) { end(); }
	}

	/** Resolves when a call next enters a pause. */
	paused(): Promise<void> {
		return new Promise((resolve) => { this.#onPause.push(resolve); });
	}
}
