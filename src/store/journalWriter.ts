// Appends journal frames: each commit's frame is written and fdatasynced before its promise resolves; frames
// appended in the same tick or while an fsync is in flight share the next fsync (group commit). After a snapshot
// the journal is replaced atomically by a fresh one that continues from the snapshot's sequence.
//
// A failed write or fsync (full disk, read-only remount, I/O error) rejects every pending frame and cuts the file back
// to its last synced byte, so what stays on disk is exactly what was acknowledged; the writer then refuses appends and
// the Store reopens from disk once writes work again (database.ts).
import { close, closeSync, fchmodSync, fdatasync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { encodeJournalHeader } from './journal.js';
import { privateFileMode } from './privateModes.js';
import { fsyncDirectory, temporaryPathFor } from './snapshot.js';
import { StoreError } from './storeErrors.js';

/** A position in the journal, taken at the instant a snapshot exported the database. */
export interface JournalMark {
	readonly bytes: number;
	readonly frames: number;
	readonly appended: number;
}

interface DurabilityWaiter {
	readonly target: number;
	readonly resolve: () => void;
	readonly reject: (e: unknown) => void;
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
	let done = 0;
	while (done < bytes.length) {
		done += writeSync(fd, bytes, done, bytes.length - done, position + done);
	}
}

/** Writes `content` to the journal path atomically and returns an open descriptor on the new file. */
function replaceJournalFile(path: string, content: Buffer): number {
	const tmp = temporaryPathFor(path);
	const fd = openSync(tmp, 'w+', privateFileMode);
	try {
		if (process.platform !== 'win32') { fchmodSync(fd, privateFileMode); } // whatever the umask, and a leftover temporary
		writeFully(fd, content, 0);
		fsyncSync(fd);
		renameSync(tmp, path);
	} catch (e) {
		closeSync(fd);
		rmSync(tmp, { force: true }); // a half-written temporary would keep a full disk full
		throw e;
	}
	return fd;
}

export class JournalWriter {
	readonly #path: string;
	readonly #storeId: string;
	#fd: number;
	/** Bytes in the file (written, not necessarily synced). */
	#written: number;
	/** Bytes of the file known to be on disk: a failure cuts the file back to this length. */
	#synced: number;
	/** Bytes appended to this file including pending ones. */
	#bytes: number;
	/** Frames in this file including pending ones. */
	#frames: number;
	/** Frames appended since open (monotonic; never reset by rotation). */
	#appended = 0;
	/** Frames of #appended known durable. */
	#durable = 0;
	#syncs = 0;
	#pending: Buffer[] = [];
	#waiters: DurabilityWaiter[] = [];
	#idleWaiters: (() => void)[] = [];
	#flushing = false;
	#blocked = false;
	#failure: StoreError | undefined;
	#closed = false;

	private constructor(path: string, storeId: string, fd: number, size: number, frames: number) {
		this.#path = path;
		this.#storeId = storeId;
		this.#fd = fd;
		this.#written = size;
		this.#synced = size;
		this.#bytes = size;
		this.#frames = frames;
	}

	/** Atomically (re)writes the journal as a header plus `frames` (already-encoded whole frames) and opens it. */
	static create(path: string, storeId: string, baseSeq: number, frames: Buffer = Buffer.alloc(0), frameCount = 0): JournalWriter {
		const content = Buffer.concat([encodeJournalHeader(storeId, baseSeq), frames]);
		const fd = replaceJournalFile(path, content);
		try {
			fsyncDirectory(dirname(path));
		} catch (e) {
			closeSync(fd);
			throw e;
		}
		return new JournalWriter(path, storeId, fd, content.length, frameCount);
	}

	/** Opens an existing, already validated journal to append after its `size` bytes. */
	static openExisting(path: string, storeId: string, size: number, frameCount: number): JournalWriter {
		return new JournalWriter(path, storeId, openSync(path, 'r+'), size, frameCount);
	}

	get bytes(): number { return this.#bytes; }
	get frames(): number { return this.#frames; }
	get syncs(): number { return this.#syncs; }
	get failure(): StoreError | undefined { return this.#failure; }

	mark(): JournalMark {
		return { bytes: this.#bytes, frames: this.#frames, appended: this.#appended };
	}

	/** Queues a whole frame; resolves once it (and every frame before it) is on disk. */
	append(frame: Buffer): Promise<void> {
		if (this.#failure) {
			return Promise.reject(this.#failure);
		}
		if (this.#closed) {
			return Promise.reject(new StoreError('store_closed', `The store journal ${this.#path} is closed.`, this.#path));
		}
		this.#pending.push(frame);
		this.#bytes += frame.length;
		this.#frames++;
		this.#appended++;
		const done = this.#waitFor(this.#appended);
		this.#schedule();
		return done;
	}

	/** Resolves once every frame appended so far is on disk. */
	whenDurable(): Promise<void> {
		return this.#waitFor(this.#appended);
	}

	/**
	 * After a snapshot containing every frame up to `mark` has been renamed into place: replaces the journal with
	 * a fresh one based at `baseSeq`, carrying over the frames appended after the mark.
	 */
	async rotate(mark: JournalMark, baseSeq: number): Promise<void> {
		await this.#waitFor(mark.appended);
		this.#blocked = true;
		try {
			await this.#idle();
			if (this.#failure) {
				throw this.#failure;
			}
			const tail = Buffer.alloc(this.#written - mark.bytes);
			if (tail.length > 0 && readSync(this.#fd, tail, 0, tail.length, mark.bytes) !== tail.length) {
				throw new Error(`short read of ${this.#path}`);
			}
			const content = Buffer.concat([encodeJournalHeader(this.#storeId, baseSeq), tail]);
			const fd = replaceJournalFile(this.#path, content);
			// The rename happened: from here on the new file is the journal, whatever else fails.
			const old = this.#fd;
			this.#fd = fd;
			this.#written = content.length;
			this.#synced = content.length;
			this.#bytes = content.length + (this.#bytes - (mark.bytes + tail.length));
			this.#frames -= mark.frames;
			closeSync(old);
			try {
				fsyncDirectory(dirname(this.#path));
			} catch (e) {
				this.#fail(e);
				throw this.#failure;
			}
		} finally {
			this.#blocked = false;
			this.#schedule();
		}
	}

	async close(): Promise<void> {
		if (this.#closed) {
			return;
		}
		await this.whenDurable().catch(() => undefined);
		this.#closed = true;
		await new Promise<void>((resolve) => close(this.#fd, () => resolve()));
	}

	#waitFor(target: number): Promise<void> {
		if (target <= this.#durable) {
			return Promise.resolve();
		}
		if (this.#failure) {
			return Promise.reject(this.#failure);
		}
		return new Promise<void>((resolve, reject) => this.#waiters.push({ target, resolve, reject }));
	}

	#idle(): Promise<void> {
		return this.#flushing ? new Promise<void>((resolve) => this.#idleWaiters.push(resolve)) : Promise.resolve();
	}

	#schedule(): void {
		if (this.#flushing || this.#blocked || this.#failure || this.#pending.length === 0) {
			return;
		}
		this.#flushing = true;
		// A microtask, so every commit of the current tick joins this write and fsync.
		queueMicrotask(() => this.#flush());
	}

	#flush(): void {
		if (this.#blocked) {
			this.#settleIdle();
			return;
		}
		const batch = this.#pending;
		const upTo = this.#appended;
		this.#pending = [];
		const bytes = batch.length === 1 ? (batch[0] as Buffer) : Buffer.concat(batch);
		try {
			writeFully(this.#fd, bytes, this.#written);
		} catch (e) {
			this.#fail(e);
			return;
		}
		this.#written += bytes.length;
		const writtenUpTo = this.#written;
		fdatasync(this.#fd, (err) => {
			if (err) {
				this.#fail(err);
				return;
			}
			this.#synced = writtenUpTo;
			this.#syncs++;
			this.#durable = upTo;
			while (this.#waiters.length > 0 && (this.#waiters[0] as DurabilityWaiter).target <= upTo) {
				(this.#waiters.shift() as DurabilityWaiter).resolve();
			}
			this.#settleIdle();
			this.#schedule();
		});
	}

	/**
	 * Drops every byte after the last successful sync (a partly written batch included, which #written does not
	 * count), so a reopen replays only acknowledged frames.
	 */
	#cutBackToSynced(): void {
		try {
			ftruncateSync(this.#fd, this.#synced);
			this.#written = this.#synced;
		} catch {
			// The reopen's scan then drops a torn tail; a whole unacknowledged frame may be replayed (at-least-once).
		}
	}

	#settleIdle(): void {
		this.#flushing = false;
		const idle = this.#idleWaiters;
		this.#idleWaiters = [];
		for (const resolve of idle) {
			resolve();
		}
	}

	#fail(cause: unknown): void {
		const message = cause instanceof Error ? cause.message : String(cause);
		const code = (cause as NodeJS.ErrnoException | undefined)?.code;
		this.#failure = new StoreError(
			'store_io',
			`Writing the store journal ${this.#path} failed (${message}); this write and any made with it were not saved, ` +
				`nothing saved before is lost. Tutti retries every few seconds and accepts writes again once ` +
				`${code === 'ENOSPC' || code === 'EDQUOT' ? 'there is free space on that disk' : 'the store folder is writable again'}.`,
			this.#path,
			{ cause: message, ...(code !== undefined ? { errno: code } : {}) },
		);
		this.#cutBackToSynced();
		const waiters = this.#waiters;
		this.#waiters = [];
		this.#pending = [];
		for (const w of waiters) {
			w.reject(this.#failure);
		}
		this.#settleIdle();
	}
}
