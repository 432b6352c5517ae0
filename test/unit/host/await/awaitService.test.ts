// The Host's bounded waits, resume, session state and Finish over a real store.
import { strict as assert } from 'node:assert';
import { finishRepository } from '../../../../src/store/repositories/finishRepository.js';
import { idleAfterMs } from '../../../../src/host/services/await/heartbeats.js';
import { rejects, ServiceHarness, user } from '../services/serviceHarness.js';
import { managedFixture, putTask, setExecution, taskRow } from './awaitFixture.js';
import { SteppedWaitTimer } from './steppedWaitTimer.js';

describe('await service', () => {
	let h: ServiceHarness;
	beforeEach(async () => { h = await ServiceHarness.open(); });
	afterEach(async () => { await h.close(); });

	it('returns a waiting response after the bound, with the cumulative wait from the durable entry time', async () => {
		const f = await managedFixture(h);
		await putTask(h, taskRow(f.issueId, 'a', 'pending_acceptance', h.clock.now() - 600_000));
		const response = await h.call('await/review', { issueId: f.issueId, taskId: 'a', waitMs: 20 }, f.source.caller);
		assert.equal(response.state, 'waiting');
		assert.equal(response.advance_allowed, false);
		assert.equal(response.waited_seconds, 600);
		assert.equal(response.next, `tutti await-review --issue-id ${f.issueId} --task-id a`);
		assert.equal(response.session_id, f.source.sessionId);
	});

	it('without waitMs a call waits 45 s of real time, no less, and says so (the Host\'s default bound)', async () => {
		await h.close();
		const timer = SteppedWaitTimer.elapsing();
		h = await ServiceHarness.open({ awaitTimer: timer });
		const f = await managedFixture(h);
		await putTask(h, taskRow(f.issueId, 'a', 'pending_acceptance', h.clock.now()));
		const response = await h.call('await/review', { issueId: f.issueId, taskId: 'a' }, f.source.caller);
		assert.equal(response.state, 'waiting');
		assert.equal(timer.t, 45_000, `it waited ${timer.t} ms over ${timer.pauses.length} pauses`);
		assert.equal(response.wait_timeout_seconds, 45);
		const checkpoint = await h.call('await/checkpoint', { issueId: f.issueId }, f.source.caller);
		assert.equal(checkpoint.wait_timeout_seconds, 45);
		assert.equal(timer.t, 90_000, 'await/checkpoint has the same default bound');
	});

	it('keeps a heartbeat while the call waits, returns the decision that lands during it and clears the heartbeat', async () => {
		await h.close();
		const timer = SteppedWaitTimer.holdingUntilCommit();
		h = await ServiceHarness.open({ awaitTimer: timer });
		timer.attach(h.store);
		const f = await managedFixture(h);
		await putTask(h, taskRow(f.issueId, 'a', 'pending_acceptance', h.clock.now()));
		const parked = timer.paused();
		const pending = h.call('await/review', { issueId: f.issueId, taskId: 'a', waitMs: 30_000 }, f.source.caller);
		await parked;
		const during = await h.call('session/state', { sessionId: f.source.sessionId });
		assert.equal(during.activity, 'waiting');
		// The developer accepts while the call waits (the commit wakes it).
		await putTask(h, { ...taskRow(f.issueId, 'a', 'completed', h.clock.now()), acceptanceState: 'user_accepted' });
		const response = await pending;
		assert.equal(response.state, 'accepted');
		assert.equal(response.advance_allowed, true);
		assert.equal(response.next, `tutti plan issue await --issue-id ${f.issueId}`);
		const after = await h.call('session/state', { sessionId: f.source.sessionId });
		assert.notEqual(after.activity, 'waiting');
		assert.equal(after.handBackCommand, `tutti agent resume --session-id ${f.source.sessionId}`);
	});

	it('clears the heartbeat on every outcome (waiting, decision, failure)', async () => {
		const f = await managedFixture(h);
		await putTask(h, taskRow(f.issueId, 'a', 'pending_acceptance', h.clock.now()));
		const calls = [
			() => h.call('await/review', { issueId: f.issueId, waitMs: 10 }, f.source.caller),
			() => h.call('await/review', { issueId: f.issueId, taskId: 'missing', waitMs: 10 }, f.source.caller),
			() => h.call('await/checkpoint', { issueId: f.issueId, waitMs: 10 }, f.source.caller),
		];
		for (const call of calls) {
			await call();
			assert.equal((await h.call('session/state', { sessionId: f.source.sessionId })).lastHeartbeatAtUnixMs, 0);
		}
	});

	it('reports a session idle after two minutes without a heartbeat or a change', async () => {
		const f = await managedFixture(h);
		assert.equal((await h.call('session/state', { sessionId: f.source.sessionId })).activity, 'working');
		h.clock.advance(idleAfterMs);
		const state = await h.call('session/state', { sessionId: f.source.sessionId });
		assert.equal(state.activity, 'idle');
		assert.equal(state.next, `tutti plan issue await --issue-id ${f.issueId}`);
		assert.equal((await h.call('agent/resume', {}, f.source.caller)).activity, 'idle');
	});

	it('resume is read-only, resolves the session from the token and never reads another session', async () => {
		const f = await managedFixture(h);
		const before = h.store.stats();
		const response = await h.call('agent/resume', {}, f.source.caller);
		assert.equal(response.next, `tutti plan issue await --issue-id ${f.issueId}`);
		assert.equal(response.session_id, f.source.sessionId);
		assert.deepEqual(h.store.stats().seq, before.seq);
		await rejects(h.call('agent/resume', { sessionId: 'session-other' }, f.source.caller), 'forbidden');
		await rejects(h.call('agent/resume', {}, user), 'invalid_input');
		assert.equal((await h.call('agent/resume', { sessionId: f.source.sessionId }, user)).next, response.next);
	});

	it('records Finish only on a completed issue, once; resume then offers nothing', async () => {
		const f = await managedFixture(h);
		await rejects(h.call('issue/finish', { issueId: f.issueId }), 'inactive_execution');
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		assert.equal((await h.call('agent/resume', {}, f.source.caller)).next, `tutti next-action --issue-id ${f.issueId}`);
		await rejects(h.call('issue/finish', { issueId: f.issueId }, f.source.caller), 'forbidden');
		const first = await h.call('issue/finish', { issueId: f.issueId });
		assert.equal(first.replayed, false);
		h.clock.advance(1000);
		const again = await h.call('issue/finish', { issueId: f.issueId });
		assert.deepEqual({ ...again, cleanup: undefined }, { issueId: f.issueId, finishedAtUnixMs: first.finishedAtUnixMs, replayed: true, notIntegrated: false, cleanup: undefined });
		assert.equal(h.store.read((r) => finishRepository.finishedAt(r, f.issueId)), first.finishedAtUnixMs);
		const resumed = await h.call('agent/resume', {}, f.source.caller);
		assert.equal(resumed.state, 'finished');
		assert.equal(resumed.next, undefined);
		const next = await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller);
		assert.equal(next.state, 'finished');
	});

	it('answers an unknown issue with a failure that carries a recovery', async () => {
		const response = await h.call('await/checkpoint', { issueId: 'nope', waitMs: 10 }, user);
		assert.equal(response.ok, false);
		assert.equal(response.error?.reasonCode, 'issue_not_found');
		assert.equal(response.recovery?.next, 'tutti issue list --json');
	});
});
