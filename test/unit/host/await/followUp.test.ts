// `issue/followUp` and its delivery by `await/next-action` (issue 4 "Next steps after completion") over a real store:
// developer only, after completion only, refused after Finish, durable, and offered exactly once.
import { strict as assert } from 'node:assert';
import { followUpRepository } from '../../../../src/store/repositories/followUpRepository.js';
import { rejects, ServiceHarness } from '../services/serviceHarness.js';
import { managedFixture, setExecution } from './awaitFixture.js';
import { SteppedWaitTimer } from './steppedWaitTimer.js';

describe('follow-up after completion', () => {
	let h: ServiceHarness;
	beforeEach(async () => { h = await ServiceHarness.open(); });
	afterEach(async () => { await h.close(); });

	it('is a developer action offered only on a completed issue, and replays the same pending text', async () => {
		const f = await managedFixture(h);
		await rejects(h.call('issue/followUp', { issueId: f.issueId, text: 'more' }), 'inactive_execution');
		await rejects(h.call('issue/followUp', { issueId: 'nope', text: 'more' }), 'issue_not_found');
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		await rejects(h.call('issue/followUp', { issueId: f.issueId, text: 'more' }, f.source.caller), 'forbidden');
		await rejects(h.call('issue/followUp', { issueId: f.issueId, text: '   ' }), 'invalid_input');
		const first = await h.call('issue/followUp', { issueId: f.issueId, text: 'Add tests' });
		assert.equal(first.replayed, false);
		assert.equal(first.next, `tutti plan issue create --title 'Follow-up: Add tests' --content 'Add tests' --request-id create-${first.followUpId} --json`);
		const again = await h.call('issue/followUp', { issueId: f.issueId, text: 'Add tests' });
		assert.deepEqual(again, { ...first, replayed: true });
		assert.equal(h.store.read((r) => followUpRepository.listByIssue(r, f.issueId)).length, 1);
	});

	it('next-action returns it once (consumption recorded), then waits again; a later follow-up comes next', async () => {
		const f = await managedFixture(h);
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		assert.equal((await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller)).state, 'waiting');
		const picked = await h.call('issue/followUp', { issueId: f.issueId, text: 'Add tests' });
		const offered = await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller);
		assert.equal(offered.state, 'follow_up');
		assert.equal(offered.advance_allowed, true);
		assert.equal(offered.note, 'Add tests');
		assert.equal(offered.next, picked.next);
		const rows = h.store.read((r) => followUpRepository.listByIssue(r, f.issueId));
		assert.ok((rows[0]?.consumedAtUnixMs ?? 0) > 0, 'consumption is recorded');
		assert.equal((await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller)).state, 'waiting', 'not offered twice');
		const second = await h.call('issue/followUp', { issueId: f.issueId, text: 'Add tests' });
		assert.equal(second.replayed, false, 'the same text after it was taken is a new follow-up');
		assert.notEqual(second.followUpId, picked.followUpId);
		assert.equal((await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller)).state, 'follow_up');
	});

	it('two concurrent next-action calls: exactly one gets the follow-up', async () => {
		const f = await managedFixture(h);
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		await h.call('issue/followUp', { issueId: f.issueId, text: 'Once' });
		const answers = await Promise.all([1, 2].map(() => h.call('await/next-action', { issueId: f.issueId, waitMs: 20 }, f.source.caller)));
		assert.deepEqual(answers.map((a) => a.state).sort(), ['follow_up', 'waiting']);
	});

	it('Finish recorded first wins: the follow-up is refused and next-action reports finished', async () => {
		const f = await managedFixture(h);
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		await h.call('issue/finish', { issueId: f.issueId });
		h.clock.advance(1000);
		await rejects(h.call('issue/followUp', { issueId: f.issueId, text: 'more' }), 'inactive_execution');
		assert.equal((await h.call('await/next-action', { issueId: f.issueId, waitMs: 10 }, f.source.caller)).state, 'finished');
	});

	it('a follow-up that lands while a next-action call waits ends that wait', async () => {
		await h.close();
		const timer = SteppedWaitTimer.holdingUntilCommit();
		h = await ServiceHarness.open({ awaitTimer: timer });
		timer.attach(h.store);
		const f = await managedFixture(h);
		await setExecution(h, f.issueId, { status: 'completed', completedAtUnixMs: h.clock.now() });
		const parked = timer.paused();
		const pending = h.call('await/next-action', { issueId: f.issueId, waitMs: 30_000 }, f.source.caller);
		await parked;
		await h.call('issue/followUp', { issueId: f.issueId, text: 'During the wait' });
		const answer = await pending;
		assert.equal(answer.state, 'follow_up');
		assert.equal(answer.note, 'During the wait');
	});
});
