import { strict as assert } from 'node:assert';
import {
	type ActivityTrack, defaultStallSeconds, quietFor, stalledLabel, stallMsFor, stallProbeIntervalMs, stallStep, trackActivity,
} from '../../../../src/core/runs/stallRules.js';

const t0 = 1_700_000_000_000;

describe('stall rules', () => {
	it('the stall time: the target\'s, else the workspace\'s, else 600 s; 0 stays 0 (never)', () => {
		assert.equal(defaultStallSeconds, 600);
		assert.equal(stallMsFor(undefined, undefined), 600_000);
		assert.equal(stallMsFor({}, 120), 120_000);
		assert.equal(stallMsFor({ stallSeconds: 30 }, 120), 30_000);
		assert.equal(stallMsFor({ stallSeconds: 0 }, 120), 0);
		assert.equal(stallMsFor({}, 0), 0);
	});

	it('probes every tenth of the shortest stall time, between 1 s and 10 s; 10 s when nothing is ever marked', () => {
		assert.equal(stallProbeIntervalMs([600_000]), 10_000);
		assert.equal(stallProbeIntervalMs([600_000, 30_000]), 3_000);
		assert.equal(stallProbeIntervalMs([1_000]), 1_000);
		assert.equal(stallProbeIntervalMs([0, 0]), 10_000);
		assert.equal(stallProbeIntervalMs([0, 50_000]), 5_000);
	});

	describe('activity', () => {
		const probe = { processId: 'run-1', bytes: 10, writtenAtUnixMs: t0 + 5_000 };
		const base = { previous: undefined, probe, startedAtUnixMs: t0, mark: undefined, waitingForDeveloper: false, nowUnixMs: t0 + 60_000 };

		it('a Run first seen had its last activity at its files\' last write, never before its start nor after now', () => {
			assert.equal(trackActivity(base).lastActivityAtUnixMs, t0 + 5_000);
			assert.equal(trackActivity({ ...base, probe: { ...probe, writtenAtUnixMs: 0 } }).lastActivityAtUnixMs, t0, 'nothing written: its start');
			assert.equal(trackActivity({ ...base, probe: { ...probe, writtenAtUnixMs: t0 + 90_000 } }).lastActivityAtUnixMs, t0 + 60_000, 'a file time ahead of the clock: now');
			assert.equal(trackActivity({ ...base, mark: { lastActivityAtUnixMs: t0 + 20_000 } }).lastActivityAtUnixMs, t0 + 20_000, 'never before its mark');
		});

		it('new bytes, a later write or a new Turn process are activity now; the same output keeps the last activity', () => {
			const previous: ActivityTrack = { ...probe, lastActivityAtUnixMs: t0 + 5_000 };
			const next = (over: Partial<typeof probe>): number => trackActivity({ ...base, previous, probe: { ...probe, ...over } }).lastActivityAtUnixMs;
			assert.equal(next({}), t0 + 5_000);
			assert.equal(next({ bytes: 11 }), t0 + 60_000);
			assert.equal(next({ writtenAtUnixMs: t0 + 6_000 }), t0 + 60_000);
			assert.equal(next({ processId: 'turn-2' }), t0 + 60_000);
		});

		it('a Run waiting for the developer\'s answer is not silent', () => {
			const previous: ActivityTrack = { ...probe, lastActivityAtUnixMs: t0 + 5_000 };
			assert.equal(trackActivity({ ...base, previous, waitingForDeveloper: true }).lastActivityAtUnixMs, t0 + 60_000);
		});
	});

	it('marks at exactly the stall time, never with stall time 0; lifts a mark only on activity after the one it recorded', () => {
		const step = (last: number, now: number, mark?: number, stallMs = 60_000): string =>
			stallStep({ lastActivityAtUnixMs: last, mark: mark === undefined ? undefined : { lastActivityAtUnixMs: mark }, stallMs, nowUnixMs: now });
		assert.equal(step(t0, t0 + 59_999), 'none');
		assert.equal(step(t0, t0 + 60_000), 'mark');
		assert.equal(step(t0, t0 + 10 * 60_000, undefined, 0), 'none');
		assert.equal(step(t0, t0 + 120_000, t0), 'none', 'still silent: the mark stays');
		assert.equal(step(t0 + 1, t0 + 120_000, t0), 'clear');
	});

	it('says how long in words that never say failed', () => {
		assert.deepEqual([quietFor(45_999), quietFor(60_000), quietFor(12 * 60_000 + 59_000), quietFor(125 * 60_000), quietFor(-5)], ['45 s', '1 min', '12 min', '2 h 05 min', '0 s']);
		assert.equal(stalledLabel(t0, t0 + 12 * 60_000), 'Stalled: no activity for 12 min');
	});
});
