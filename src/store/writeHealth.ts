// The Store's write health as one value: whether writes are refused and why, the recovery after a journal failure,
// and the automatic snapshots. `stepWriteHealth` is pure; database.ts reports what happened as events, keeps the
// value it returns, and carries out the effects (timers, reloads, snapshots, announcements) in order.
import { errorMessage, isStoreError } from './storeErrors.js';
import type { StoreError } from './storeErrors.js';

/** After an automatic snapshot fails, the next one waits at least this long (a full disk would fail every commit). */
export const snapshotRetryDelayMs = 5_000;

export type RecoveryPhase =
	/** Nothing to recover from, or nothing more to try (damaged or closed). */
	| 'none'
	/** Dropping the refused writes from memory by reloading from disk (synchronous, right after the failure). */
	| 'reloading'
	/** A recovery attempt starts when its timer fires. */
	| 'waiting'
	/** An attempt is writing a whole snapshot to prove the disk takes writes again. */
	| 'attempting';

export interface WriteHealth {
	readonly closed: boolean;
	/** SQLite reported the image damaged, or the files on disk are damaged or foreign: no writes, snapshots or retries. */
	readonly damaged: StoreError | undefined;
	/** The journal failure that refuses writes until a recovery attempt writes a whole snapshot. */
	readonly unavailable: StoreError | undefined;
	readonly recovery: RecoveryPhase;
	/** Times writing resumed in place after a failure. */
	readonly recoveries: number;
	/** The last failed attempt to resume writing, cleared once writes resume. */
	readonly lastRecoveryError: string | undefined;
	/** An automatic snapshot is scheduled or running. */
	readonly autoSnapshot: boolean;
	/** A snapshot (automatic, explicit or a recovery's proof) is putting its image on disk. */
	readonly snapshotWriting: boolean;
	/** Unix ms before which no automatic snapshot starts (set after one failed). */
	readonly snapshotRetryAt: number;
	readonly snapshots: number;
	readonly lastSnapshotAt: number | undefined;
	readonly lastSnapshotError: string | undefined;
}

export type WriteHealthEvent =
	/** The journal refused a write (noticed by the failed commit or by the next transaction, whichever comes first). */
	| { readonly type: 'journalFailed'; readonly failure: StoreError }
	/** The reload asked for by `reloadFromDisk` replaced the image, or threw. */
	| { readonly type: 'reloaded' }
	| { readonly type: 'reloadFailed'; readonly error: unknown }
	/** The recovery timer fired. */
	| { readonly type: 'recoveryDue' }
	/** The attempt wrote a whole snapshot and a fresh journal. */
	| { readonly type: 'recoveryProved' }
	| { readonly type: 'recoveryFailed'; readonly error: unknown }
	/** The Store closed while the attempt ran; it stopped before proving anything. */
	| { readonly type: 'recoveryStopped' }
	/** SQLite reported the in-memory image damaged (the error already names the file and what happened). */
	| { readonly type: 'damageNoticed'; readonly damage: StoreError }
	| { readonly type: 'closed' }
	/** A commit (or the open) left `journalBytes` in the journal; `threshold` makes a snapshot due. */
	| { readonly type: 'journalGrew'; readonly journalBytes: number; readonly threshold: number; readonly now: number }
	/** The scheduled automatic snapshot's turn came (after the reply path). */
	| { readonly type: 'autoSnapshotTurn' }
	| { readonly type: 'autoSnapshotFailed'; readonly error: unknown; readonly now: number }
	/** The automatic snapshot settled, whether it failed or not. */
	| { readonly type: 'autoSnapshotSettled' }
	| { readonly type: 'snapshotWriting' }
	| { readonly type: 'snapshotWritten'; readonly now: number }
	| { readonly type: 'snapshotNotWritten' };

export type WriteHealthEffect =
	/** Replace the in-memory image and journal writer with the files on disk, then report `reloaded` or `reloadFailed`. */
	| { readonly type: 'reloadFromDisk' }
	/** Start the recovery timer: at once, or after the configured retry delay; it reports `recoveryDue`. */
	| { readonly type: 'startRecoveryTimer'; readonly delay: 'none' | 'retry' }
	| { readonly type: 'cancelRecoveryTimer' }
	/** Reload if the journal failed, write a whole snapshot, report `recoveryProved`, `recoveryFailed` or `recoveryStopped`. */
	| { readonly type: 'attemptRecovery' }
	| { readonly type: 'announceResumed' }
	/** Report `autoSnapshotTurn` once the commit's continuations ran. */
	| { readonly type: 'scheduleAutoSnapshot' }
	/** Take a snapshot; report `autoSnapshotFailed` if it fails, then `autoSnapshotSettled`. */
	| { readonly type: 'takeAutoSnapshot' }
	/** Report `journalGrew` again with the usual threshold (commits made meanwhile may have filled the journal). */
	| { readonly type: 'checkJournalSize' };

export interface WriteHealthStep {
	readonly health: WriteHealth;
	readonly effects: readonly WriteHealthEffect[];
}

