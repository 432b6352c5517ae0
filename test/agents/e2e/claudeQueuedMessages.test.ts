// End to end through the real Host and the real Claude Code CLI (launched with `--input-format stream-json`, its
// stdin owned by the Run's supervisor):
// - a message sent with `tutti run send` while the Turn runs goes into that Turn: the model request that carries the
//   running tool's result carries the message too, the agent echoes it, and no second process is started;
// - a message sent after the Turn ended (its stdin closed at the result line) waits and becomes the next Turn of the
//   same session, a new process started with `--resume <the session id>`.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectOk, type HostHandle, runGet, waitFor } from '../../integration/harness.js';
import { claudeBin, makeTempDir, type TempDir } from '../agentKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, killLeftovers, latestRunId, manualTask, runLog, settledRun, startAgentHost, targetHome } from './e2eKit.js';

const midTurnText = 'MID-TURN-STEER-4410: use tabs, not spaces';
const afterTurnText = 'AFTER-TURN-FOLLOW-UP-7731: also say thanks';
const waitMarker = 'go-4410.flag';
const lingerMarker = 'linger-7731.flag';

const midTurnScript: Script = {
	turns: [
		// Claude Code hands a message that arrives mid-turn to the model as a system note in the next request.
		{ when: { any_includes: midTurnText }, blocks: [{ type: 'text', text: 'Steered: tabs it is.' }] },
		// The Turn waits in a Bash call until the test has sent its message (no timing involved).
		{ blocks: [{ type: 'tool', name: 'Bash', id: 'toolu_wait', input: { command: `while [ ! -f ${waitMarker} ]; do sleep 0.2; done; echo ready`, description: 'wait' } }] },
	],
	default: { blocks: [{ type: 'text', text: 'UNEXPECTED: the steer did not reach this request' }] },
};

const afterTurnScript: Script = {
	turns: [
		{ when: { last_user_includes: afterTurnText }, blocks: [{ type: 'text', text: 'Thanks, follow-up handled.' }], usage: { input_tokens: 50, output_tokens: 5 } },
		{ blocks: [{ type: 'text', text: 'First turn done.' }], usage: { input_tokens: 120, output_tokens: 8 } },
	],
};

function spec(h: HostHandle, processId: string): { args: string[] } {
	return JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', processId, 'spec.json'), 'utf8')) as { args: string[] };
}

describe('e2e: messages to a running claude agent', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	let midTurn: ScriptedServer;
	let afterTurn: ScriptedServer;

	before(async () => {
		dir = makeTempDir('tutti-e2e-send-');
		midTurn = await startScriptedServer({ script: midTurnScript });
		afterTurn = await startScriptedServer({ script: afterTurnScript });
		// The second target's agent lingers after Claude Code exits until the test lets it go, so a message can be
		// sent after the Turn ended and before the Run settles.
		const lingering = join(dir.path, 'lingering-claude.sh');
		writeFileSync(lingering, `#!/bin/sh\n"${claudeBin}" "$@"\ncode=$?\nwhile [ ! -f ${lingerMarker} ]; do sleep 0.1; done\nexit $code\n`);
		chmodSync(lingering, 0o755);
		host = await startAgentHost([
			claudeTarget('claude-steer', midTurn.url, targetHome(dir, 'steer'), { allowedTools: ['Bash'] }),
			{ ...claudeTarget('claude-after', afterTurn.url, targetHome(dir, 'after'), { allowedTools: ['Bash'] }), path: lingering },
		]);
	});
	after(async () => {
		killLeftovers(host, [waitMarker, lingerMarker]);
		await host?.dispose();
		await midTurn.close();
		await afterTurn.close();
		dir.remove();
	});

	it('a message sent mid-turn reaches the model in the same Turn, echoed and recorded delivered; no second process', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'steer', 'claude-steer', 'Wait for the flag, then finish.');
		const runId = await latestRunId(h, issueId, taskId);
		await midTurn.waitForModelRequests(1);
		const sent = expectOk<Result<'run/send'>>(await h.cli(['run', 'send', '--run-id', runId, '--text', midTurnText, '--json'], { asUser: true }));
		assert.equal(sent.delivery, 'into-turn');
		// The supervisor wrote it to the agent's stdin; only then does the tool finish.
		await waitFor(async () => {
			const queue = expectOk<Result<'run/queue'>>(await h.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true }));
			return queue.messages[0]?.state !== 'queued' ? queue : undefined;
		}, { what: 'the message written into the Turn', timeoutMs: 30_000, intervalMs: 100 });
		writeFileSync(join(h.workspace, waitMarker), 'go');

		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], JSON.stringify(run));
		assert.equal(run.summary, 'Steered: tabs it is.');
		const requests = midTurn.modelRequests();
		assert.equal(requests.length, 2, 'one Turn: the first request and the one after the tool');
		const second = JSON.stringify(requests[1]!.body);
		assert.ok(second.includes('"tool_use_id":"toolu_wait"') && second.includes(midTurnText), 'the request after the tool carries its result and the message');
		assert.ok(!JSON.stringify(requests[0]!.body).includes(midTurnText));
		assert.equal(existsSync(join(h.workspace, '.tutti', 'runs', `${runId}.t2`)), false, 'no resume Turn was started');
		const queue = expectOk<Result<'run/queue'>>(await h.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true }));
		assert.deepEqual(queue.messages.map((m) => [m.text, m.delivered, m.state]), [[midTurnText, true, 'delivered']]);
		assert.ok(spec(h, runId).args.includes('--replay-user-messages'));
		const log = await runLog(h, runId);
		assert.ok(log.includes(midTurnText) && log.includes('"isReplay":true'), 'the agent echoed the message');
	});

	it('a message sent after the Turn ended waits, then resumes the same session as the next Turn; the Run settles once', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'follow', 'claude-after', 'Say you are done.');
		const runId = await latestRunId(h, issueId, taskId);
		// The Turn ended: the supervisor closed the agent's stdin at its result line.
		const stateFile = join(h.workspace, '.tutti', 'runs', runId, 'input-state.jsonl');
		await waitFor(() => (existsSync(stateFile) && readFileSync(stateFile, 'utf8').includes('"closed"')) || undefined,
			{ what: 'the first Turn to end', timeoutMs: 60_000, intervalMs: 100 });
		assert.equal((await runGet(h, runId)).status, 'running');
		const sent = expectOk<Result<'run/send'>>(await h.cli(['run', 'send', '--run-id', runId, '--text', afterTurnText, '--json'], { asUser: true }));
		assert.equal(sent.delivery, 'queued');
		writeFileSync(join(h.workspace, lingerMarker), 'go');

		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], JSON.stringify(run));
		assert.equal(run.summary, 'Thanks, follow-up handled.');
		assert.equal(afterTurn.turnsUsed(), 2);
		const requests = afterTurn.modelRequests();
		assert.ok(JSON.stringify(requests[requests.length - 1]!.body).includes(afterTurnText), 'the server saw the message');
		const sessionId = spec(h, runId).args[spec(h, runId).args.indexOf('--session-id') + 1];
		const second = spec(h, `${runId}.t2`).args;
		assert.equal(second[second.indexOf('--resume') + 1], sessionId, JSON.stringify(second));
		const queue = expectOk<Result<'run/queue'>>(await h.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true }));
		assert.deepEqual(queue.messages.map((m) => [m.text, m.delivered]), [[afterTurnText, true]]);
		const log = await runLog(h, runId);
		assert.ok(log.includes('First turn done.'), 'run log starts with the first Turn');
	});
});
