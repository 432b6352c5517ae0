// Before listening: a socket file left by a crashed Host is unlinked, but only when nothing answers on it
// (never take over from a live peer).
import * as fs from 'node:fs';
import * as net from 'node:net';
import { DomainError } from '../core/errors.js';

/** Resolves true when something accepts a connection on `socketPath`. */
export function socketAnswers(socketPath: string, timeoutMs = 1000): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({ path: socketPath });
		let settled = false;
		const done = (answers: boolean): void => {
			if (settled) { return; }
			settled = true;
			socket.destroy();
			resolve(answers);
		};
		// A refusal waiting in the I/O queue is seen first: when this process's own loop was blocked past the timeout
		// (a Host starting on a loaded machine), timers run before I/O callbacks, and a dead predecessor's socket
		// would read as live. setImmediate runs after the I/O phase.
		socket.setTimeout(timeoutMs, () => { setImmediate(() => done(true)); });
		socket.once('connect', () => done(true));
		socket.once('error', () => done(false));
	});
}

/** Unlinks a stale socket file; throws when a live server holds it. */
export async function clearStaleSocket(socketPath: string): Promise<void> {
	if (process.platform === 'win32' || !fs.existsSync(socketPath)) {
		return;
	}
	if (await socketAnswers(socketPath)) {
		throw new DomainError('host_unavailable', `another process is already serving ${socketPath}`,
			'a Host is already running for this workspace; use it, or stop it before running `tutti host --workspace DIR`');
	}
	try {
		fs.unlinkSync(socketPath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			throw error;
		}
	}
}
