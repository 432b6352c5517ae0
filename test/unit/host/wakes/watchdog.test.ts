// The inactivity watchdog with a fake clock.
import { strict as assert } from 'node:assert';
import { mainWakeId, wakeSubmitId, watchdogCheckpointId } from '../../../../src/core/ids.js';
import { fiveMinutes, sourceCaller, WakeKit } from './wakeKit.js';

describe('the inactivity watchdog', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open(); });
	afterEach(async () => { await kit.close(); });

	async function deliveredAndSettled(): Promise<{ issueId: string; executionId: string; checkpointId: string; sourceSessionId: string }> {
		const created = await kit.managedQuiet();
		await kit.tick();
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		return created;
	}

	it('WatchdogDeadlineIsExactlyFiveMinutesAfterRelevantActivity', async () => {
		const t0 = kit.clock.now();
		const created = await kit.managedQuiet();
		assert.equal(kit.execution(created.executionId).watchdogDueAtUnixMs, t0 + fiveMinutes);
		await kit.tick();
		kit.clock.advance(30_000);
		const t1 = kit.clock.now();
		const mutated = await kit.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w' } }],
		}, sourceCaller(created.sourceSessionId));
		assert.equal(kit.execution(created.executionId).watchdogDueAtUnixMs, t1 + fiveMinutes, 'a valid command resets the deadline');
		kit.clock.advance(1_000);
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		const afterTurn = kit.execution(created.executionId);
		assert.equal(afterTurn.lastOrchestratorActivityAtUnixMs, t1, 'the wake prompt\'s own Turn is not orchestrator activity');
		assert.equal(afterTurn.watchdogDueAtUnixMs, t1 + fiveMinutes);

		kit.clock.t = t1 + fiveMinutes - 1;
		await kit.tick();
		assert.equal(kit.wakesOf(created.executionId).length, 1, 'one millisecond early: nothing');
		kit.clock.t = t1 + fiveMinutes;
		await kit.tick();
		const wakes = kit.wakesOf(created.executionId);
		assert.equal(wakes.length, 2, 'exactly at the deadline: the next wake');
		const second = kit.wake(mainWakeId(created.checkpointId, 2));
		assert.equal(second.status, 'dispatched');
		assert.match(second.prompt, new RegExp(`Graph revision: ${mutated.graphRevision}`));
		assert.equal(kit.execution(created.executionId).watchdogDueAtUnixMs, t1 + 2 * fiveMinutes, 'the next fixed deadline');
	});

	it('SettledWakeWithoutCommandCreatesNextFixedSequence', async () => {
		const t0 = kit.clock.now();
		const created = await deliveredAndSettled();
		kit.clock.t = t0 + fiveMinutes;
		await kit.tick();
		const second = kit.wake(mainWakeId(created.checkpointId, 2));
		assert.equal(second.clientSubmitId, wakeSubmitId(mainWakeId(created.checkpointId, 2)));
		assert.equal(second.checkpointId, created.checkpointId, 'same checkpoint');
		assert.equal(kit.checkpoint(created.checkpointId).status, 'active');
		// The second Turn is still running at the next deadline: delivery is pending, no third wake.
		kit.clock.t = t0 + 2 * fiveMinutes;
		await kit.tick();
		assert.equal(kit.wakesOf(created.executionId).length, 2);
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 1 });
		await kit.idle();
		assert.equal(kit.wake(second.wakeId).status, 'turn_settled', 'a failed Turn settles the wake too');
		kit.clock.t = t0 + 3 * fiveMinutes;
		await kit.tick();
		assert.equal(kit.wake(mainWakeId(created.checkpointId, 3)).status, 'dispatched');
		assert.equal(kit.execution(created.executionId).watchdogDueAtUnixMs, t0 + 4 * fiveMinutes);
	});

	it('creates a watchdog checkpoint when no checkpoint is active', async () => {
		const t0 = kit.clock.now();
		const created = await kit.managedQuiet();
		const caller = sourceCaller(created.sourceSessionId);
		await kit.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w' } }],
		}, caller);
		await kit.call('plan/schedule', { issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 2, requestId: 's1', taskIds: ['a'] }, caller);
		await kit.idle();
		assert.equal(kit.turnLaunches().length, 0, 'the initial wake was acknowledged by schedule before delivery');
		assert.equal(kit.execution(created.executionId).status, 'running');
		assert.equal(kit.execution(created.executionId).activeCheckpointId, '');
		kit.clock.t = t0 + fiveMinutes;
		await kit.tick();
		const execution = kit.execution(created.executionId);
		const expectedId = watchdogCheckpointId(created.executionId, 2);
		assert.equal(execution.activeCheckpointId, expectedId);
		assert.equal(execution.status, 'awaiting_main');
		assert.equal(kit.checkpoint(expectedId).kind, 'watchdog');
		assert.equal(kit.wake(mainWakeId(expectedId, 1)).status, 'dispatched');
	});

	it('watchdog repair rebinds an active checkpoint whose revision trails the execution', async () => {
		const t0 = kit.clock.now();
		const created = await deliveredAndSettled();
		await kit.sql('UPDATE executions SET graph_revision = 3 WHERE execution_id = ?', [created.executionId]);
		kit.clock.t = t0 + fiveMinutes;
		await kit.tick();
		assert.equal(kit.checkpoint(created.checkpointId).graphRevision, 3, 'rebound to the execution revision');
		const next = kit.wake(mainWakeId(created.checkpointId, 2));
		assert.match(next.prompt, /Graph revision: 3/);
		assert.match(next.prompt, /--expected-graph-revision 3/);
		// The rebound checkpoint now passes the fences.
		const snapshot = await kit.call('plan/get', { issueId: created.issueId }, sourceCaller(created.sourceSessionId));
		assert.equal(snapshot.execution?.graphRevision, 3);
		assert.equal(snapshot.activeCheckpoint?.graphRevision, 3);
	});

	it('NonRunnableExecutionSuppressesWatchdog', async () => {
		const t0 = kit.clock.now();
		const paused = await kit.managedQuiet('Paused');
		const stopped = await kit.managedQuiet('Stopped');
		const completed = await kit.managedQuiet('Completed');
		// Set up quietly: no wake pass delivers the other issues' initial wakes before they are paused, stopped, completed.
		await kit.gate.quietly(() => kit.call('issue/pause', { issueId: paused.issueId }));
		await kit.gate.quietly(() => kit.call('plan/stop', {
			issueId: stopped.issueId, checkpointId: stopped.checkpointId, expectedGraphRevision: 1, requestId: 'stop-1', reason: 'not needed',
		}, sourceCaller(stopped.sourceSessionId)));
		await kit.sql("UPDATE executions SET status = 'completed', active_checkpoint_id = '' WHERE execution_id = ?", [completed.executionId]);
		await kit.sql("UPDATE checkpoints SET status = 'resolved' WHERE execution_id = ?", [completed.executionId]);
		await kit.idle();
		for (const minutes of [5, 10, 15]) {
			kit.clock.t = t0 + minutes * 60_000;
			await kit.tick();
		}
		assert.equal(kit.turnLaunches().length, 0, 'no wake was delivered');
		for (const e of [paused, stopped, completed]) {
			assert.equal(kit.wakesOf(e.executionId).length, 1, `no new wake for ${e.issueId}`);
			assert.equal(kit.checkpointsOf(e.executionId).length, 1, `no watchdog checkpoint for ${e.issueId}`);
		}
		assert.equal(kit.wake(mainWakeId(paused.checkpointId, 1)).status, 'prepared', 'pause keeps the wake');
		await kit.call('issue/resume', { issueId: paused.issueId });
		await kit.idle();
		assert.equal(kit.wake(mainWakeId(paused.checkpointId, 1)).status, 'dispatched', 'resume continues from the same wake');
		assert.equal(kit.wakesOf(paused.executionId).length, 1);
	});
});
