// How the control plane keeps serving the developer however many connections agents open. There is no cap at
// accept (one made a flood of idle connections refuse the developer's CLI outright). Instead:
// - a connection that has not sent a whole request head within `idleMs` (after connecting, or after its last reply
//   on a kept-alive connection) is closed;
// - at most `maxWaiting` connections wait for a head at once: one more closes the oldest waiting one, never the
//   newcomer (a real client sends its head as soon as it connects, so the oldest waiting one is the idle one);
// - at most `maxPerSession` requests of one agent session are in flight at once; requests with the developer's
//   credential are never limited.
import type { Socket } from 'node:net';

export interface ConnectionLimits {
	idleMs: number;
	maxWaiting: number;
	maxPerSession: number;
}

export const defaultConnectionLimits: ConnectionLimits = { idleMs: 10_000, maxWaiting: 128, maxPerSession: 32 };

/** The Host's environment may shorten the idle timeout (tests): `TUTTI_HOST_IDLE_CONNECTION_MS`, a positive integer. */
export function connectionLimitsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<ConnectionLimits> {
	const raw = env['TUTTI_HOST_IDLE_CONNECTION_MS'];
	const idleMs = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : 0;
	return idleMs > 0 ? { idleMs } : {};
}

export class ConnectionGate {
	readonly limits: ConnectionLimits;
	/** Connections waiting for a request head, oldest first, with their idle timers. */
	readonly #waiting = new Map<Socket, NodeJS.Timeout>();
	/** Requests being answered per connection (more than one only when a client pipelines). */
	readonly #active = new Map<Socket, number>();
	readonly #perSession = new Map<string, number>();

	constructor(limits: Partial<ConnectionLimits> = {}) {
		this.limits = { ...defaultConnectionLimits, ...limits };
	}

	/** A new connection: it waits for its first request head. */
	accepted(socket: Socket): void {
		socket.once('close', () => {
			this.#stopWaiting(socket);
			this.#active.delete(socket);
		});
		this.#wait(socket);
	}

	/** A whole request head arrived on `socket`; call `requestEnded` when its reply is done. */
	requestStarted(socket: Socket): void {
		this.#stopWaiting(socket);
		this.#active.set(socket, (this.#active.get(socket) ?? 0) + 1);
	}

	requestEnded(socket: Socket): void {
		const active = (this.#active.get(socket) ?? 1) - 1;
		if (active > 0) {
			this.#active.set(socket, active);
			return;
		}
		this.#active.delete(socket);
		if (!socket.destroyed) {
			this.#wait(socket);
		}
	}

	/** Counts one request of the session; false (and not counted) when it already has `maxPerSession` in flight. */
	admitSession(sessionId: string): boolean {
		const count = this.#perSession.get(sessionId) ?? 0;
		if (count >= this.limits.maxPerSession) {
			return false;
		}
		this.#perSession.set(sessionId, count + 1);
		return true;
	}

	releaseSession(sessionId: string): void {
		const count = (this.#perSession.get(sessionId) ?? 1) - 1;
		if (count > 0) {
			this.#perSession.set(sessionId, count);
		} else {
			this.#perSession.delete(sessionId);
		}
	}

	#wait(socket: Socket): void {
		this.#stopWaiting(socket);
		const timer = setTimeout(() => socket.destroy(), this.limits.idleMs);
		timer.unref();
		this.#waiting.set(socket, timer);
		if (this.#waiting.size > this.limits.maxWaiting) {
			const oldest = this.#waiting.keys().next().value;
			if (oldest !== undefined) {
				this.#stopWaiting(oldest);
				oldest.destroy();
			}
		}
	}

	#stopWaiting(socket: Socket): void {
		const timer = this.#waiting.get(socket);
		if (timer !== undefined) {
			clearTimeout(timer);
			this.#waiting.delete(socket);
		}
	}
}