export const initialWriteHealth: WriteHealth = {
	closed: false,
	damaged: undefined,
	unavailable: undefined,
	recovery: 'none',
	recoveries: 0,
	lastRecoveryError: undefined,
	autoSnapshot: false,
	snapshotWriting: false,
	snapshotRetryAt: 0,
	snapshots: 0,
	lastSnapshotAt: undefined,
	lastSnapshotError: undefined,
};

/** Why a write transaction is refused right now (a closed Store answers with its own error first). */
export function writeRefusal(health: WriteHealth): StoreError | undefined {
	return health.damaged ?? health.unavailable;
}

const unchanged = (health: WriteHealth): WriteHealthStep => ({ health, effects: [] });

/** Files that are damaged or foreign stay so: retrying cannot help, and a restart reports the same. */
function afterRecoveryError(health: WriteHealth, error: unknown): WriteHealth {
	const hopeless = isStoreError(error) && error.code !== 'store_io' && error.code !== 'store_closed';
	return { ...health, lastRecoveryError: errorMessage(error), damaged: health.damaged ?? (hopeless ? error : undefined) };
}

/** Waits for the next attempt, unless there is nothing left to try. */
function nextAttempt(health: WriteHealth, delay: 'none' | 'retry'): WriteHealthStep {
	if (health.closed || health.damaged) {
		return unchanged({ ...health, recovery: 'none' });
	}
	return { health: { ...health, recovery: 'waiting' }, effects: [{ type: 'startRecoveryTimer', delay }] };
}

/** After an attempt ends: try again while writes are still refused. */
function attemptEnded(health: WriteHealth): WriteHealthStep {
	const idle = { ...health, recovery: 'none' as const };
	return idle.unavailable ? nextAttempt(idle, 'retry') : unchanged(idle);
}

export function stepWriteHealth(health: WriteHealth, event: WriteHealthEvent): WriteHealthStep {
	switch (event.type) {
		case 'journalFailed': {
			if (health.unavailable || health.closed) {
				return unchanged(health);
			}
			const failed = { ...health, unavailable: event.failure };
			// The refused writes leave memory before anything can read them; a snapshot in flight first finishes (and fails).
			return failed.snapshotWriting
				? nextAttempt(failed, 'none')
				: { health: { ...failed, recovery: 'reloading' }, effects: [{ type: 'reloadFromDisk' }] };
		}
		case 'reloaded':
			return health.recovery === 'reloading' ? nextAttempt(health, 'retry') : unchanged(health);
		case 'reloadFailed':
			return health.recovery === 'reloading' ? nextAttempt(afterRecoveryError(health, event.error), 'none') : unchanged(health);
		case 'recoveryDue':
			return health.recovery === 'waiting'
				? { health: { ...health, recovery: 'attempting' }, effects: [{ type: 'attemptRecovery' }] }
				: unchanged(health);
		case 'recoveryProved': {
			if (health.recovery !== 'attempting') {
				return unchanged(health);
			}
			if (health.closed) {
				return attemptEnded(health);
			}
			const resumed = { ...health, unavailable: undefined, lastRecoveryError: undefined, recoveries: health.recoveries + 1 };
			const ended = attemptEnded(resumed);
			return { health: ended.health, effects: [{ type: 'announceResumed' }, ...ended.effects] };
		}
		case 'recoveryFailed':
			return health.recovery === 'attempting' ? attemptEnded(afterRecoveryError(health, event.error)) : unchanged(health);
		case 'recoveryStopped':
			return health.recovery === 'attempting' ? attemptEnded(health) : unchanged(health);
		case 'damageNoticed':
			return health.damaged ? unchanged(health) : unchanged({ ...health, damaged: event.damage });
		case 'closed': {
			if (health.closed) {
				return unchanged(health);
			}
			const closed = { ...health, closed: true };
			return closed.recovery === 'waiting'
				? { health: { ...closed, recovery: 'none' }, effects: [{ type: 'cancelRecoveryTimer' }] }
				: unchanged(closed);
		}
		case 'journalGrew':
			if (health.autoSnapshot || health.closed || event.journalBytes < event.threshold || event.now < health.snapshotRetryAt) {
				return unchanged(health);
			}
			return { health: { ...health, autoSnapshot: true }, effects: [{ type: 'scheduleAutoSnapshot' }] };
		case 'autoSnapshotTurn':
			if (!health.autoSnapshot) {
				return unchanged(health);
			}
			return health.closed ? unchanged({ ...health, autoSnapshot: false }) : { health, effects: [{ type: 'takeAutoSnapshot' }] };
		case 'autoSnapshotFailed':
			return unchanged({ ...health, lastSnapshotError: errorMessage(event.error), snapshotRetryAt: event.now + snapshotRetryDelayMs });
		case 'autoSnapshotSettled':
			return health.autoSnapshot ? { health: { ...health, autoSnapshot: false }, effects: [{ type: 'checkJournalSize' }] } : unchanged(health);
		case 'snapshotWriting':
			return unchanged({ ...health, snapshotWriting: true });
		case 'snapshotWritten':
			return unchanged({ ...health, snapshotWriting: false, snapshots: health.snapshots + 1, lastSnapshotAt: event.now, lastSnapshotError: undefined });
		case 'snapshotNotWritten':
			return unchanged({ ...health, snapshotWriting: false });
	}
}
