// The Store's write health as a table: each state that matters × each event, the value that follows and the effects
// the Store must carry out. The behaviour on a real disk is in writeFailure.test.ts and storeFiles.test.ts.
import assert from 'node:assert/strict';
import { StoreError } from '../../../src/store/storeErrors.js';
import { initialWriteHealth, stepWriteHealth, writeRefusal } from '../../../src/store/writeHealth.js';
import type { WriteHealth, WriteHealthEffect, WriteHealthEvent } from '../../../src/store/writeHealth.js';

const t0 = 1_700_000_000_000;
const ioFailure = new StoreError('store_io', 'Could not write the journal: ENOSPC; nothing saved before is lost.');
const laterIoFailure = new StoreError('store_io', 'Could not write the journal: EIO.');
const damage = new StoreError('store_corrupt', 'SQLite reported database disk image is malformed while the store was open.');
const foreign = new StoreError('store_foreign', 'tutti.sqlite was replaced by another store while the Host was running.');

const states = {
	accepting: initialWriteHealth,
	writingSnapshot: { ...initialWriteHealth, snapshotWriting: true },
	reloading: { ...initialWriteHealth, unavailable: ioFailure, recovery: 'reloading' },
	waiting: { ...initialWriteHealth, unavailable: ioFailure, recovery: 'waiting', lastRecoveryError: 'ENOSPC' },
	attempting: { ...initialWriteHealth, unavailable: ioFailure, recovery: 'attempting', lastRecoveryError: 'ENOSPC' },
	damaged: { ...initialWriteHealth, damaged: damage },
	damagedReloading: { ...initialWriteHealth, damaged: damage, unavailable: ioFailure, recovery: 'reloading' },
	damagedWaiting: { ...initialWriteHealth, damaged: damage, unavailable: ioFailure, recovery: 'waiting' },
	damagedAttempting: { ...initialWriteHealth, damaged: damage, unavailable: ioFailure, recovery: 'attempting' },
	closed: { ...initialWriteHealth, closed: true },
	closedAttempting: { ...initialWriteHealth, closed: true, unavailable: ioFailure, recovery: 'attempting' },
	autoScheduled: { ...initialWriteHealth, autoSnapshot: true },
	closedAutoScheduled: { ...initialWriteHealth, closed: true, autoSnapshot: true },
	backingOff: { ...initialWriteHealth, snapshotRetryAt: t0 + 5_000, lastSnapshotError: 'ENOSPC' },
	afterTwoSnapshots: { ...initialWriteHealth, snapshotWriting: true, snapshots: 2, lastSnapshotAt: t0 - 1, lastSnapshotError: 'EIO' },
} satisfies Record<string, WriteHealth>;
type StateName = keyof typeof states;

interface Row {
	readonly state: StateName;
	readonly event: WriteHealthEvent;
	/** The fields that change; every other field must stay as it was. */
	readonly then: Partial<WriteHealth>;
	readonly effects: readonly WriteHealthEffect[];
	readonly why: string;
}

const grew = (journalBytes: number, now = t0): WriteHealthEvent => ({ type: 'journalGrew', journalBytes, threshold: 1_000, now });

