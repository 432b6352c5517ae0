// Delivery of queued messages: each message left when a claude Turn completes becomes the next Turn of the same
// session (`--resume`, its own process `<runId>.t<n>`), in order; the Run settles once, when nothing is left. A person's
// Stop pauses delivery (a Stop that took settles the Run canceled); Resume while the Run still runs lets delivery go on.
import { strict as assert } from 'node:assert';
import { afterEach, describe, it } from 'mocha';
import { readQueue } from '../../../../src/host/runs/messages/queueFile.js';
import { ServiceHarness } from '../services/serviceHarness.js';

const providerSession = '11111111-2222-4333-8444-555555555555';

function claudeStream(text: string, isError = false): string {
	return [
		{ type: 'system', subtype: 'init', session_id: providerSession },
		{ type: 'assistant', session_id: providerSession, message: { content: [{ type: 'text', text }] } },
		{ type: 'result', subtype: isError ? 'error_during_execution' : 'success', is_error: isError, result: text, session_id: providerSession, usage: { input_tokens: 1, output_tokens: 1 } },
	].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('delivering queued messages as further Turns', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function running(): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [{ id: 'cc', adapter: 'claude' }] } });
		const issueId = (await h.call('issue/create', { title: 'steer' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'do a', agentTargetId: 'cc' });
		await h.idle();
		return h.runs.launches[0]!.runId;
	}

	it('two queued messages become two further Turns in order, then the Run settles once with the last Turn', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'first follow-up' });
		await h.call('run/send', { runId, text: 'second follow-up' });

		h.runs.logs.set(runId, claudeStream('turn one done'));
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'running', 'a delivered message keeps the Run running');
		assert.equal(h.runs.launches.length, 2);
		const second = h.runs.launches[1]!;
		assert.equal(second.runId, `${runId}.t2`);
		assert.deepEqual([second.turn?.prompt, second.turn?.resumeProviderSessionId, second.turn?.newProviderSessionId], ['first follow-up', providerSession, undefined]);
		assert.equal(second.env.TUTTI_RUN_ID, runId);
		assert.deepEqual((await h.call('run/queue', { runId })).messages.map((m) => [m.text, m.delivered]), [['first follow-up', true], ['second follow-up', false]]);

		// A person's Stop now targets the live Turn process (declined here: the Turn goes on).
		h.runs.interruptBehaviour = () => ({ result: 'still_running' });
		assert.equal((await h.call('run/stop', { runId })).answer, 'declined');
		assert.deepEqual(h.runs.interrupts, [`${runId}.t2`]);
		await h.call('run/resume-queue', { runId });

		h.runs.logs.set(`${runId}.t2`, claudeStream('turn two done'));
		h.runs.exit(`${runId}.t2`, { exitCode: 0 });
		await h.idle();
		assert.equal(h.runs.launches[2]?.runId, `${runId}.t3`);
		assert.equal(h.runs.launches[2]?.turn?.prompt, 'second follow-up');
		assert.equal((await h.call('run/get', { runId })).status, 'running');

		h.runs.logs.set(`${runId}.t3`, claudeStream('turn three done'));
		h.runs.exit(`${runId}.t3`, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['completed', 'success']);
		assert.equal(run.summary, 'turn three done');
		assert.equal(h.runs.launches.length, 3, 'nothing left: no further Turn');
		const log = await h.call('run/log', { runId, stream: 'stdout', offset: 0, maxBytes: 1_000_000 });
		assert.ok(log.data.includes('turn one done'));
		const all = [runId, `${runId}.t2`, `${runId}.t3`].map((id) => h.runs.logs.get(id)).join('');
		let text = '';
		let offset = 0;
		for (;;) {
			const slice = await h.call('run/log', { runId, stream: 'stdout', offset, maxBytes: 1_000_000 });
			text += slice.data;
			if (slice.done) { break; }
			offset = slice.nextOffset;
		}
		assert.equal(text, all, 'run log reads every Turn in order');
	});

	it('the supervisor\'s run/report and the runner\'s exit event for the same Turn: the message is delivered and the Run keeps running', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'follow-up' });
		h.runs.logs.set(runId, claudeStream('turn one done'));
		// Both paths see the first Turn's exit: the runner's event and the report its supervisor sends after exit.json.
		h.runs.exit(runId, { exitCode: 0 });
		await h.call('run/report', { runId, event: 'exited' });
		await h.idle();
		assert.deepEqual(h.runs.launches.map((l) => l.runId), [runId, `${runId}.t2`]);
		const run = await h.call('run/get', { runId });
		assert.equal(run.status, 'running', `the second Turn runs, so the Run is not settled from the first Turn's exit (summary: ${run.summary})`);

		h.runs.logs.set(`${runId}.t2`, claudeStream('turn two done'));
		h.runs.exit(`${runId}.t2`, { exitCode: 0 });
		await h.call('run/report', { runId: `${runId}.t2`, event: 'exited' });
		await h.idle();
		const settled = await h.call('run/get', { runId });
		assert.deepEqual([settled.status, settled.outcome, settled.summary], ['completed', 'success', 'turn two done']);
	});

	it('a person\'s Stop pauses delivery: a Stop that took settles the Run canceled and the message stays queued', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'later' });
		h.runs.logs.set(runId, claudeStream('done'));
		h.runs.interruptBehaviour = () => ({ result: 'exited', exit: { exitCode: null, signal: 'SIGINT' } });
		const stopped = await h.call('run/stop', { runId });
		assert.equal(stopped.answer, 'took');
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.equal(h.runs.launches.length, 1, 'no Turn was started for the queued message');
		const queue = await h.call('run/queue', { runId });
		assert.deepEqual(queue.messages.map((m) => [m.text, m.delivered]), [['later', false]]);
	});

	it('a declined Stop pauses the queue: the completed Turn settles the Run and the message is kept, undelivered', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'wait for me' });
		h.runs.interruptBehaviour = () => ({ result: 'still_running' });
		await h.call('run/stop', { runId });
		h.runs.logs.set(runId, claudeStream('done'));
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'completed');
		assert.equal(h.runs.launches.length, 1);
		// Resume after the Run settled: recorded, but a settled Run takes no further Turn.
		const resumed = await h.call('run/resume-queue', { runId });
		assert.equal(resumed.paused, false);
		await h.idle();
		assert.equal(h.runs.launches.length, 1);
		assert.deepEqual(resumed.messages.map((m) => m.delivered), [false]);
	});

	it('a failed Turn (is_error) settles the Run failed without delivering', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'next' });
		h.runs.logs.set(runId, claudeStream('API Error', true));
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'failed');
		assert.equal(h.runs.launches.length, 1);
	});

	it('after a Host restart the current Turn process is adopted and its exit settles the Run', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'again' });
		h.runs.logs.set(runId, claudeStream('one'));
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.ok(readQueue(h.runs.runDir(runId)).some((e) => e.type === 'delivered' && e.turnProcessId === `${runId}.t2`));
		const runs = h.runs;
		const clock = h.clock;
		const dir = h.dir;
		await h.close(true);
		h = await ServiceHarness.open({ dir, runs, clock, config: { agentTargets: [{ id: 'cc', adapter: 'claude' }] } });
		await h.services.start();
		await h.idle();
		assert.deepEqual(runs.adopted, [`${runId}.t2`]);
		runs.logs.set(`${runId}.t2`, claudeStream('two'));
		runs.exit(`${runId}.t2`, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.summary], ['completed', 'two']);
	});

	it('a next Turn that cannot start settles the Run failed (the message is recorded as handed over)', async () => {
		const runId = await running();
		await h.call('run/send', { runId, text: 'next' });
		h.runs.logs.set(runId, claudeStream('one'));
		h.runs.launchError = new Error('no executable');
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage, /could not start the Turn for queued message .*no executable/);
	});
});
