// Heartbeats of live await calls (in memory: a heartbeat only means something while a call is running).
// A session is "waiting" with a fresh heartbeat, "idle" with none and no change for 2 minutes, else "working".
// For the attention state (src/core/attention/attention.ts) it also keeps which call the session waits in, since
// when (across the back-to-back calls of one wait), and when the session was last in touch through such a call.
import type { WaitingCall } from '../../../core/attention/attention.js';
import { Emitter, type Event } from '../../../core/events.js';
import type { SourceContact, SourceContactLookup } from '../attention/readAttention.js';

export const heartbeatFreshMs = 5_000;
export const idleAfterMs = 120_000;

export type SessionActivity = 'waiting' | 'working' | 'idle';

interface Beat {
	/** The latest heartbeat (or the call's end, once it returned). */
	last: number;
	/** When this wait began: kept across back-to-back calls of the same kind. */
	since: number;
	call: WaitingCall | '';
	/** A call is in progress. */
	live: boolean;
	/** The session's latest call of any kind (`touch`). */
	touched: number;
}

export class Heartbeats implements SourceContactLookup {
	readonly #beats = new Map<string, Beat>();
	readonly #changed = new Emitter<void>();
	/** A session began or ended a wait, or made a call: what the attention state says may have changed (no commit says so). */
	readonly onDidChange: Event<void> = this.#changed.event;

	beat(sessionId: string, nowUnixMs: number, call: WaitingCall | '' = ''): void {
		const prev = this.#beats.get(sessionId);
		const continues = prev !== undefined && prev.call === call && (prev.live || nowUnixMs - prev.last < heartbeatFreshMs);
		this.#beats.set(sessionId, { last: nowUnixMs, since: continues ? prev.since : nowUnixMs, call, live: true, touched: Math.max(prev?.touched ?? 0, nowUnixMs) });
		if (!continues || prev?.live !== true) { this.#changed.fire(); }
	}

	/** Any call the session made: it is in touch (read by the attention state's "has it seen its checkpoint"). */
	touch(sessionId: string, nowUnixMs: number): void {
		const prev = this.#beats.get(sessionId);
		this.#beats.set(sessionId, prev ? { ...prev, touched: Math.max(prev.touched, nowUnixMs) } : { last: 0, since: 0, call: '', live: false, touched: nowUnixMs });
		this.#changed.fire();
	}

	/** Every await return clears it (a killed agent must not look patient); `nowUnixMs` is when the call returned. */
	clear(sessionId: string, nowUnixMs?: number): void {
		const prev = this.#beats.get(sessionId);
		if (prev === undefined) { return; }
		this.#beats.set(sessionId, { ...prev, live: false, last: nowUnixMs ?? prev.last, touched: Math.max(prev.touched, nowUnixMs ?? 0) });
		this.#changed.fire();
	}

	lastBeat(sessionId: string): number {
		const beat = this.#beats.get(sessionId);
		return beat?.live === true ? beat.last : 0;
	}

	/** `lastChangeUnixMs`: the latest change of the session's issue (or the session's creation). */
	activity(sessionId: string, nowUnixMs: number, lastChangeUnixMs: number): SessionActivity {
		const beat = this.lastBeat(sessionId);
		if (beat > 0 && nowUnixMs - beat < heartbeatFreshMs) { return 'waiting'; }
		return nowUnixMs - lastChangeUnixMs >= idleAfterMs ? 'idle' : 'working';
	}

	/**
	 * Whether the session waits in a bounded call now and since when. A call that just returned still counts for
	 * the fresh period, so the moment between two back-to-back calls of one wait does not read as "not waiting".
	 */
	contact(sessionId: string, nowUnixMs: number): SourceContact {
		const beat = this.#beats.get(sessionId);
		if (beat === undefined) { return { waitingIn: '', waitingSinceUnixMs: 0, lastContactUnixMs: 0 }; }
		const waiting = beat.call !== '' && beat.last > 0 && nowUnixMs - beat.last < heartbeatFreshMs;
		return { waitingIn: waiting ? beat.call : '', waitingSinceUnixMs: waiting ? beat.since : 0, lastContactUnixMs: Math.max(beat.last, beat.touched) };
	}
}