const table: readonly Row[] = [
	// A journal failure refuses writes and drops the refused ones from memory at once.
	{ state: 'accepting', event: { type: 'journalFailed', failure: ioFailure }, then: { unavailable: ioFailure, recovery: 'reloading' }, effects: [{ type: 'reloadFromDisk' }], why: 'reload before anything reads a refused write' },
	{ state: 'writingSnapshot', event: { type: 'journalFailed', failure: ioFailure }, then: { unavailable: ioFailure, recovery: 'waiting' }, effects: [{ type: 'startRecoveryTimer', delay: 'none' }], why: 'a snapshot in flight finishes first; the attempt reloads right after' },
	{ state: 'damaged', event: { type: 'journalFailed', failure: ioFailure }, then: { unavailable: ioFailure, recovery: 'reloading' }, effects: [{ type: 'reloadFromDisk' }], why: 'refused writes leave memory even in a damaged store' },
	{ state: 'waiting', event: { type: 'journalFailed', failure: laterIoFailure }, then: {}, effects: [], why: 'the first failure is the one reported' },
	{ state: 'attempting', event: { type: 'journalFailed', failure: laterIoFailure }, then: {}, effects: [], why: 'already recovering' },
	{ state: 'closed', event: { type: 'journalFailed', failure: ioFailure }, then: {}, effects: [], why: 'a closed store recovers nothing' },
	// The reload's outcome decides how soon the first attempt runs.
	{ state: 'reloading', event: { type: 'reloaded' }, then: { recovery: 'waiting' }, effects: [{ type: 'startRecoveryTimer', delay: 'retry' }], why: 'memory is clean: wait for the disk' },
	{ state: 'reloading', event: { type: 'reloadFailed', error: laterIoFailure }, then: { recovery: 'waiting', lastRecoveryError: laterIoFailure.message }, effects: [{ type: 'startRecoveryTimer', delay: 'none' }], why: 'memory still holds refused writes: the attempt reloads at once' },
	{ state: 'reloading', event: { type: 'reloadFailed', error: foreign }, then: { recovery: 'none', damaged: foreign, lastRecoveryError: foreign.message }, effects: [], why: 'a foreign file stays foreign: no retries' },
	{ state: 'damagedReloading', event: { type: 'reloaded' }, then: { recovery: 'none' }, effects: [], why: 'a damaged store never retries' },
	{ state: 'accepting', event: { type: 'reloaded' }, then: {}, effects: [], why: 'no reload was asked for' },
	// The timer starts one attempt at a time.
	{ state: 'waiting', event: { type: 'recoveryDue' }, then: { recovery: 'attempting' }, effects: [{ type: 'attemptRecovery' }], why: 'the timer fired' },
	{ state: 'damagedWaiting', event: { type: 'recoveryDue' }, then: { recovery: 'attempting' }, effects: [{ type: 'attemptRecovery' }], why: 'the attempt already due still runs (and fails on the damage)' },
	{ state: 'accepting', event: { type: 'recoveryDue' }, then: {}, effects: [], why: 'a stale timer does nothing' },
	{ state: 'attempting', event: { type: 'recoveryDue' }, then: {}, effects: [], why: 'never two attempts at once' },
	// How an attempt ends.
	{ state: 'attempting', event: { type: 'recoveryProved' }, then: { unavailable: undefined, recovery: 'none', recoveries: 1, lastRecoveryError: undefined }, effects: [{ type: 'announceResumed' }], why: 'a whole snapshot went to disk: writes resume and observers redo what was refused' },
	{ state: 'damagedAttempting', event: { type: 'recoveryProved' }, then: { unavailable: undefined, recovery: 'none', recoveries: 1 }, effects: [{ type: 'announceResumed' }], why: 'the disk took writes again; the damage still refuses them' },
	{ state: 'closedAttempting', event: { type: 'recoveryProved' }, then: { recovery: 'none' }, effects: [], why: 'closed meanwhile: nothing resumes' },
	{ state: 'attempting', event: { type: 'recoveryFailed', error: laterIoFailure }, then: { recovery: 'waiting', lastRecoveryError: laterIoFailure.message }, effects: [{ type: 'startRecoveryTimer', delay: 'retry' }], why: 'the disk is still full: try again later' },
	{ state: 'attempting', event: { type: 'recoveryFailed', error: new Error('EACCES: permission denied') }, then: { recovery: 'waiting', lastRecoveryError: 'EACCES: permission denied' }, effects: [{ type: 'startRecoveryTimer', delay: 'retry' }], why: 'an error of the file system may pass' },
	{ state: 'attempting', event: { type: 'recoveryFailed', error: new StoreError('store_closed', 'closed') }, then: { recovery: 'waiting', lastRecoveryError: 'closed' }, effects: [{ type: 'startRecoveryTimer', delay: 'retry' }], why: 'store_closed is no damage' },
	{ state: 'attempting', event: { type: 'recoveryFailed', error: damage }, then: { recovery: 'none', damaged: damage, lastRecoveryError: damage.message }, effects: [], why: 'damaged files stop the retries' },
	{ state: 'closedAttempting', event: { type: 'recoveryFailed', error: laterIoFailure }, then: { recovery: 'none', lastRecoveryError: laterIoFailure.message }, effects: [], why: 'closed: no further attempt' },
	{ state: 'closedAttempting', event: { type: 'recoveryStopped' }, then: { recovery: 'none' }, effects: [], why: 'the attempt saw the close and stopped' },
	{ state: 'waiting', event: { type: 'recoveryProved' }, then: {}, effects: [], why: 'only an attempt can prove anything' },
	// Damage noticed while open.
	{ state: 'accepting', event: { type: 'damageNoticed', damage }, then: { damaged: damage }, effects: [], why: 'no more writes or snapshots' },
	{ state: 'damaged', event: { type: 'damageNoticed', damage: foreign }, then: {}, effects: [], why: 'the first damage is the one reported' },
	{ state: 'waiting', event: { type: 'damageNoticed', damage }, then: { damaged: damage }, effects: [], why: 'the pending attempt runs and records why it failed' },
	// Closing.
	{ state: 'accepting', event: { type: 'closed' }, then: { closed: true }, effects: [], why: 'nothing pending' },
	{ state: 'waiting', event: { type: 'closed' }, then: { closed: true, recovery: 'none' }, effects: [{ type: 'cancelRecoveryTimer' }], why: 'no attempt after close' },
	{ state: 'attempting', event: { type: 'closed' }, then: { closed: true }, effects: [], why: 'close waits for the attempt in flight' },
	{ state: 'closed', event: { type: 'closed' }, then: {}, effects: [], why: 'idempotent' },
	// Automatic snapshots.
	{ state: 'accepting', event: grew(1_000), then: { autoSnapshot: true }, effects: [{ type: 'scheduleAutoSnapshot' }], why: 'the journal reached the threshold' },
	{ state: 'accepting', event: grew(999), then: {}, effects: [], why: 'below the threshold' },
	{ state: 'autoScheduled', event: grew(5_000), then: {}, effects: [], why: 'one automatic snapshot at a time' },
	{ state: 'closed', event: grew(5_000), then: {}, effects: [], why: 'closed' },
	{ state: 'backingOff', event: grew(5_000, t0 + 4_999), then: {}, effects: [], why: 'the last one failed less than 5 s ago' },
	{ state: 'backingOff', event: grew(5_000, t0 + 5_000), then: { autoSnapshot: true }, effects: [{ type: 'scheduleAutoSnapshot' }], why: 'the back-off is over' },
	{ state: 'autoScheduled', event: { type: 'autoSnapshotTurn' }, then: {}, effects: [{ type: 'takeAutoSnapshot' }], why: 'its turn came' },
	{ state: 'closedAutoScheduled', event: { type: 'autoSnapshotTurn' }, then: { autoSnapshot: false }, effects: [], why: 'closed before its turn (close takes the last snapshot)' },
	{ state: 'accepting', event: { type: 'autoSnapshotTurn' }, then: {}, effects: [], why: 'none was scheduled' },
	{ state: 'autoScheduled', event: { type: 'autoSnapshotFailed', error: new Error('ENOSPC'), now: t0 }, then: { lastSnapshotError: 'ENOSPC', snapshotRetryAt: 1_700_000_005_000 }, effects: [], why: 'back off 5 s' },
	{ state: 'autoScheduled', event: { type: 'autoSnapshotSettled' }, then: { autoSnapshot: false }, effects: [{ type: 'checkJournalSize' }], why: 'commits made meanwhile may have filled the journal again' },
	{ state: 'accepting', event: { type: 'autoSnapshotSettled' }, then: {}, effects: [], why: 'none was running' },
	// Any snapshot putting its image on disk.
	{ state: 'accepting', event: { type: 'snapshotWriting' }, then: { snapshotWriting: true }, effects: [], why: 'a journal failure now defers the reload' },
	{ state: 'afterTwoSnapshots', event: { type: 'snapshotWritten', now: t0 }, then: { snapshotWriting: false, snapshots: 3, lastSnapshotAt: t0, lastSnapshotError: undefined }, effects: [], why: 'counted, and the last error cleared' },
	{ state: 'afterTwoSnapshots', event: { type: 'snapshotNotWritten' }, then: { snapshotWriting: false }, effects: [], why: 'nothing counted' },
];

