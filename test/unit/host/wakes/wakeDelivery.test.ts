// Wake delivery to source sessions.
import { strict as assert } from 'node:assert';
import { mainWakeId, wakeSubmitId } from '../../../../src/core/ids.js';
import { tuttiCliSkill } from '../../../../src/host/wakes/skill.js';
import { leaseMs, sourceCaller, WakeKit } from './wakeKit.js';

describe('wake delivery to source sessions', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open(); });
	afterEach(async () => { await kit.close(); });

	it('ManagedSourceSessionReceivesThePlanningPromptAsItsFirstTurn', async () => {
		const created = await kit.managed('Dark mode');
		const wakeId = mainWakeId(created.checkpointId, 1);
		await kit.tick();
		const [launch] = kit.runs.launches;
		assert.ok(launch, 'the initial_schedule wake started a Turn');
		assert.match(launch.runId, /^turn-[0-9a-f]{16}-a1$/);
		assert.equal(launch.target.id, 'src');
		assert.equal(launch.env.TUTTI_SESSION_ID, created.sourceSessionId);
		assert.equal(launch.env.TUTTI_ISSUE_ID, created.issueId);
		assert.ok(launch.env.TUTTI_SESSION_TOKEN, 'the Turn gets a session token');
		assert.deepEqual(kit.services.api.authenticate(launch.env.TUTTI_SESSION_TOKEN), sourceCaller(created.sourceSessionId));
		assert.ok(launch.stdinText.startsWith('<!-- TUTTI_MODE_CHECKPOINT_WAKE'), 'the wake marker is the first line');
		assert.ok(launch.stdinText.includes(tuttiCliSkill), 'the first Turn carries the injected skill');
		assert.ok(launch.stdinText.includes('Reach Dark mode.'), 'and the goal');
		assert.equal(launch.turn?.prompt, launch.stdinText);
		assert.equal(launch.turn?.resumeProviderSessionId, undefined);
		const wake = kit.wake(wakeId);
		assert.equal(wake.status, 'dispatched');
		assert.equal(wake.attemptCount, 1);
		assert.equal(wake.leaseOwner, '');
		const turn = kit.turn(wakeSubmitId(wakeId));
		assert.equal(turn?.state, 'running');
		assert.equal(turn?.sessionId, created.sourceSessionId);
	});

	it('SettledWakeTurnDoesNotResolveCheckpoint', async () => {
		const created = await kit.managed();
		await kit.tick();
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		const wake = kit.wake(mainWakeId(created.checkpointId, 1));
		assert.equal(wake.status, 'turn_settled');
		assert.equal(kit.turn(wake.clientSubmitId)?.state, 'settled');
		assert.equal(kit.turn(wake.clientSubmitId)?.outcome, 'success');
		const checkpoint = kit.checkpoint(created.checkpointId);
		assert.equal(checkpoint.status, 'active', 'a settled wake Turn is not a checkpoint command');
		assert.equal(kit.execution(created.executionId).status, 'awaiting_schedule');
		assert.equal(kit.execution(created.executionId).activeCheckpointId, created.checkpointId);
		await kit.tick();
		assert.equal(kit.turnLaunches().length, 1, 'no redelivery before the watchdog');
	});

	it('a wake Turn that its supervisor reports exited settles at once, without waiting for the runner to look', async () => {
		const created = await kit.managed();
		await kit.tick();
		const processId = kit.lastTurnProcess();
		kit.runs.exitUnseen(processId, { exitCode: 0 });
		await kit.call('run/report', { runId: processId, event: 'exited' }, sourceCaller(created.sourceSessionId));
		await kit.idle();
		const wake = kit.wake(mainWakeId(created.checkpointId, 1));
		assert.equal(kit.turn(wake.clientSubmitId)?.state, 'settled');
		assert.equal(wake.status, 'turn_settled');
	});

	it('CheckpointCommandAcknowledgesWakeAndLaterTurnsReuseTheSession', async () => {
		const created = await kit.managed();
		await kit.tick();
		const caller = sourceCaller(created.sourceSessionId);
		const mutated = await kit.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w' } }],
		}, caller);
		const scheduled = await kit.call('plan/schedule', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ['a'],
		}, caller);
		const wake1 = kit.wake(mainWakeId(created.checkpointId, 1));
		assert.equal(wake1.status, 'acknowledged');
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		assert.equal(kit.wake(wake1.wakeId).status, 'acknowledged', 'a Turn exit never reopens an acknowledged wake');
		const [runId] = scheduled.runIds;
		assert.ok(runId);
		kit.runs.exit(runId, { exitCode: 0 });
		await kit.idle();
		await kit.tick();
		const settledCp = kit.execution(created.executionId).activeCheckpointId;
		assert.match(settledCp, /:checkpoint:run:/);
		assert.equal(kit.wake(mainWakeId(settledCp, 1)).status, 'dispatched');
		const launches = kit.runs.launches.filter((l) => l.runId.startsWith('turn-'));
		assert.equal(launches.length, 2);
		assert.ok(!launches[1]!.stdinText.includes(tuttiCliSkill), 'only the first Turn carries the skill');
	});

	it('BusySourcePreservesPreparedMainWake', async () => {
		const source = await kit.sourceSession();
		const caller = sourceCaller(source);
		const one = await kit.call('plan/create', { title: 'One', content: 'x', requestId: 'c1' }, caller);
		const two = await kit.call('plan/create', { title: 'Two', content: 'y', requestId: 'c2' }, caller);
		await kit.tick();
		const wakeOne = kit.wake(mainWakeId(one.checkpointId, 1));
		const wakeTwo = kit.wake(mainWakeId(two.checkpointId, 1));
		assert.equal(wakeOne.status, 'dispatched');
		assert.equal(wakeTwo.status, 'prepared', 'the busy source session leaves the second wake prepared');
		assert.equal(wakeTwo.attemptCount, 0);
		assert.equal(kit.turnLaunches().length, 1);
		assert.equal(await kit.wakes.deliver(wakeTwo.wakeId), 'busy', 'a direct claim also sees the busy session');
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		assert.equal(kit.wake(wakeTwo.wakeId).status, 'dispatched', 'delivered once the session is free');
		assert.equal(kit.turnLaunches().length, 2);
	});

	it('ExpiredWakeLeaseRecoversWithOwnerFence', async () => {
		const created = await kit.managedQuiet();
		const wakeId = mainWakeId(created.checkpointId, 1);
		let release!: () => void;
		kit.runs.holdLaunch = new Promise((r) => { release = r; });
		const first = kit.wakes.deliver(wakeId);
		await new Promise((r) => setImmediate(r));
		assert.equal(kit.wake(wakeId).status, 'leased');
		const replica = kit.replica('owner-b');
		assert.equal(await replica.deliver(wakeId), 'skipped', 'a live lease is never taken over');
		kit.clock.advance(leaseMs);
		kit.runs.holdLaunch = undefined;
		assert.equal(await replica.deliver(wakeId), 'delivered', 'an expired lease is recovered by another owner');
		release();
		assert.equal(await first, 'skipped', 'the expired owner cannot finalize');
		const wake = kit.wake(wakeId);
		assert.equal(wake.status, 'dispatched');
		assert.equal(wake.clientSubmitId, wakeSubmitId(wakeId), 'one canonical identity across attempts');
		assert.equal(wake.attemptCount, 2);
		const [a1, a2] = kit.turnLaunches();
		assert.ok(a1 && a2 && a1 !== a2);
		assert.ok(kit.runs.interrupts.includes(a1), "the expired owner's process is canceled");
		assert.ok(!kit.runs.interrupts.includes(a2));
		assert.equal(kit.turn(wakeSubmitId(wakeId))?.processId, a2);
		replica.dispose();
	});

	it('LostResponseIsRecoveredBySubmitIdWithoutASecondTurn', async () => {
		const created = await kit.managed();
		const wakeId = mainWakeId(created.checkpointId, 1);
		await kit.tick();
		// The Host died after the Turn was accepted and before its final CAS: the lease is left behind.
		await kit.sql("UPDATE wakes SET status = 'leased', lease_owner = 'dead-host', lease_expires_at = ?, dispatched_at = 0 WHERE wake_id = ?", [kit.clock.now() + 10, wakeId]);
		await kit.tick();
		assert.equal(kit.wake(wakeId).status, 'leased', 'an unexpired lease of another owner is left alone');
		kit.clock.advance(10);
		await kit.tick();
		assert.equal(kit.wake(wakeId).status, 'dispatched');
		assert.equal(kit.turnLaunches().length, 1, 'the accepted Turn is found again by its submit id, never started twice');
	});

	it('WakeDeliveryFailuresRetainOneCanonicalIdentity', async () => {
		const created = await kit.managedQuiet();
		const wakeId = mainWakeId(created.checkpointId, 1);
		kit.runs.launchError = new Error('spawn failed');
		await kit.tick();
		let wake = kit.wake(wakeId);
		assert.equal(wake.status, 'prepared');
		assert.equal(wake.lastError, 'spawn failed');
		assert.equal(wake.attemptCount, 1);
		kit.runs.launchError = undefined;
		await kit.tick();
		wake = kit.wake(wakeId);
		assert.equal(wake.status, 'dispatched');
		assert.equal(wake.attemptCount, 2);
		assert.equal(wake.clientSubmitId, wakeSubmitId(wakeId));
		assert.equal(kit.wakesOf(created.executionId).length, 1);
	});

	it('CorruptedWakeIdentityFailsClosedPerField', async () => {
		const bySubmit = await kit.managedQuiet('A');
		const bySequence = await kit.managedQuiet('B');
		const byTarget = await kit.managedQuiet('C');
		const healthy = await kit.managedQuiet('D');
		// Quietly too: no wake pass delivers the four wakes before their rows are corrupted below.
		const other = await kit.gate.quietly(() => kit.sourceSession());
		const corruptA = mainWakeId(bySubmit.checkpointId, 1);
		const corruptB = mainWakeId(bySequence.checkpointId, 1);
		const corruptC = mainWakeId(byTarget.checkpointId, 1);
		await kit.sql('UPDATE wakes SET client_submit_id = ? WHERE wake_id = ?', ['tutti-execution-wake:forged', corruptA]);
		await kit.sql('UPDATE wakes SET wake_sequence = 7 WHERE wake_id = ?', [corruptB]);
		await kit.sql('UPDATE wakes SET target_session_id = ? WHERE wake_id = ?', [other, corruptC]);
		await kit.tick();
		const a = kit.wake(corruptA);
		assert.equal(a.status, 'failed');
		assert.match(a.lastError, /clientSubmitId is "tutti-execution-wake:forged"/);
		assert.doesNotMatch(a.lastError, /wakeId is|targetSessionId/);
		const b = kit.wake(corruptB);
		assert.equal(b.status, 'failed');
		assert.match(b.lastError, /wakeId is .* but must be .*:wake:main:7/);
		assert.doesNotMatch(b.lastError, /targetSessionId/);
		const c = kit.wake(corruptC);
		assert.equal(c.status, 'failed');
		assert.match(c.lastError, /targetSessionId is/);
		assert.doesNotMatch(c.lastError, /wakeId is|clientSubmitId is/);
		assert.equal(kit.wake(mainWakeId(healthy.checkpointId, 1)).status, 'dispatched', 'a failure is isolated to its wake');
		assert.equal(kit.turnLaunches().length, 1, 'nothing is sent for a corrupted identity');
	});

	it('BoundedWakeDeliveryDoesNotStarveLaterExecution', async () => {
		const shared = await kit.sourceSession();
		for (let i = 0; i < 3; i++) { await kit.call('plan/create', { title: `S${i}`, content: 'x', requestId: `s${i}` }, sourceCaller(shared)); }
		const later = await kit.managed('Later');
		await kit.tick();
		assert.equal(kit.wake(mainWakeId(later.checkpointId, 1)).status, 'dispatched', 'busy wakes of another session do not fill the bound');
	});
});

