// Heartbeats (src/host/services/await/heartbeats.ts): which call a session waits in and since when, across the
// back-to-back calls of one wait, and the change event the board follows (no commit says a wait began).
import { strict as assert } from 'node:assert';
import { heartbeatFreshMs, Heartbeats } from '../../../../src/host/services/await/heartbeats.js';

describe('heartbeats', () => {
	it('keeps the start of a wait across back-to-back calls, and forgets it after a pause longer than the fresh period', () => {
		const h = new Heartbeats();
		h.beat('s', 1_000, 'await-review');
		h.beat('s', 3_000, 'await-review');
		h.clear('s', 4_000);
		h.beat('s', 4_500, 'await-review');
		assert.deepEqual(h.contact('s', 5_000), { waitingIn: 'await-review', waitingSinceUnixMs: 1_000, lastContactUnixMs: 4_500 });
		h.clear('s', 5_000);
		assert.equal(h.contact('s', 5_000 + heartbeatFreshMs).waitingIn, '', 'a returned call stops counting after the fresh period');
		h.beat('s', 20_000, 'await-review');
		assert.equal(h.contact('s', 20_000).waitingSinceUnixMs, 20_000);
	});

	it('a call of any kind is contact, not a wait', () => {
		const h = new Heartbeats();
		h.touch('s', 7_000);
		assert.deepEqual(h.contact('s', 7_000), { waitingIn: '', waitingSinceUnixMs: 0, lastContactUnixMs: 7_000 });
	});

	it('fires when a wait begins or ends and on a call, not on every beat of one wait', () => {
		const h = new Heartbeats();
		let fired = 0;
		h.onDidChange(() => { fired++; });
		h.beat('s', 1_000, 'plan issue await');
		h.beat('s', 1_250, 'plan issue await');
		h.beat('s', 1_500, 'plan issue await');
		assert.equal(fired, 1);
		h.clear('s', 2_000);
		h.touch('s', 2_100);
		assert.equal(fired, 3);
	});
});