const allEvents: readonly WriteHealthEvent[] = [
	{ type: 'journalFailed', failure: ioFailure }, { type: 'reloaded' }, { type: 'reloadFailed', error: laterIoFailure },
	{ type: 'reloadFailed', error: foreign }, { type: 'recoveryDue' }, { type: 'recoveryProved' },
	{ type: 'recoveryFailed', error: laterIoFailure }, { type: 'recoveryFailed', error: damage }, { type: 'recoveryStopped' },
	{ type: 'damageNoticed', damage }, { type: 'closed' }, grew(5_000, t0 + 10_000), { type: 'autoSnapshotTurn' },
	{ type: 'autoSnapshotFailed', error: new Error('EIO'), now: t0 }, { type: 'autoSnapshotSettled' },
	{ type: 'snapshotWriting' }, { type: 'snapshotWritten', now: t0 }, { type: 'snapshotNotWritten' },
];

function run(health: WriteHealth, events: readonly WriteHealthEvent[]): { health: WriteHealth; effects: WriteHealthEffect[] } {
	const effects: WriteHealthEffect[] = [];
	for (const event of events) {
		const step = stepWriteHealth(health, event);
		health = step.health;
		effects.push(...step.effects);
	}
	return { health, effects };
}

describe('Store write health (writeHealth.ts)', () => {
	for (const row of table) {
		it(`${row.state} + ${row.event.type}: ${row.why}`, () => {
			const before = states[row.state];
			const step = stepWriteHealth(before, row.event);
			assert.deepEqual(step.health, { ...before, ...row.then });
			assert.deepEqual(step.effects, row.effects);
		});
	}

	it('a closed store starts no reload, timer, attempt or snapshot, whatever happens', () => {
		const starts = new Set(['reloadFromDisk', 'startRecoveryTimer', 'attemptRecovery', 'scheduleAutoSnapshot', 'takeAutoSnapshot']);
		for (const [name, state] of Object.entries(states).filter(([, s]) => s.closed)) {
			for (const event of allEvents) {
				const started = stepWriteHealth(state, event).effects.filter((e) => starts.has(e.type));
				assert.deepEqual(started, [], `${name} + ${event.type}`);
			}
		}
	});

	it('a damaged store never schedules another recovery attempt', () => {
		for (const [name, state] of Object.entries(states).filter(([, s]) => s.damaged)) {
			for (const event of allEvents) {
				const timers = stepWriteHealth(state, event).effects.filter((e) => e.type === 'startRecoveryTimer');
				assert.deepEqual(timers, [], `${name} + ${event.type}`);
			}
		}
	});

	it('refuses writes while damaged or unavailable, damage first', () => {
		assert.equal(writeRefusal(states.accepting), undefined);
		assert.equal(writeRefusal(states.waiting), ioFailure);
		assert.equal(writeRefusal(states.damaged), damage);
		assert.equal(writeRefusal(states.damagedWaiting), damage);
	});

	it('a full disk: fail, reload, two failed attempts, then writes resume once', () => {
		const { health, effects } = run(initialWriteHealth, [
			{ type: 'journalFailed', failure: ioFailure }, { type: 'reloaded' },
			{ type: 'recoveryDue' }, { type: 'snapshotWriting' }, { type: 'snapshotNotWritten' }, { type: 'recoveryFailed', error: laterIoFailure },
			{ type: 'recoveryDue' }, { type: 'snapshotWriting' }, { type: 'snapshotNotWritten' }, { type: 'recoveryFailed', error: laterIoFailure },
			{ type: 'recoveryDue' }, { type: 'snapshotWriting' }, { type: 'snapshotWritten', now: t0 }, { type: 'recoveryProved' },
		]);
		assert.deepEqual(effects.map((e) => e.type), [
			'reloadFromDisk', 'startRecoveryTimer',
			'attemptRecovery', 'startRecoveryTimer',
			'attemptRecovery', 'startRecoveryTimer',
			'attemptRecovery', 'announceResumed',
		]);
		assert.deepEqual(health, { ...initialWriteHealth, recoveries: 1, snapshots: 1, lastSnapshotAt: t0 });
		assert.equal(writeRefusal(health), undefined);
	});
});
