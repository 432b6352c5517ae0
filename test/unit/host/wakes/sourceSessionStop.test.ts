// Source-session Stop: a durable inbox marker, then the archive of EVERY nonterminal execution
// of that source session, drained before any wake dispatch — also across a restart.
import { strict as assert } from 'node:assert';
import { mainWakeId, wakeSubmitId } from '../../../../src/core/ids.js';
import { archiveRepository } from '../../../../src/store/repositories/archiveRepository.js';
import { inboxRepository } from '../../../../src/store/repositories/inboxRepository.js';
import { rejects } from '../services/serviceHarness.js';
import { sourceCaller, WakeKit } from './wakeKit.js';

describe('source-session Stop', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open(); });
	afterEach(async () => { await kit.close(); });

	it('SourceSessionStopArchivesEveryNonterminalExecution', async () => {
		const source = await kit.sourceSession();
		const caller = sourceCaller(source);
		const idle = await kit.call('plan/create', { title: 'Idle', content: 'x', requestId: 'c1' }, caller);
		const working = await kit.call('plan/create', { title: 'Working', content: 'y', requestId: 'c2' }, caller);
		const done = await kit.call('plan/create', { title: 'Done', content: 'z', requestId: 'c3' }, caller);
		const unrelated = await kit.managedQuiet('Unrelated');
		await kit.idle();
		await kit.call('plan/mutate', {
			issueId: working.issueId, checkpointId: working.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w' } }],
		}, caller);
		const scheduled = await kit.call('plan/schedule', { issueId: working.issueId, checkpointId: working.checkpointId, expectedGraphRevision: 2, requestId: 's1', taskIds: ['a'] }, caller);
		await kit.call('plan/stop', { issueId: done.issueId, checkpointId: done.checkpointId, expectedGraphRevision: 1, requestId: 'st', reason: 'done' }, caller);
		await kit.idle();
		const ofSource = (): string[] => kit.runs.launches.filter((l) => l.env.TUTTI_SESSION_ID === source).map((l) => l.runId);
		const [sourceTurn] = ofSource();
		assert.ok(sourceTurn);

		await rejects(kit.call('session/stop', { sessionId: source }, caller), 'forbidden');
		const result = await kit.call('session/stop', { sessionId: source });
		assert.deepEqual([...result.archivedExecutionIds].sort(), [idle.executionId, working.executionId].sort());
		for (const e of [idle, working, done]) {
			assert.equal(kit.execution(e.executionId).status, 'archived', `${e.issueId} archived`);
			assert.equal(kit.issue(e.issueId).dispatchPaused, true);
			assert.ok(kit.wakesOf(e.executionId).every((w) => w.status === 'canceled' || w.status === 'acknowledged'));
		}
		assert.ok(kit.runs.interrupts.includes(sourceTurn), "the source agent's running Turn was stopped");
		const [runId] = scheduled.runIds;
		assert.ok(runId && kit.runs.interrupts.includes(runId), 'the Runs of archived executions are stopped');
		assert.equal(kit.execution(unrelated.executionId).status, 'awaiting_schedule', 'other sessions are untouched');
		const marker = kit.store.read((r) => inboxRepository.get(r, result.markerId));
		assert.ok(marker && marker.drainedAtUnixMs > 0 && marker.entityKind === 'stop');
		kit.clock.advance(10 * 60_000);
		await kit.tick();
		assert.deepEqual(ofSource(), [sourceTurn], 'the stopped source session is not woken again');
		assert.equal(kit.wakesOf(idle.executionId).length, 1, 'no wake after the Stop');
	});

	it('SourceSessionStopArchivesEveryNonterminalExecution across a restart (drained before any dispatch)', async () => {
		const source = await kit.sourceSession();
		const caller = sourceCaller(source);
		const first = await kit.call('plan/create', { title: 'First', content: 'x', requestId: 'c1' }, caller);
		const second = await kit.call('plan/create', { title: 'Second', content: 'y', requestId: 'c2' }, caller);
		await kit.idle();
		assert.equal(kit.wake(mainWakeId(first.checkpointId, 1)).status, 'dispatched');
		assert.equal(kit.wake(mainWakeId(second.checkpointId, 1)).status, 'prepared', 'the busy session defers the second wake');
		// The first Turn ended while the Host was down, and the Host stopped right after the Stop marker committed:
		// the second wake is deliverable, nothing drained the marker.
		kit.runs.alive.clear();
		await kit.store.transaction((tx) => {
			tx.run("UPDATE wakes SET status = 'turn_settled' WHERE wake_id = ?", [mainWakeId(first.checkpointId, 1)]);
			tx.run("UPDATE turns SET state = 'settled', outcome = 'success' WHERE session_id = ?", [source]);
			inboxRepository.insert(tx, { mutationId: 'inbox-crash', sessionId: source, entityKind: 'stop', entityId: '', createdAtUnixMs: kit.clock.now(), drainedAtUnixMs: 0 });
		});
		await kit.close(true);
		const after = await WakeKit.open({ dir: kit.dir, clock: kit.clock, scope: 'r2' });
		kit = after;
		await after.services.start();
		await after.idle();
		assert.equal(after.turnLaunches().length, 0, 'the stopped source session is never woken again');
		for (const e of [first, second]) {
			assert.equal(after.execution(e.executionId).status, 'archived');
			assert.ok(after.wakesOf(e.executionId).every((w) => w.status !== 'prepared' && w.status !== 'leased'));
		}
		const ops = after.store.read((r) => archiveRepository.listUnfinished(r));
		assert.equal(ops.length, 0, 'the archive operations completed');
		assert.ok((after.store.read((r) => inboxRepository.get(r, 'inbox-crash'))?.drainedAtUnixMs ?? 0) > 0);
	});

	/** Writes an undrained Stop marker of the session, as `session/stop` does before it interrupts and drains. */
	/** A durable Stop marker the Host has not drained yet (written quietly: no pass drains it before the test looks). */
	async function stopMarker(sessionId: string, mutationId = 'inbox-stop'): Promise<void> {
		await kit.gate.quietly(() => kit.store.transaction((tx) => {
			inboxRepository.insert(tx, { mutationId, sessionId, entityKind: 'stop', entityId: '', createdAtUnixMs: kit.clock.now(), drainedAtUnixMs: 0 });
		}));
	}

	/** Starts delivering `wakeId` and holds its Turn's launch; resolves once the launch is in flight. */
	async function deliverHeld(wakeId: string): Promise<{ delivery: Promise<string>; release: () => void }> {
		let release!: () => void;
		kit.runs.holdLaunch = new Promise((r) => { release = r; });
		const launch = kit.runs.launch.bind(kit.runs);
		const launching = new Promise<void>((resolve) => {
			kit.runs.launch = (spec) => { resolve(); return launch(spec); };
		});
		const delivery = kit.wakes.deliver(wakeId);
		await launching;
		kit.runs.holdLaunch = undefined;
		assert.equal(kit.wake(wakeId).status, 'leased', 'claimed; the Turn is being accepted');
		return { delivery, release };
	}

	it('a wake is not claimed while its source session has a Stop marker that is not drained yet', async () => {
		const created = await kit.managedQuiet();
		const wakeId = mainWakeId(created.checkpointId, 1);
		await stopMarker(created.sourceSessionId);
		assert.equal(await kit.wakes.deliver(wakeId), 'skipped');
		assert.equal(kit.wake(wakeId).status, 'prepared');
		assert.deepEqual(kit.turnLaunches(), [], 'no Turn for a stopped source session');
	});

	it('finalize refuses a session whose Stop marker landed while its Turn was accepted: that Turn is canceled', async () => {
		const created = await kit.managedQuiet();
		const wakeId = mainWakeId(created.checkpointId, 1);
		const { delivery, release } = await deliverHeld(wakeId);
		await stopMarker(created.sourceSessionId);
		release();
		assert.equal(await delivery, 'rotated');
		const [accepted] = kit.turnLaunches();
		assert.ok(accepted && kit.runs.interrupts.includes(accepted), 'the accepted Turn was interrupted');
		assert.equal(kit.wake(wakeId).status, 'canceled');
		assert.equal(kit.turn(wakeSubmitId(wakeId))?.outcome, 'cancellation');
		await kit.tick();
		assert.equal(kit.execution(created.executionId).status, 'archived', 'the marker drained');
		assert.deepEqual(kit.turnLaunches(), [accepted], 'never another Turn');
	});

	it('an archive that cancels a wake whose Turn is being launched interrupts that Turn once it started', async () => {
		const created = await kit.managedQuiet();
		const wakeId = mainWakeId(created.checkpointId, 1);
		const { delivery, release } = await deliverHeld(wakeId);
		await kit.call('session/stop', { sessionId: created.sourceSessionId });
		assert.equal(kit.execution(created.executionId).status, 'archived');
		assert.equal(kit.wake(wakeId).status, 'canceled');
		release();
		await delivery;
		await kit.idle();
		const [accepted] = kit.turnLaunches();
		assert.ok(accepted);
		assert.equal(kit.runs.alive.has(accepted), false, 'the canceled wake\'s Turn does not keep running');
		assert.equal(kit.turn(wakeSubmitId(wakeId))?.state, 'settled');
	});
});
