// The one error the store throws for anything about its files: corrupt, foreign, locked, too new, I/O.
import { type ReasonCode, ReasonedError } from '../core/errors.js';
import { hintFor } from '../core/hints.js';

export type StoreErrorCode =
	/** A store file is damaged (bad journal header, corrupt frame followed by good ones, snapshot unreadable). */
	| 'store_corrupt'
	/** A file is not ours: not SQLite, another application_id, or a journal of another store. */
	| 'store_foreign'
	/** Another live Host holds `.tutti/host.lease`. */
	| 'store_locked'
	/** The database was written by a newer Tutti (PRAGMA user_version above the known migrations). */
	| 'store_too_new'
	/** Appending or syncing the journal failed; the Store refuses writes until it can write a whole snapshot again. */
	| 'store_io'
	/** The Store was closed. */
	| 'store_closed';

const reasonCodeOf: Record<StoreErrorCode, ReasonCode> = {
	store_corrupt: 'store_corrupt',
	store_foreign: 'store_corrupt',
	store_locked: 'store_locked',
	store_too_new: 'store_unavailable',
	store_io: 'store_unavailable',
	store_closed: 'store_unavailable',
};

/** A store failure is a ReasonedError, so every layer above maps it to the wire exactly as it maps a domain error. */
export class StoreError extends ReasonedError {
	constructor(
		readonly code: StoreErrorCode,
		message: string,
		/** The file the error is about, when there is one. */
		readonly file?: string,
		readonly details: Record<string, unknown> = {},
	) {
		super(message);
		this.name = 'StoreError';
	}

	/** The domain reason code (core/errors.ts) a layer above should report this as. */
	get reasonCode(): ReasonCode {
		return reasonCodeOf[this.code];
	}

	get hint(): string {
		return hintFor(this.reasonCode);
	}

	/** Only a store that is briefly away may take the same request later; a damaged or taken one needs the developer. */
	get retryable(): boolean {
		return this.reasonCode === 'store_unavailable';
	}
}

export function isStoreError(e: unknown, code?: StoreErrorCode): e is StoreError {
	return e instanceof StoreError && (code === undefined || e.code === code);
}

/** The sentence every "we did not touch your file" message ends with. */
export function leftUntouched(file: string): string {
	return `${file} was left untouched; move it aside (or restore a backup) to start a fresh store.`;
}

export function errorMessage(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}
