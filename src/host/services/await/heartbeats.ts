// Heartbeats of live await calls (in memory: a heartbeat only means something while a call is running).
// A session is "waiting" with a fresh heartbeat, "idle" with none and no change for 2 minutes, else "working".

export const heartbeatFreshMs = 5_000;
export const idleAfterMs = 120_000;

export type SessionActivity = 'waiting' | 'working' | 'idle';

export class Heartbeats {
	readonly #beats = new Map<string, number>();

	beat(sessionId: string, nowUnixMs: number): void {
		this.#beats.set(sessionId, nowUnixMs);
	}

	/** Every await return clears it (a killed agent must not look patient). */
	clear(sessionId: string): void {
		this.#beats.delete(sessionId);
	}

	lastBeat(sessionId: string): number {
		return this.#beats.get(sessionId) ?? 0;
	}

	/** `lastChangeUnixMs`: the latest change of the session's issue (or the session's creation). */
	activity(sessionId: string, nowUnixMs: number, lastChangeUnixMs: number): SessionActivity {
		const beat = this.lastBeat(sessionId);
		if (beat > 0 && nowUnixMs - beat < heartbeatFreshMs) { return 'waiting'; }
		return nowUnixMs - lastChangeUnixMs >= idleAfterMs ? 'idle' : 'working';
	}
}
