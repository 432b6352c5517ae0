// run/send, run/queue, run/resume-queue over a real store and run directory: durable order, refusal for command
// targets and settled Runs, and the pause a person's Stop puts on the queue until Resume.
import { strict as assert } from 'node:assert';
import { afterEach, describe, it } from 'mocha';
import { RunMessageService } from '../../../../src/host/services/messages/runMessageService.js';
import { commandTarget, rejects, sequentialIds, ServiceHarness, user } from '../services/serviceHarness.js';

describe('queued messages to a Run', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function running(targetId: string): Promise<{ runId: string; messages: RunMessageService }> {
		h = await ServiceHarness.open({ config: { agentTargets: [{ id: 'cc', adapter: 'claude' }, commandTarget('ok')] } });
		const issueId = (await h.call('issue/create', { title: 'steer' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'x', agentTargetId: targetId });
		await h.idle();
		const messages = new RunMessageService({ store: h.store, clock: h.clock, ids: sequentialIds('q'), runs: h.runs, config: { agentTargets: [{ id: 'cc', adapter: 'claude' }, commandTarget('ok')], maxParallelRuns: 4, autoAcceptDefault: false } });
		return { runId: h.runs.launches[0]!.runId, messages };
	}

	it('keeps messages in order; a person Stop pauses the queue (derived) until Resume; nothing is lost', async () => {
		const { runId, messages } = await running('cc');
		const first = await messages.send({ runId, text: 'one' }, user);
		assert.deepEqual([first.position, first.pending, first.queuePaused, first.delivery], [0, 1, false, 'queued']);

		h.runs.interruptBehaviour = () => ({ result: 'still_running' });
		await h.call('run/stop', { runId });
		assert.equal((await h.call('run/get', { runId })).status, 'running', 'the Stop did not end the Run');
		const second = await messages.send({ runId, text: 'two' }, user);
		assert.deepEqual([second.position, second.pending, second.queuePaused], [1, 2, true]);
		const paused = await messages.queue({ runId });
		assert.equal(paused.paused, true);
		assert.equal(paused.pausedByStopEventIds.length, 1);

		const resumed = await messages.resumeQueue({ runId }, user);
		assert.equal(resumed.paused, false);
		assert.deepEqual(resumed.messages.map((m) => [m.text, m.delivered]), [['one', false], ['two', false]]);

		await h.call('run/stop', { runId });
		assert.equal((await messages.queue({ runId })).paused, true, 'a later Stop pauses it again');
	});

	it('a running Run says what a message does for its agent (the panel offers the box from it)', async () => {
		const claude = await running('cc');
		assert.equal((await h.call('run/get', { runId: claude.runId })).messagesWhileRunning, 'into-turn');
		await h.close();
		const command = await running('ok');
		assert.equal((await h.call('run/list', { issueId: (await h.call('run/get', { runId: command.runId })).issueId })).runs[0]?.messagesWhileRunning, 'not-accepted');
	});

	it('refuses command targets, settled Runs and agent callers', async () => {
		const { runId, messages } = await running('ok');
		const refused = await rejects(messages.send({ runId, text: 'hi' }, user), 'invalid_input');
		assert.match(refused.message, /command target 'ok', which takes no messages/);
		await rejects(messages.send({ runId, text: 'hi' }, { kind: 'session', sessionId: 's', role: 'worker' }), 'forbidden');
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		await rejects(messages.send({ runId: 'run-none', text: 'hi' }, user), 'run_not_found');
	});

	it('refuses a settled claude Run', async () => {
		const { runId, messages } = await running('cc');
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		const refused = await rejects(messages.send({ runId, text: 'late' }, user), 'invalid_input');
		// Exit 0 with nothing on stdout (no result line): the Run settled failed.
		assert.match(refused.message, /is failed; messages are queued only for a running agent/);
	});
});
