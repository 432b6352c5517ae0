// "Something in the store changed": the board, the status bar, notifications and the issue panel listen here.
// It reads the Host's state and fires only when what is shown differs. A window that owns the store follows the
// Store's own commits (`watchCommits`: a commit pulls the next read forward to within 100 ms, and polling slows to a
// 5 s safety net); a viewer window, which has only the socket, polls every 500 ms. vscode-free (unit-tested).
import { Emitter, type Event } from '../../core/events.js';
import type { Disposable } from '../../core/lifecycle.js';
import { fingerprint, readWorkspaceState, type WorkspaceReader, type WorkspaceState } from './workspaceState.js';

export interface StoreChangeSource extends Disposable {
	/** The newest state, once the first read has finished. */
	readonly current: WorkspaceState | undefined;
	/** Fires with the new state after any change in the store, from any source (CLI, agents, UI). */
	readonly onDidChange: Event<WorkspaceState>;
	/** Fires when a read fails (Host gone, store closed); polling continues. */
	readonly onDidFail: Event<Error>;
	/** Reads now (after an action of ours, so the UI does not wait for the next tick). */
	refresh(): Promise<void>;
	/** Follows `commits` (the owner's Store.onDidCommit) instead of fast polling, until the returned value is disposed. */
	watchCommits(commits: Event<unknown>): Disposable;
}

/** Timers, injectable so tests can step the poller by hand. */
export interface PollTimer {
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export const defaultPollIntervalMs = 500;
/** While commits are followed: how soon after a commit the state is read, and the safety-net poll. */
export const commitReadDelayMs = 100;
export const followingPollIntervalMs = 5_000;

const systemTimer: PollTimer = {
	setTimeout: (fn, ms) => setTimeout(fn, ms),
	clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PollingChangeSourceOptions {
	/** The client to read through, or undefined while there is no Host (nothing is read then). */
	readonly reader: () => WorkspaceReader | undefined;
	readonly intervalMs?: number;
	readonly timer?: PollTimer;
	/** Unix-ms clock for scheduling decisions (tests step it); default Date.now. */
	readonly now?: () => number;
}

export class PollingChangeSource implements StoreChangeSource {
	readonly #changed = new Emitter<WorkspaceState>();
	readonly #failed = new Emitter<Error>();
	readonly onDidChange = this.#changed.event;
	readonly onDidFail = this.#failed.event;
	readonly #options: PollingChangeSourceOptions;
	readonly #timer: PollTimer;
	#current: WorkspaceState | undefined;
	#lastFingerprint: string | undefined;
	#version = 0;
	#handle: unknown;
	/** When the scheduled read fires (clock of `now`). */
	#dueAt = 0;
	/** How many commit streams are followed (polling is slow while > 0). */
	#following = 0;
	/** A commit no read has started after yet: the next read is due within commitReadDelayMs. */
	#commitUnread = false;
	#inFlight: Promise<void> | undefined;
	#again = false;
	#disposed = false;

	constructor(options: PollingChangeSourceOptions) {
		this.#options = options;
		this.#timer = options.timer ?? systemTimer;
		this.#schedule(0);
	}

	get current(): WorkspaceState | undefined {
		return this.#current;
	}

	/** Forgets the last state (another Host): the next read fires even if it looks the same; versions keep increasing. */
	reset(): void {
		this.#current = undefined;
		this.#lastFingerprint = undefined;
	}

	refresh(): Promise<void> {
		if (this.#inFlight) {
			// A read is running; it may have started before the change we want to see, so read once more after it.
			this.#again = true;
			return this.#inFlight;
		}
		this.#inFlight = this.#poll().finally(() => {
			this.#inFlight = undefined;
			if (this.#again && !this.#disposed) {
				this.#again = false;
				void this.refresh();
			}
		});
		return this.#inFlight;
	}

	async #poll(): Promise<void> {
		const reader = this.#options.reader();
		if (reader === undefined || this.#disposed) {
			return;
		}
		this.#commitUnread = false;
		try {
			const data = await readWorkspaceState(reader);
			const print = fingerprint(data);
			if (this.#disposed || print === this.#lastFingerprint) {
				return;
			}
			this.#lastFingerprint = print;
			this.#current = { version: ++this.#version, ...data };
			this.#changed.fire(this.#current);
		} catch (error) {
			if (!this.#disposed) {
				this.#failed.fire(error instanceof Error ? error : new Error(String(error)));
			}
		}
	}

	watchCommits(commits: Event<unknown>): Disposable {
		this.#following++;
		const subscription = commits(() => { this.#soon(); });
		let disposed = false;
		return {
			dispose: () => {
				if (disposed) { return; }
				disposed = true;
				subscription.dispose();
				this.#following--;
				this.#soon(); // back to fast polling from the next read on
			},
		};
	}

	/** A commit happened: read within commitReadDelayMs (a read in flight reads once more after it). */
	#soon(): void {
		if (this.#disposed) {
			return;
		}
		this.#commitUnread = true;
		if (this.#inFlight) {
			this.#again = true;
			return;
		}
		if (this.#handle !== undefined && this.#dueAt - this.#now() > commitReadDelayMs) {
			this.#timer.clearTimeout(this.#handle);
			this.#schedule(commitReadDelayMs);
		}
	}

	#now(): number {
		return (this.#options.now ?? Date.now)();
	}

	#schedule(ms: number): void {
		const delay = this.#commitUnread ? Math.min(ms, commitReadDelayMs) : ms;
		this.#dueAt = this.#now() + delay;
		this.#handle = this.#timer.setTimeout(() => {
			this.#handle = undefined;
			void this.refresh().finally(() => {
				if (!this.#disposed) {
					this.#schedule(this.#following > 0 ? followingPollIntervalMs : (this.#options.intervalMs ?? defaultPollIntervalMs));
				}
			});
		}, delay);
	}

	dispose(): void {
		this.#disposed = true;
		this.#timer.clearTimeout(this.#handle);
		this.#changed.dispose();
		this.#failed.dispose();
	}
}
