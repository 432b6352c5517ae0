// A stalled Run of a managed issue is handed to its source agent as a `run_stalled` checkpoint, which queues in the
// backlog like a settlement and gives way when the stall ends before the agent was handed it. Fake clock and Run
// processes; each stall probe is driven by the test.
import { strict as assert } from 'node:assert';
import { mainWakeId, runCheckpointId, stallCheckpointId } from '../../../../src/core/ids.js';
import type { Result } from '../../../../src/protocol/controlPlane.js';
import { commandTarget } from '../services/serviceHarness.js';
import { sourceCaller, WakeKit } from './wakeKit.js';

const stallMs = 60_000;

describe('a stalled Run of a managed issue', () => {
	let kit: WakeKit;
	beforeEach(async () => { kit = await WakeKit.open({ config: { agentTargets: [commandTarget('src'), commandTarget('w', { stallSeconds: stallMs / 1000 })] } }); });
	afterEach(async () => { await kit.close(); });

	/** A managed issue whose source scheduled tasks `ids` on the `w` target; its own Turn has ended, no checkpoint is active. */
	async function scheduled(ids: string[]): Promise<{ created: Result<'plan/create'>; runIds: string[]; graphRevision: number }> {
		const created = await kit.managedQuiet();
		await kit.tick();
		const caller = sourceCaller(created.sourceSessionId);
		const mutated = await kit.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: 1, requestId: 'm1',
			operations: ids.map((taskId) => ({ kind: 'add' as const, task: { taskId, title: taskId, agentTargetId: 'w' } })),
		}, caller);
		const result = await kit.call('plan/schedule', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: mutated.graphRevision, requestId: 's1', taskIds: ids,
		}, caller);
		kit.runs.exit(kit.lastTurnProcess(), { exitCode: 0 });
		await kit.idle();
		assert.equal(kit.execution(created.executionId).activeCheckpointId, '');
		return { created, runIds: result.runIds, graphRevision: mutated.graphRevision };
	}

	/** One probe now, then one after the stall time with no output. */
	async function stallAll(): Promise<void> {
		await kit.services.checkStalls();
		kit.clock.advance(stallMs);
		await kit.services.checkStalls();
		await kit.idle();
	}

	it('gets a run_stalled checkpoint whose wake says what the source can do; the Run still runs; acknowledge resolves it', async () => {
		const { created, runIds: [runId], graphRevision } = await scheduled(['a']);
		const t0 = kit.clock.now();
		await stallAll();
		const checkpointId = stallCheckpointId(created.executionId, runId!, 2);
		const checkpoint = kit.checkpoint(checkpointId);
		assert.deepEqual([checkpoint.kind, checkpoint.status, checkpoint.subjectTaskId, checkpoint.subjectRunId], ['run_stalled', 'active', 'a', runId]);
		assert.equal(kit.execution(created.executionId).activeCheckpointId, checkpointId);
		const wake = kit.wake(mainWakeId(checkpointId, 1));
		assert.match(wake.prompt, /still running but shows no activity/);
		assert.match(wake.prompt, /Stalled is not failed/);
		assert.match(wake.prompt, new RegExp(`Silent for 1 min when it was marked: no activity since ${new Date(t0).toISOString().replace(/\./g, '\\.')}`));
		assert.match(wake.prompt, /- Wait:/);
		assert.match(wake.prompt, new RegExp(`Ask the developer to stop it \\(Run ${runId}\\): only the developer stops a Run`));
		assert.doesNotMatch(wake.prompt, /tutti run stop/, 'a Stop is the developer\'s: never offered to the agent');
		assert.equal((await kit.call('run/get', { runId: runId! })).status, 'running', 'never failed nor stopped for it');

		await kit.tick();
		assert.equal(kit.wake(wake.wakeId).status, 'dispatched');
		// Its output moves after the wake went out: the mark is lifted, the checkpoint stays for the agent to resolve.
		kit.runs.logs.set(runId!, 'working again\n');
		kit.clock.advance(1_000);
		await kit.services.checkStalls();
		await kit.idle();
		assert.equal((await kit.call('run/get', { runId: runId! })).stalled, null);
		assert.equal(kit.checkpoint(checkpointId).status, 'active', 'handed to the agent: it stays until acknowledged');
		await kit.call('plan/acknowledge', { issueId: created.issueId, checkpointId, expectedGraphRevision: graphRevision, requestId: 'ack' }, sourceCaller(created.sourceSessionId));
		assert.equal(kit.checkpoint(checkpointId).status, 'resolved');
		assert.equal((await kit.call('run/get', { runId: runId! })).status, 'running');
	});

	it('queues behind the active checkpoint, and gives way when the stall ends before the agent was handed it', async () => {
		const { created, runIds: [a, b] } = await scheduled(['a', 'b']);
		kit.runs.exit(b!, { exitCode: 0 });
		await kit.idle();
		const settledB = runCheckpointId(created.executionId, b!);
		assert.equal(kit.execution(created.executionId).activeCheckpointId, settledB);

		await stallAll();
		const stall = stallCheckpointId(created.executionId, a!, 3);
		assert.deepEqual([kit.checkpoint(stall).kind, kit.checkpoint(stall).status], ['run_stalled', 'pending'], 'behind the settlement of b, like another settlement');
		assert.equal((await kit.call('issue/get', { issueId: created.issueId })).attention?.reasons.some((r) => r.kind === 'run_stalled'), true);

		kit.runs.logs.set(a!, 'working again\n');
		kit.clock.advance(1_000);
		await kit.services.checkStalls();
		await kit.idle();
		assert.equal(kit.checkpoint(stall).status, 'superseded', 'no longer news: withdrawn from the backlog');
		assert.equal(kit.execution(created.executionId).activeCheckpointId, settledB, 'the active checkpoint is untouched');
		assert.equal((await kit.call('issue/get', { issueId: created.issueId })).attention?.reasons.some((r) => r.kind === 'run_stalled'), false);
	});

	it('an active stall checkpoint whose wake has not gone out gives way to the Run\'s settlement', async () => {
		const { created, runIds: [runId] } = await scheduled(['a']);
		// Marked while the wake loop looks away: its wake stays prepared.
		await kit.gate.quietly(() => stallAll());
		const stall = stallCheckpointId(created.executionId, runId!, 2);
		assert.equal(kit.checkpoint(stall).status, 'active');
		assert.equal(kit.wake(mainWakeId(stall, 1)).status, 'prepared');

		kit.runs.exit(runId!, { exitCode: 0 });
		await kit.idle();
		assert.equal(kit.checkpoint(stall).status, 'superseded');
		assert.equal(kit.wake(mainWakeId(stall, 1)).status, 'canceled');
		assert.equal(kit.execution(created.executionId).activeCheckpointId, runCheckpointId(created.executionId, runId!), 'the settlement carries the news');
		const run = await kit.call('run/get', { runId: runId! });
		assert.deepEqual([run.status, run.outcome, run.stalled], ['completed', 'success', null]);
	});

	it('a stall that returns before the agent acted on the last one adds no second checkpoint', async () => {
		const { created, runIds: [runId] } = await scheduled(['a']);
		await stallAll();
		await kit.tick();
		kit.runs.logs.set(runId!, 'x\n');
		kit.clock.advance(1_000);
		await kit.services.checkStalls();
		kit.clock.advance(stallMs);
		await kit.services.checkStalls();
		await kit.idle();
		assert.ok((await kit.call('run/get', { runId: runId! })).stalled !== null, 'stalled again');
		assert.deepEqual(kit.checkpointsOf(created.executionId).filter((c) => c.kind === 'run_stalled').map((c) => c.status), ['active']);
	});
});
