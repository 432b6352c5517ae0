// Pause at every wake boundary and the race with an accepted wake Turn; restart is never a
// resume (item 24).
import { strict as assert } from 'node:assert';
import { mainWakeId, wakeSubmitId } from '../../../../src/core/ids.js';
import { leaseMs, WakeKit } from './wakeKit.js';

async function pauseWhileLaunching(kit: WakeKit, issueId: string, wakeId: string): Promise<Promise<string>> {
	let release!: () => void;
	kit.runs.holdLaunch = new Promise((r) => { release = r; });
	const delivery = kit.wakes.deliver(wakeId);
	await new Promise((r) => setImmediate(r));
	assert.equal(kit.wake(wakeId).status, 'leased', 'claimed; the Turn is being accepted');
	await kit.call('issue/pause', { issueId });
	kit.runs.holdLaunch = undefined;
	release();
	return delivery;
}

describe('pause races on wake delivery', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open(); });
	afterEach(async () => { await kit.close(); });

	it('PausedFinalizeRotatesWakeForImmediateResume', async () => {
		const created = await kit.managedQuiet();
		const first = mainWakeId(created.checkpointId, 1);
		assert.equal(await (await pauseWhileLaunching(kit, created.issueId, first)), 'rotated');
		const [accepted] = kit.turnLaunches();
		assert.ok(accepted);
		assert.ok(kit.runs.interrupts.includes(accepted), 'the accepted Turn was canceled');
		assert.equal(kit.wake(first).status, 'canceled');
		assert.equal(kit.turn(wakeSubmitId(first))?.state, 'settled');
		assert.equal(kit.turn(wakeSubmitId(first))?.outcome, 'cancellation');
		const second = kit.wake(mainWakeId(created.checkpointId, 2));
		assert.equal(second.status, 'prepared', 'the next sequence is prepared under the same checkpoint');
		assert.notEqual(second.clientSubmitId, wakeSubmitId(first), 'with a fresh submit id');
		assert.equal(kit.checkpoint(created.checkpointId).status, 'active');
		await kit.tick();
		assert.equal(kit.wake(second.wakeId).status, 'prepared', 'hidden while paused');
		assert.equal(kit.turnLaunches().length, 1);
		await kit.call('issue/resume', { issueId: created.issueId });
		await kit.idle();
		assert.equal(kit.wake(second.wakeId).status, 'dispatched', 'an immediate resume redelivers (no lease to wait out)');
		assert.equal(kit.turnLaunches().length, 2);
	});

	it('FailedPausedTurnCancellationRetainsWakeLease', async () => {
		const created = await kit.managedQuiet();
		const first = mainWakeId(created.checkpointId, 1);
		kit.runs.interruptBehaviour = () => ({ result: 'still_running' });
		assert.equal(await (await pauseWhileLaunching(kit, created.issueId, first)), 'cancel_failed');
		const leased = kit.wake(first);
		assert.equal(leased.status, 'leased', 'the lease is kept until it expires');
		assert.equal(leased.leaseOwner, kit.wakes.owner);
		assert.match(leased.lastError, /lease is kept/);
		assert.equal(kit.wakesOf(created.executionId).length, 1, 'no overlapping next sequence');
		await kit.call('issue/resume', { issueId: created.issueId });
		await kit.idle();
		assert.equal(kit.wake(first).status, 'leased', 'not redelivered before the lease expires');
		assert.equal(kit.turnLaunches().length, 1);
		kit.clock.advance(leaseMs);
		await kit.tick();
		assert.equal(kit.wake(first).status, 'dispatched', 'after expiry the still-running accepted Turn is recovered by its submit id');
		assert.equal(kit.turnLaunches().length, 1, 'never a second Turn');
	});

	it('pause gates the listing and the claim', async () => {
		const created = await kit.managedQuiet();
		await kit.call('issue/pause', { issueId: created.issueId });
		await kit.tick();
		assert.equal(await kit.wakes.deliver(mainWakeId(created.checkpointId, 1)), 'skipped');
		assert.equal(kit.wake(mainWakeId(created.checkpointId, 1)).status, 'prepared');
		assert.equal(kit.turnLaunches().length, 0);
	});

	it('StartupSuppressesNonRunnableExecutionWakes (restart is never a resume)', async () => {
		const completed = await kit.managedQuiet('Completed');
		const paused = await kit.managedQuiet('Paused');
		const live = await kit.managedQuiet('Live');
		await kit.sql("UPDATE executions SET status = 'completed' WHERE execution_id = ?", [completed.executionId]);
		// Before the restart nothing was delivered: the pause is set up quietly too.
		await kit.gate.quietly(() => kit.call('issue/pause', { issueId: paused.issueId }));
		await kit.close(true);
		const after = await WakeKit.open({ dir: kit.dir, clock: kit.clock, scope: 'r2' });
		kit = after;
		await after.services.start();
		await after.idle();
		const c = after.wake(mainWakeId(completed.checkpointId, 1));
		assert.equal(c.status, 'canceled', 'a completed execution keeps no open wake');
		assert.equal(after.wake(mainWakeId(paused.checkpointId, 1)).status, 'prepared', 'a paused one keeps its wake, undelivered');
		assert.equal(after.issue(paused.issueId).dispatchPaused, true, 'restart does not resume');
		assert.equal(after.wake(mainWakeId(live.checkpointId, 1)).status, 'dispatched');
		assert.equal(after.turnLaunches().length, 1);
		assert.equal(after.wakesOf(paused.executionId).length, 1);
	});
});
