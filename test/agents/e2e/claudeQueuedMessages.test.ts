// End to end through the real Host and the real Claude Code CLI: a message queued with `tutti run send` while the
// worker's first Turn runs becomes the next Turn of the same session — a new process started with `--resume <the
// session id>` whose prompt the model server sees — and the Run settles once, after that Turn, with its result.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectOk, type HostHandle, runGet } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, killLeftovers, latestRunId, manualTask, runLog, settledRun, startAgentHost, targetHome } from './e2eKit.js';

const queuedText = 'QUEUED-FOLLOW-UP-7731: also say thanks';
const waitMarker = 'go-7731.flag';

// The first Turn waits in a Bash tool call until the test has queued its message (no timing involved).
const script: Script = {
	turns: [
		{ when: { last_user_includes: queuedText }, blocks: [{ type: 'text', text: 'Thanks, follow-up handled.' }], usage: { input_tokens: 50, output_tokens: 5 } },
		{ blocks: [{ type: 'tool', name: 'Bash', id: 'toolu_wait', input: { command: `while [ ! -f ${waitMarker} ]; do sleep 0.2; done; echo ready`, description: 'wait' } }], usage: { input_tokens: 100, output_tokens: 10 } },
		{ when: { last_user_includes: 'toolu_wait' }, blocks: [{ type: 'text', text: 'First turn done.' }], usage: { input_tokens: 120, output_tokens: 8 } },
	],
};

describe('e2e: a queued message becomes the next claude Turn (--resume)', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	let server: ScriptedServer;

	before(async () => {
		dir = makeTempDir('tutti-e2e-queue-');
		server = await startScriptedServer({ script });
		host = await startAgentHost([claudeTarget('claude-queue', server.url, targetHome(dir, 'queue'), { allowedTools: ['Bash'] })]);
	});
	after(async () => {
		killLeftovers(host, [waitMarker]);
		await host?.dispose();
		await server.close();
		dir.remove();
	});

	it('run send during the first Turn: a second Turn resumes the same session with the queued text; the Run settles once', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'steer', 'claude-queue', 'Wait for the flag, then finish.');
		const runId = await latestRunId(h, issueId, taskId);
		await server.waitForModelRequests(1);
		const sent = expectOk<Result<'run/send'>>(await h.cli(['run', 'send', '--run-id', runId, '--text', queuedText, '--json'], { asUser: true }));
		assert.equal(sent.delivery, 'queued');
		writeFileSync(join(h.workspace, waitMarker), 'go');

		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], JSON.stringify(run));
		assert.equal(run.summary, 'Thanks, follow-up handled.');
		assert.equal(server.turnsUsed(), 3);
		const requests = server.modelRequests();
		assert.ok(JSON.stringify(requests[requests.length - 1]!.body).includes(queuedText), 'the server saw the queued text');

		// The second Turn is its own process, resuming the first Turn's session.
		const first = JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', runId, 'spec.json'), 'utf8')) as { args: string[] };
		const second = JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', `${runId}.t2`, 'spec.json'), 'utf8')) as { args: string[] };
		const sessionId = first.args[first.args.indexOf('--session-id') + 1];
		assert.ok(sessionId !== undefined && first.args.includes('--session-id'), JSON.stringify(first.args));
		assert.equal(second.args[second.args.indexOf('--resume') + 1], sessionId, JSON.stringify(second.args));

		const queue = expectOk<Result<'run/queue'>>(await h.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true }));
		assert.deepEqual(queue.messages.map((m) => [m.text, m.delivered]), [[queuedText, true]]);
		assert.equal((await runGet(h, runId)).status, 'completed');
		const log = await runLog(h, runId);
		assert.ok(log.includes('First turn done.'), 'run log starts with the first Turn');
	});
});
