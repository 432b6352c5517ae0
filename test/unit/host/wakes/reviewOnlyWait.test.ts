// Auto-accept off on a managed issue whose source session Tutti starts itself: once a task's result waits for the
// developer and nothing else can move, the source agent is told exactly that, the watchdog spends no Turn on it
// (fake clock, wake passes by tick()), and the developer's Accept or Request changes wakes it at once on a checkpoint
// that says what the developer decided. Real Host services over a real Store; scripted Run processes.
import { strict as assert } from 'node:assert';
import { acceptedCheckpointId, changesRequestedCheckpointId, mainWakeId, runCheckpointId } from '../../../../src/core/ids.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { fiveMinutes, sourceCaller, WakeKit } from './wakeKit.js';

describe('auto-accept off: the developer is the only one who can move', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open(); });
	afterEach(async () => { await kit.close(); });

	/** a then b (b depends on a); a ran and settled into review; the agent's Turn at a's settlement ended without a command. */
	async function settledInReview(): Promise<{ issueId: string; executionId: string; sourceSessionId: string; runId: string; settled: string }> {
		const created = await kit.managed();
		await kit.tick();
		const caller = sourceCaller(created.sourceSessionId);
		const mutated = await kit.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: [
				{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'w' } },
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'w', dependencyTaskIds: ['a'] } },
			],
		}, caller);
		const scheduled = await kit.call('plan/schedule', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ['a'],
		}, caller);
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		const runId = scheduled.runIds[0]!;
		kit.runs.exit(runId, { exitCode: 0 });
		await kit.idle();
		await kit.tick();
		const settled = runCheckpointId(created.executionId, runId);
		assert.equal(kit.execution(created.executionId).activeCheckpointId, settled);
		assert.equal(kit.store.read((r) => taskRepository.get(r, created.issueId, 'a'))?.status, 'pending_acceptance');
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 }); // the agent read the prompt and ended its turn
		await kit.idle();
		return { issueId: created.issueId, executionId: created.executionId, sourceSessionId: created.sourceSessionId, runId, settled };
	}

	it('the settlement wake says only the developer accepts; resume and the Stop hook let the agent end its turn', async () => {
		const s = await settledInReview();
		const prompt = kit.wake(mainWakeId(s.settled, 1)).prompt;
		assert.match(prompt, /only the developer accepts it/);
		assert.ok(prompt.includes(`tutti await-review --issue-id ${s.issueId} --task-id a`));
		assert.doesNotMatch(prompt, /accepts this result/);
		const caller = sourceCaller(s.sourceSessionId);
		const resume = await kit.call('agent/resume', {}, caller);
		assert.equal(resume.next, undefined, 'Tutti wakes this session with the decision: nothing to run now');
		assert.equal(resume.state, 'awaiting_review');
		assert.match(String(resume.message), /tutti await-review --issue-id \S+ --task-id a/);
		assert.deepEqual(await kit.call('hook/stop', {}, caller), { decision: 'allow' });
	});

	it('the watchdog spends no Turn while only the developer can move (20 minutes of deadlines)', async () => {
		const s = await settledInReview();
		const turns = kit.turnLaunches().length;
		const wakes = kit.wakesOf(s.executionId).length;
		const checkpoints = kit.checkpointsOf(s.executionId).length;
		for (let i = 0; i < 4; i++) {
			kit.clock.advance(fiveMinutes);
			await kit.tick();
		}
		assert.equal(kit.turnLaunches().length, turns, 'no Turn');
		assert.equal(kit.wakesOf(s.executionId).length, wakes, 'no wake');
		assert.equal(kit.checkpointsOf(s.executionId).length, checkpoints, 'no watchdog checkpoint');
		assert.equal(kit.checkpoint(s.settled).status, 'active');
	});

	it('Accept wakes the source agent at once on a task_accepted checkpoint carrying the note', async () => {
		const s = await settledInReview();
		kit.clock.advance(7 * fiveMinutes);
		await kit.tick();
		const turns = kit.turnLaunches().length;
		const accepted = await kit.call('review/accept', { issueId: s.issueId, taskId: 'a', note: 'Looks right.' });
		await kit.idle();
		await kit.tick();
		const cpId = acceptedCheckpointId(s.executionId, s.runId);
		assert.equal(accepted.checkpointId, cpId, 'the decision names the checkpoint it created');
		assert.equal(kit.execution(s.executionId).activeCheckpointId, cpId);
		const cp = kit.checkpoint(cpId);
		assert.deepEqual([cp.kind, cp.status, cp.subjectTaskId, cp.subjectRunId, cp.note], ['task_accepted', 'active', 'a', s.runId, 'Looks right.']);
		assert.equal(kit.checkpoint(s.settled).status, 'superseded', 'the settlement the agent could not act on is answered');
		const wake = kit.wake(mainWakeId(cpId, 1));
		assert.equal(wake.status, 'dispatched', 'delivered at once');
		assert.equal(kit.turnLaunches().length, turns + 1);
		assert.match(wake.prompt, /The developer accepted the result of task a/);
		assert.match(wake.prompt, /> Looks right\./);
		const snapshot = await kit.call('plan/get', { issueId: s.issueId }, sourceCaller(s.sourceSessionId));
		assert.deepEqual(snapshot.readyTaskIds, ['b']);
		assert.ok(snapshot.allowedActions.includes('schedule'));
		assert.equal(kit.execution(s.executionId).watchdogDueAtUnixMs, kit.clock.now() + fiveMinutes, 'the agent owes a step again: the watchdog is armed');
	});

	it('Request changes wakes the source agent at once on its changes_requested checkpoint', async () => {
		const s = await settledInReview();
		const turns = kit.turnLaunches().length;
		await kit.call('review/requestChanges', { issueId: s.issueId, taskId: 'a', note: 'Handle empty input.' });
		await kit.idle();
		await kit.tick();
		const cpId = changesRequestedCheckpointId(s.executionId, s.runId);
		assert.equal(kit.execution(s.executionId).activeCheckpointId, cpId);
		assert.equal(kit.checkpoint(s.settled).status, 'superseded');
		const wake = kit.wake(mainWakeId(cpId, 1));
		assert.equal(wake.status, 'dispatched');
		assert.equal(kit.turnLaunches().length, turns + 1);
		assert.match(wake.prompt, /requested changes/);
		assert.match(wake.prompt, /> Handle empty input\./);
	});
});
