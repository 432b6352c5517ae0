// One exit inbox keyed by process id: an exit reaches the Host by the runner's watch and by its supervisor's
// `run/report`, and whichever comes first is handled — once. Observed through what one handling does: it reads the
// Turn's facts from its stdout once, settles the Run, or starts the Turn of the next queued message.
import { strict as assert } from 'node:assert';
import { afterEach, describe, it } from 'mocha';
import { ServiceHarness } from '../services/serviceHarness.js';

const providerSession = '11111111-2222-4333-8444-555555555555';

function claudeStream(text: string): string {
	return [
		{ type: 'system', subtype: 'init', session_id: providerSession },
		{ type: 'result', subtype: 'success', is_error: false, result: text, session_id: providerSession, usage: { input_tokens: 1, output_tokens: 1 } },
	].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

type Order = 'the runner first' | 'the report first';

describe('the exit inbox: one exit, two routes, handled once', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function running(): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [{ id: 'cc', adapter: 'claude' }] } });
		const issueId = (await h.call('issue/create', { title: 'twice', autoAccept: true })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'do a', agentTargetId: 'cc' });
		await h.idle();
		return h.runs.launches[0]!.runId;
	}

	/** The same exit of `processId`, reported by both routes in `order`, each awaited before the other. */
	async function reportTwice(processId: string, order: Order): Promise<void> {
		if (order === 'the runner first') {
			h.runs.exit(processId, { exitCode: 0 });
			await h.idle();
			await h.call('run/report', { runId: processId, event: 'exited' });
		} else {
			h.runs.exitSilently(processId, { exitCode: 0 });
			await h.call('run/report', { runId: processId, event: 'exited' });
			await h.idle();
			h.runs.fireExit(processId);
		}
		await h.idle();
	}

	for (const order of ['the runner first', 'the report first'] as const) {
		it(`${order}: the Run settles once, from one reading of its Turn`, async () => {
			const runId = await running();
			h.runs.logs.set(runId, claudeStream('done'));
			await reportTwice(runId, order);
			assert.deepEqual(h.runs.factReads, [runId], 'the exit was handled once');
			const run = await h.call('run/get', { runId });
			assert.deepEqual([run.status, run.outcome, run.summary], ['completed', 'success', 'done']);
		});

		it(`${order}: a queued message starts one next Turn, and the Run keeps running`, async () => {
			const runId = await running();
			await h.call('run/send', { runId, text: 'follow-up' });
			h.runs.logs.set(runId, claudeStream('turn one done'));
			await reportTwice(runId, order);
			assert.deepEqual(h.runs.factReads, [runId], 'the first Turn\'s exit was handled once');
			assert.deepEqual(h.runs.launches.map((l) => l.runId), [runId, `${runId}.t2`], 'one next Turn');
			assert.equal((await h.call('run/get', { runId })).status, 'running', 'not settled from the first Turn\'s exit');

			h.runs.logs.set(`${runId}.t2`, claudeStream('turn two done'));
			const readsBefore = h.runs.factReads.length;
			await reportTwice(`${runId}.t2`, order);
			assert.deepEqual(h.runs.factReads.slice(readsBefore), [`${runId}.t2`], 'the second Turn\'s exit was handled once');
			const run = await h.call('run/get', { runId });
			assert.deepEqual([run.status, run.summary], ['completed', 'turn two done']);
		});
	}
});