describe('wake Turns of a structured (claude) source target', () => {
	let kit: WakeKit;
	beforeEach(async () => {
		kit = await WakeKit.open({ config: { agentTargets: [{ id: 'src', adapter: 'claude', path: process.execPath }, { id: 'w', adapter: 'command', argv: ['true'] }] } });
	});
	afterEach(async () => { await kit.close(); });

	it('records the provider session id from the Turn facts and resumes it in the next Turn', async () => {
		const t0 = kit.clock.now();
		const created = await kit.managedQuiet();
		await kit.tick();
		const [first] = kit.runs.launches;
		assert.ok(first?.turn?.newProviderSessionId, 'a new claude session gets a known id');
		assert.equal(first.turn.resumeProviderSessionId, undefined);
		const providerSession = '0b6a4f2e-8c1d-4e5f-9a7b-123456789abc';
		kit.runs.logs.set(first.runId, `${JSON.stringify({ type: 'system', subtype: 'init', session_id: providerSession })}\n${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: providerSession })}\n`);
		kit.runs.exit(first.runId, { exitCode: 0 });
		await kit.idle();
		kit.clock.t = t0 + 5 * 60_000;
		await kit.tick();
		const second = kit.runs.launches[1];
		assert.ok(second, 'the watchdog wake started the next Turn');
		assert.equal(second.turn?.resumeProviderSessionId, providerSession);
		assert.equal(second.turn?.newProviderSessionId, undefined);
		assert.equal(second.env.TUTTI_SESSION_ID, created.sourceSessionId);
	});
});
