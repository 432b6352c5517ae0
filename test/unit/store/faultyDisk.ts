// A disk that fills up on demand, for tests: while `full`, node:fs writeSync (journal appends and rewrites) writes half
// its buffer and throws ENOSPC, or (failSyncOnly) writes succeed and fdatasync fails with EIO. Patches the node:fs
// module object the store's modules call through; install() in beforeEach, uninstall() in afterEach.
import type * as nodeFs from 'node:fs';
import { createRequire } from 'node:module';

/** The real node:fs module object (a namespace import is a copy under the test's CommonJS transform). */
const fsModule = createRequire(__filename)('node:fs') as typeof nodeFs;

export function enospc(): NodeJS.ErrnoException {
	return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/** Makes writeSync (journal appends and journal rewrites) fail like a full disk while `full` is true. */
export class FullDisk {
	full = false;
	readonly #writeSync = fsModule.writeSync;
	readonly #fdatasync = fsModule.fdatasync;
	/** When set, the write succeeds but the following fdatasync fails (the bytes are in the file, not durable). */
	failSyncOnly = false;
	/** How many writes or syncs were refused so far (each failed attempt of the store leaves at least one). */
	refusals = 0;

	install(): void {
		const realWriteSync = this.#writeSync as (...a: unknown[]) => number;
		const realFdatasync = this.#fdatasync;
		fsModule.writeSync = ((...args: unknown[]) => {
			if (this.full && !this.failSyncOnly) {
				// Like the kernel on a full disk: part of the buffer lands, then ENOSPC.
				const [fd, buffer, offset, length, position] = args as [number, Uint8Array, number, number, number];
				if (typeof length === 'number' && length > 1) {
					realWriteSync(fd, buffer, offset, Math.floor(length / 2), position);
				}
				this.refusals++;
				throw enospc();
			}
			return realWriteSync(...args);
		}) as typeof nodeFs.writeSync;
		fsModule.fdatasync = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
			if (this.full && this.failSyncOnly) {
				this.refusals++;
				setImmediate(() => callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
				return;
			}
			realFdatasync(fd, callback);
		}) as typeof nodeFs.fdatasync;
	}

	uninstall(): void {
		fsModule.writeSync = this.#writeSync;
		fsModule.fdatasync = this.#fdatasync;
	}
}

/**
 * A disk whose fdatasync the test holds: while held, each call is parked (the journal's batch is written, not yet
 * durable, and the frames committed meanwhile wait in memory for the next batch, as under a loaded disk); `synced()`
 * resolves at the next parked call; release() stops holding and lets the parked ones run for real.
 */
export class HeldSyncs {
	readonly #fdatasync = fsModule.fdatasync;
	#held = false;
	#parked: (() => void)[] = [];
	#onPark: (() => void)[] = [];

	install(): void {
		const real = this.#fdatasync;
		fsModule.fdatasync = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
			if (!this.#held) { real(fd, callback); return; }
			this.#parked.push(() => real(fd, callback));
			for (const notify of this.#onPark.splice(0)) { notify(); }
		}) as typeof nodeFs.fdatasync;
	}

	uninstall(): void {
		this.release();
		fsModule.fdatasync = this.#fdatasync;
	}

	hold(): void { this.#held = true; }

	/** Resolves when the journal next asks for an fdatasync while held. */
	synced(): Promise<void> {
		return new Promise((resolve) => { this.#onPark.push(resolve); });
	}

	release(): void {
		this.#held = false;
		for (const run of this.#parked.splice(0)) { run(); }
	}
}
