import { strict as assert } from 'node:assert';
import { archiveRepository } from '../../../../src/store/repositories/archiveRepository.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { PlanKit, rejects, requestId, taskSpec, user } from './planKit.js';

describe('plan service: complete, stop, pause and resume', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	/** An issue at its active Goal Review checkpoint. */
	async function atGoalReview(): Promise<Awaited<ReturnType<PlanKit['managedIssue']>>> {
		const issue = await kit.managedIssue([taskSpec('a')]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		await issue.accept('a'); // only the developer accepts a's result (acknowledge no longer does)
		await issue.acknowledge();
		assert.equal(issue.execution().status, 'pending_goal_review');
		return issue;
	}

	it('GoalReviewCompletionIdentityIsFencedAndIdempotent', async () => {
		const issue = await atGoalReview();
		const fence = await issue.fence();
		await rejects(issue.complete({ ...fence, expectedGraphRevision: fence.expectedGraphRevision + 1 }), 'inactive_checkpoint');
		await rejects(issue.complete({ ...fence, caller: await kit.session('source') }), ['wrong_source_session', 'inactive_checkpoint']);
		await rejects(issue.complete({ ...fence, caller: user }), ['wrong_source_session', 'inactive_checkpoint']);
		const done = await issue.complete({ ...fence, requestId: 'c1', disagreementReason: 'fine' });
		assert.deepEqual(done, { executionId: issue.executionId, checkpointId: fence.checkpointId, graphRevision: fence.expectedGraphRevision, decision: 'goal_satisfied', replayed: false, executionStatus: 'completed' });
		assert.deepEqual(await issue.complete({ ...fence, requestId: 'c1', disagreementReason: 'fine' }), { ...done, replayed: true });
		await rejects(issue.complete({ ...fence, requestId: 'c1', disagreementReason: 'other' }), 'request_id_conflict');
		await rejects(issue.complete({ ...fence, requestId: 'c2' }), 'inactive_checkpoint');
		const issueRow = kit.store.read((r) => issueRepository.get(r, issue.issueId))!;
		assert.equal(issueRow.status, 'completed');
		assert.equal(issue.execution().status, 'completed');
		assert.ok(issue.execution().completedAtUnixMs > 0);
	});

	it('SourceAgentStopRequiresCurrentCheckpoint; stop archives, cancels checkpoints and wakes, stops Runs, replays after the first stop', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b'), taskSpec('c')]);
		const { runIds } = await issue.schedule(['a', 'b', 'c']);
		await kit.settle(runIds[0]!, 'success');
		await kit.settle(runIds[1]!, 'failure');
		const fence = await issue.fence();
		await rejects(issue.stop('x', { ...fence, expectedGraphRevision: fence.expectedGraphRevision + 1 }), 'inactive_checkpoint');
		await rejects(issue.stop('x', { ...fence, checkpointId: `${fence.checkpointId}:nope` }), 'inactive_checkpoint');
		await rejects(issue.stop('x', { ...fence, caller: await kit.session('source') }), ['inactive_checkpoint', 'wrong_source_session']);
		assert.equal(kit.admission.stops.length, 0);

		// A canceller that publishes settlement synchronously before returning (its settlement is suppressed).
		kit.admission.onStop = async () => {
			for (const run of kit.store.read((r) => runRepository.listByIssue(r, issue.issueId)).filter((x) => x.status === 'running')) {
				await kit.settle(run.runId, 'cancellation');
			}
		};
		const checkpointsBefore = issue.checkpoints().length;
		const first = await issue.stop('goal abandoned', { ...fence, requestId: 'stop-1' });
		assert.deepEqual(kit.admission.stops, [{ issueId: issue.issueId, reason: 'host' }]);
		assert.equal(first.replayed, false);
		assert.equal(first.status, 'completed');
		assert.equal(first.reason, 'goal abandoned');
		assert.equal(first.issueId, issue.issueId);

		const s = await issue.get();
		assert.equal(s.execution.status, 'archived');
		assert.equal(s.execution.archiveReason, 'goal abandoned');
		assert.equal(s.dispatchPaused, true);
		assert.equal(s.activeCheckpoint, null);
		assert.deepEqual(s.checkpoints, []);
		assert.deepEqual(s.allowedActions, []);
		assert.equal(issue.checkpoints().length, checkpointsBefore, 'no settlement checkpoint while archiving; history kept');
		assert.ok(issue.checkpoints().every((c) => c.status === 'resolved' || c.status === 'canceled'));
		assert.ok(issue.wakes().length >= 2, 'wakes are never deleted');
		assert.ok(issue.wakes().every((w) => w.status === 'acknowledged' || w.status === 'canceled'));
		assert.equal(kit.store.read((r) => issueRepository.get(r, issue.issueId))!.status, 'archived');
		const op = kit.store.read((r) => archiveRepository.get(r, first.operationId))!;
		assert.deepEqual([op.status, op.requestId, op.requestedBy], ['completed', 'stop-1', issue.source.sessionId]);

		const replay = await issue.stop('goal abandoned', { ...fence, requestId: 'stop-1' });
		assert.deepEqual(replay, { ...first, replayed: true });
		assert.equal(kit.admission.stops.length, 1, 'a replay stops nothing again');
		await rejects(issue.stop('another reason', { ...fence, requestId: 'stop-1' }), 'request_id_conflict');
		await rejects(issue.stop('again', fence), 'inactive_checkpoint');
		await rejects(issue.mutate([{ kind: 'add', task: taskSpec('late') }], fence), 'inactive_execution');
		await rejects(kit.plan.resume({ issueId: issue.issueId }, issue.source), 'inactive_execution');
	});

	it('ArchiveCancellationFailureRecoversAfterRestart: a failed Run cancellation is recorded and finished by repair', async () => {
		const issue = await kit.managedIssue([taskSpec('a')]);
		await issue.schedule(['a'], { requestId: 'sched' });
		await kit.settle(await issue.runOf('a'), 'success');
		kit.admission.failNextStop = new Error('agent host unavailable');
		const fence = await issue.fence();
		const first = await issue.stop('enough', { ...fence, requestId: 'stop-f' });
		assert.equal(first.status, 'failed');
		assert.equal(issue.execution().status, 'archiving');
		const op = kit.store.read((r) => archiveRepository.get(r, first.operationId))!;
		assert.deepEqual([op.status, op.attemptCount, op.lastError], ['failed', 1, 'agent host unavailable']);
		await kit.plan.repairOnStart();
		assert.equal(issue.execution().status, 'archived');
		assert.equal(kit.admission.stops.length, 2);
		const replay = await issue.stop('enough', { ...fence, requestId: 'stop-f' });
		assert.equal(replay.status, 'completed', 'the replay reports how far the archive got');
	});

	it('pause: snapshot without schedule and with resume; schedule is dispatch_paused; history kept; settlement still prepares the wake row', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		const before = await issue.get();
		await kit.plan.pause({ issueId: issue.issueId }, issue.source);
		await kit.plan.pause({ issueId: issue.issueId }, issue.source);
		const paused = await issue.get();
		assert.equal(paused.pausedBy, 'source');
		assert.equal(paused.dispatchPaused, true);
		assert.ok(!paused.allowedActions.includes('schedule'));
		assert.equal(paused.allowedActions.at(-1), 'resume');
		assert.match(paused.recoveryHint, /plan issue resume/);
		assert.deepEqual(paused.activeCheckpoint, before.activeCheckpoint, 'pause mints no checkpoint');
		assert.equal(paused.execution.graphRevision, before.execution.graphRevision, 'and no revision');
		assert.deepEqual(paused.activeWake, before.activeWake, 'and keeps the wake');
		await rejects(issue.schedule(['b']), 'dispatch_paused', /paused/);

		await kit.plan.resume({ issueId: issue.issueId }, issue.source);
		const resumed = await kit.plan.resume({ issueId: issue.issueId }, issue.source);
		assert.equal(resumed.dispatchPaused, false, 'resume is idempotent and returns the snapshot');
		assert.deepEqual(resumed.activeCheckpoint, before.activeCheckpoint, 'continues from the same checkpoint and revision');
		assert.ok(resumed.allowedActions.includes('schedule'));
		assert.deepEqual((await issue.get()).activeWake, before.activeWake, 'and keeps the wake');
		const r = await issue.schedule(['b']);

		// The developer's pause: the source gets neither resume nor schedule, and is told it is the developer's.
		await kit.plan.setPausedByUser(issue.issueId, true);
		const byDeveloper = await issue.get();
		assert.equal(byDeveloper.pausedBy, 'developer');
		assert.ok(!byDeveloper.allowedActions.includes('resume') && !byDeveloper.allowedActions.includes('schedule'), `${byDeveloper.allowedActions}`);
		assert.match(byDeveloper.recoveryHint, /^The developer paused this issue; it stays paused until they resume it/);
		await kit.settle(r.runIds[0]!, 'success');
		const settled = await issue.get();
		assert.equal(settled.activeCheckpoint?.subjectTaskId, 'b');
		assert.equal(settled.activeWake?.status, 'prepared', 'the row is prepared; delivery is what pause gates');
	});

	it('resume: only the original source session (or the developer) may resume; the developer\'s pause only the developer', async () => {
		const issue = await kit.managedIssue([taskSpec('a')]);
		await kit.plan.setPausedByUser(issue.issueId, true);
		await rejects(kit.plan.resume({ issueId: issue.issueId }, await kit.session('source')), 'wrong_source_session');
		await rejects(kit.plan.resume({ issueId: issue.issueId }, await kit.session('worker')), 'wrong_source_session');
		await rejects(kit.plan.resume({ issueId: issue.issueId }, issue.source), 'paused_by_developer');
		assert.equal((await issue.get()).dispatchPaused, true);
		await kit.plan.resume({ issueId: issue.issueId }, user);
		assert.equal((await issue.get()).dispatchPaused, false);
		await kit.plan.pause({ issueId: issue.issueId }, issue.source);
		await rejects(kit.plan.pause({ issueId: issue.issueId }, await kit.session('source')), 'wrong_source_session');
		assert.equal((await kit.plan.resume({ issueId: issue.issueId }, issue.source)).dispatchPaused, false);
		// The developer pausing over the source's pause takes it over.
		await kit.plan.pause({ issueId: issue.issueId }, issue.source);
		await kit.plan.setPausedByUser(issue.issueId, true);
		await rejects(kit.plan.resume({ issueId: issue.issueId }, issue.source), 'paused_by_developer');
		await rejects(kit.plan.resume({ issueId: 'missing' }, issue.source), 'execution_not_found');
	});

	it('repairOnStart rearms a stranded terminal singleton and restores a missing settlement checkpoint, creating no wake for paused issues', async () => {
		// The pre-#1918 state: replacement settled, its checkpoint active, the terminal singleton left superseded.
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b')]);
		const { runIds } = await issue.schedule(['a', 'b']);
		await kit.settle(runIds[0]!, 'success');
		await kit.settle(runIds[1]!, 'failure');
		await issue.acknowledge();
		const m = await issue.mutate([{ kind: 'rework', taskId: 'b', task: { taskId: 'b2' } }]);
		const r = await issue.schedule(['b2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		await kit.settle(r.runIds[0]!, 'success');
		await kit.store.transaction((tx) => { tx.run("UPDATE checkpoints SET status = 'superseded' WHERE checkpoint_id = ?", [issue.terminalId]); });
		await rejects(issue.acknowledge(), 'inactive_checkpoint', /not current/);

		// A second issue whose Run settled without its checkpoint (lost observer), paused: no wake until resumed.
		const lost = await kit.managedIssue([taskSpec('x')]);
		const lostRun = (await lost.schedule(['x'])).runIds[0]!;
		await kit.settle(lostRun, 'success', { observe: false });
		await kit.plan.pause({ issueId: lost.issueId }, lost.source);
		const wakesBefore = lost.wakes().length;

		await kit.plan.repairOnStart();
		assert.equal(issue.checkpoint(issue.terminalId).status, 'pending');
		assert.equal(issue.checkpoint(issue.terminalId).graphRevision, m.graphRevision);
		const ack = await issue.acknowledge();
		assert.equal(ack.nextCheckpointId, issue.terminalId);
		assert.equal(issue.execution().status, 'pending_goal_review');
		assert.equal(lost.wakes().length, wakesBefore, 'restart is not a resume and wakes nothing');
		assert.equal((await lost.get()).dispatchPaused, true);

		await kit.plan.resume({ issueId: lost.issueId }, lost.source);
		await kit.plan.repairOnStart();
		const restored = await lost.get();
		assert.equal(restored.activeCheckpoint?.checkpointId, lost.runCheckpointId(lostRun), 'RepairRestoresMissingSettlementCheckpoint');
		assert.equal(restored.activeWake?.wakeSequence, 1);
		await kit.plan.repairOnStart();
		assert.equal(lost.wakes().length, wakesBefore + 1, 'TerminalReplayAndRepairDoNotDuplicateMainWake');
	});

	it('plan issue get lists 1,000 tasks with readiness (no timing asserted)', async () => {
		const issue = await kit.managedIssue();
		const ops = Array.from({ length: 1000 }, (_, i) => ({
			kind: 'add' as const,
			task: taskSpec(`t${i}`, i > 0 && i % 2 === 0 ? { dependencyTaskIds: [`t${i - 1}`] } : {}),
		}));
		await issue.mutate(ops, { requestId: requestId('bulk') });
		const s = await issue.get();
		assert.equal(s.tasks.length, 1000);
		assert.equal(s.readyTaskIds.length, 501);
		assert.equal(s.tasks.filter((t) => t.blockerReason === 'dependency_unsatisfied').length, 499);
	});
});
