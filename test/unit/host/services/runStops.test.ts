import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { readRunDto } from '../../../../src/host/services/dtoMapping.js';
import type { RunDto } from '../../../../src/protocol/dto.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { rejects, ServiceHarness } from './serviceHarness.js';

const twoMinutesThree = 123_000;

describe('host services: Stop answers and honest outcomes', () => {
	let h: ServiceHarness;
	let issueId: string;
	beforeEach(async () => {
		h = await ServiceHarness.open();
		issueId = (await h.call('issue/create', { title: 'stops' })).issueId;
	});
	afterEach(async () => { await h.close(); });

	async function running(taskId = 'a'): Promise<string> {
		await h.call('task/add', { issueId, taskId, title: taskId, agentTargetId: 'ok' });
		await h.idle();
		const run = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(run, `task ${taskId} was launched`);
		h.clock.advance(twoMinutesThree);
		return run.runId;
	}

	it('a person\'s Stop that took: the Run is the developer\'s cancellation, "Interrupted after …"', async () => {
		const runId = await running();
		const stopped = await h.call('run/stop', { runId });
		assert.equal(stopped.answer, 'took');
		assert.ok(stopped.eventId.length > 0);
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.equal(run.outcomeLabel, 'Interrupted after 2m 03s — you stopped this');
		assert.deepEqual(run.stopNotes.map((n) => [n.eventId, n.reason, n.answer]), [[stopped.eventId, 'person', 'took']]);
		assert.equal((await h.call('issue/get', { issueId })).tasks[0]!.status, 'canceled');
	});

	it('every Run carries the Host\'s Stop control and whether a person\'s Stop is ending it', async () => {
		const runId = await running();
		const facts = async (): Promise<[boolean, boolean]> => {
			const run = await h.call('run/get', { runId });
			const listed = (await h.call('run/list', { issueId })).runs.find((r) => r.runId === runId)!;
			assert.deepEqual([listed.controls, listed.stopping], [run.controls, run.stopping], 'run/list sends the same');
			return [run.controls.stop, run.stopping];
		};
		assert.deepEqual(await facts(), [true, false], 'running: Stop, not stopping');
		let atInterrupt: RunDto | undefined;
		h.runs.interruptBehaviour = () => {
			// The Run as the Host maps it while its Stop is durable and unanswered (run/get's own mapping).
			atInterrupt = h.store.read((r) => readRunDto(r, runRepository.get(r, runId)!, h.clock.now()));
			return { result: 'still_running' };
		};
		assert.equal((await h.call('run/stop', { runId })).answer, 'declined');
		assert.deepEqual([atInterrupt?.controls.stop, atInterrupt?.stopping], [true, true], 'while the Stop has no answer: Stopping…, and Stop again');
		assert.deepEqual(await facts(), [true, false], 'a Stop that did not take ends "Stopping…"; Stop stays');
		h.runs.interruptBehaviour = () => ({ result: 'exited', exit: { exitCode: null, signal: 'SIGINT' } });
		assert.equal((await h.call('run/stop', { runId })).answer, 'took');
		await h.idle();
		assert.deepEqual(await facts(), [false, false], 'settled: nothing to stop');
	});

	it('the Stop event is durable before the interrupt goes out', async () => {
		const runId = await running();
		let seenAtInterrupt: unknown[] = [];
		h.runs.interruptBehaviour = () => {
			seenAtInterrupt = h.store.read((r) => r.all('SELECT reason, answer FROM stop_events WHERE run_id = ?', [runId]));
			return { result: 'exited', exit: { exitCode: null, signal: 'SIGINT' } };
		};
		await h.call('run/stop', { runId });
		assert.deepEqual(seenAtInterrupt, [{ reason: 'person', answer: null }]);
	});

	it('a Stop that did not take, then the agent dies on its own: a failure, "Failed after …"', async () => {
		const runId = await running();
		h.runs.interruptBehaviour = () => ({ result: 'still_running' });
		const stopped = await h.call('run/stop', { runId });
		assert.equal(stopped.answer, 'declined');
		assert.equal((await h.call('run/get', { runId })).status, 'running');
		h.runs.exit(runId, { exitCode: null, signal: 'SIGKILL' });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['failed', 'failure']);
		assert.match(run.outcomeLabel ?? '', /^Failed after 2m 03s — /);
		assert.deepEqual(run.stopNotes.map((n) => n.answer), ['declined']);
	});

	it('an exit that arrives before the Stop\'s answer is decided when the answer lands', async () => {
		const runId = await running();
		// The default fake fires the exit (SIGINT) inside interrupt(), before the answer is recorded.
		await h.call('run/stop', { runId });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).outcome, 'cancellation');

		const own = await running('b');
		// The agent ended on its own just as the Stop arrived: nothing was left to interrupt.
		h.runs.interruptBehaviour = (id) => { h.runs.exit(id, { exitCode: 1 }); return { result: 'not_running' }; };
		const stopped = await h.call('run/stop', { runId: own });
		assert.equal(stopped.answer, 'no-effect');
		await h.idle();
		const run = await h.call('run/get', { runId: own });
		assert.deepEqual([run.outcome, run.errorMessage], ['failure', 'exited with code 1']);
	});

	it('a later press that finds nothing never overwrites an earlier one that took', async () => {
		const runId = await running();
		const first = await h.call('run/stop', { runId });
		await h.idle();
		const second = await h.call('run/stop', { runId });
		assert.equal(second.answer, 'no-effect');
		assert.notEqual(second.eventId, first.eventId);
		const run = await h.call('run/get', { runId });
		assert.equal(run.outcome, 'cancellation');
		assert.deepEqual(run.stopNotes.map((n) => [n.eventId, n.answer]), [[first.eventId, 'took'], [second.eventId, 'no-effect']]);
	});

	it('a second press that takes, after one that was declined, makes the Run the developer\'s', async () => {
		const runId = await running();
		h.runs.interruptBehaviour = () => ({ result: 'still_running' });
		await h.call('run/stop', { runId });
		h.runs.interruptBehaviour = () => ({ result: 'exited', exit: { exitCode: null, signal: 'SIGTERM' } });
		await h.call('run/stop', { runId });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.equal(run.outcome, 'cancellation');
		assert.deepEqual(run.stopNotes.map((n) => n.answer), ['declined', 'took']);
	});

	it('a Stop while the process is being started interrupts it once it exists', async () => {
		let release!: () => void;
		h.runs.holdLaunch = new Promise((r) => { release = r; });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'ok' });
		while (h.runs.launches.length === 0) { await new Promise((r) => setImmediate(r)); }
		const runId = h.runs.launches[0]!.runId;
		const stop = h.call('run/stop', { runId });
		// Let the Stop get as far as it can: its event committed and durable, then a few turns of the event loop.
		while (h.store.read((r) => r.all('SELECT 1 FROM stop_events WHERE run_id = ?', [runId])).length === 0) {
			await new Promise((r) => setImmediate(r));
		}
		await h.store.transaction(() => undefined);
		for (let i = 0; i < 5; i++) { await new Promise((r) => setImmediate(r)); }
		assert.deepEqual(h.runs.interrupts, [], 'the interrupt waits for the launch');
		release();
		assert.equal((await stop).answer, 'took');
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).outcome, 'cancellation');
	});

	it('stopping a Run that is not running answers no-effect and changes nothing', async () => {
		const runId = await running();
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		const stopped = await h.call('run/stop', { runId });
		assert.equal(stopped.answer, 'no-effect');
		assert.deepEqual(h.runs.interrupts, []);
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['completed', 'success']);
		await rejects(h.call('run/stop', { runId: 'nope' }), 'run_not_found');
	});

	it('issue/stop pauses the issue and stops every running Run with a person\'s Stop', async () => {
		const a = await running('a');
		const b = await running('b');
		const dto = await h.call('issue/stop', { issueId });
		assert.equal(dto.dispatchPaused, true);
		await h.idle();
		for (const runId of [a, b]) {
			const run = await h.call('run/get', { runId });
			assert.deepEqual([run.outcome, run.stopNotes.map((n) => [n.reason, n.answer])], ['cancellation', [['person', 'took']]]);
		}
		await h.call('task/add', { issueId, taskId: 'c', title: 'c', agentTargetId: 'ok' });
		await h.idle();
		assert.equal(h.runs.launches.length, 2, 'a stopped issue stays paused');
	});
});
