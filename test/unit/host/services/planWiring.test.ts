// The composition root wires the real plan service to Run admission and settlement.
import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import { rejects, ServiceHarness } from './serviceHarness.js';

describe('host services: wiring of the plan service', () => {
	let h: ServiceHarness;
	let source: Caller;
	beforeEach(async () => {
		h = await ServiceHarness.open({ realPlan: true });
		source = (await h.session('source')).caller;
	});
	afterEach(async () => { await h.close(); });

	it('schedule admits and launches through the Run service; settlement reaches the plan in the same transaction', async () => {
		const created = await h.call('plan/create', { title: 'Managed', content: 'goal', requestId: 'c1' }, source);
		const { issueId } = created;
		await rejects(h.call('task/add', { issueId, title: 'sneaky', agentTargetId: 'ok' }, source), 'tutti_issue_managed');
		const mutated = await h.call('plan/mutate', {
			issueId, checkpointId: created.checkpointId, expectedGraphRevision: created.graphRevision, requestId: 'm1',
			operations: [{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'ok', content: 'do A' } }],
		}, source);
		const scheduled = await h.call('plan/schedule', {
			issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ['a'],
		}, source);
		assert.equal(scheduled.runIds.length, 1);
		await h.idle();
		const runId = scheduled.runIds[0]!;
		assert.deepEqual(h.runs.launches.map((l) => [l.runId, l.stdinText]), [[runId, 'do A']]);
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		const snapshot = await h.call('plan/get', { issueId }, source);
		assert.equal(snapshot.tasks.find((t) => t.taskId === 'a')?.status, 'pending_acceptance', 'managed tasks wait for acceptance');
		assert.equal(snapshot.activeCheckpoint?.kind, 'task_settled');
		assert.equal(snapshot.activeCheckpoint?.subjectRunId, runId);
		assert.equal(h.runs.launches.length, 1, 'settling never starts a successor by itself');
	});

	it('the compat resume routes to the source-scoped resume; the developer pauses through the plan service', async () => {
		const { issueId } = await h.call('plan/create', { title: 'Managed', content: 'goal', requestId: 'c1' }, source);
		const paused = await h.call('issue/pause', { issueId });
		assert.equal(paused.dispatchPaused, true);
		assert.equal(paused.pausedBy, 'developer');
		// The developer's pause is theirs to lift: the source's compat resume is refused, the developer's passes.
		await assert.rejects(h.call('issue/update', { issueId, dispatchPaused: false }, source), (e: unknown) => (e as { reasonCode?: string }).reasonCode === 'paused_by_developer');
		assert.equal((await h.call('issue/update', { issueId, dispatchPaused: false })).dispatchPaused, false);
		assert.equal((await h.call('plan/pause', { issueId }, source)).pausedBy, 'source');
		assert.equal((await h.call('issue/update', { issueId, dispatchPaused: false }, source)).dispatchPaused, false, 'the source lifts its own pause');
	});
});
