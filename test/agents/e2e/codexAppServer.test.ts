// End to end through the real Host and the real `codex app-server` (the default protocol of a codex target), its
// JSON-RPC spoken by the Run's supervisor:
// - a message sent with `tutti run send` while the Turn runs is steered into it (`turn/steer`): the model request after
//   the running tool carries it, it is recorded delivered once Codex shows it in the turn, and no second process starts;
// - a person's Stop interrupts the turn (`turn/interrupt`): the answer is `took`, the Run is the developer's
//   cancellation, and the running command is gone;
// - a Host killed -9 mid-turn: the supervisor keeps the server; the next Host reattaches, a message sent then still goes
//   into the same turn, and the Run settles once with no turn run twice;
// - a message sent after the turn ended waits, then becomes the next Turn of the same thread (`thread/resume`).
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectOk, type HostHandle, runGet, waitFor } from '../../integration/harness.js';
import { codexBin, jsonLines, makeTempDir, type TempDir } from '../agentKit.js';
import { pidsWithArg } from '../codexKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { codexTarget, killLeftovers, latestRunId, manualTask, runLog, settledRun, startAgentHost, targetHome } from './e2eKit.js';

const steerText = 'MID-TURN-STEER-5521: use tabs, not spaces';
const afterRestartText = 'AFTER-RESTART-STEER-6632: name it done.txt';
const afterTurnText = 'AFTER-TURN-FOLLOW-UP-8843: also say thanks';

/** A turn that waits in a shell command until the test writes `marker` in the workspace (no timing involved). */
function waitingScript(marker: string, steer: string, answer: string): Script {
	return {
		turns: [
			{ when: { any_includes: steer }, blocks: [{ type: 'text', text: answer }] },
			{ blocks: [{ type: 'tool', name: 'exec_command', id: `call_${marker}`, input: { cmd: `while [ ! -f ${marker} ]; do sleep 0.2; done; echo ready`, yield_time_ms: 30_000 } }] },
		],
		default: { blocks: [{ type: 'text', text: 'UNEXPECTED: the steer did not reach this request' }] },
	};
}

function spec(h: HostHandle, processId: string): { args: string[]; liveInput?: string; codexAppServer?: { resumeThreadId?: string } } {
	return JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', processId, 'spec.json'), 'utf8')) as ReturnType<typeof spec>;
}

describe('e2e: codex app-server workers through the Host', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	const servers: Record<string, ScriptedServer> = {};
	const stopMarker = `44.${String(process.pid)}`;

	before(async () => {
		dir = makeTempDir('tutti-e2e-appserver-');
		servers.steer = await startScriptedServer({ script: waitingScript('go-5521.flag', steerText, 'Steered: tabs it is.') });
		servers.restart = await startScriptedServer({ script: waitingScript('go-6632.flag', afterRestartText, 'Named it done.txt.') });
		servers.stop = await startScriptedServer({ script: { turns: [], default: { blocks: [{ type: 'tool', name: 'exec_command', id: 'call_sleep', input: { cmd: `sleep ${stopMarker}; echo slept`, yield_time_ms: 30_000 } }] } } });
		servers.after = await startScriptedServer({ script: { turns: [
			{ when: { last_user_includes: afterTurnText }, blocks: [{ type: 'text', text: 'Thanks, follow-up handled.' }] },
			{ blocks: [{ type: 'text', text: 'First turn done.' }] },
		] } });
		// This target's server lingers after Codex exits until the test lets it go, so a message can be sent after the
		// turn ended and before the Run settles (SIGTERM from the supervisor ends the wait too).
		const lingering = join(dir.path, 'lingering-codex.sh');
		writeFileSync(lingering, `#!/bin/sh\n[ "$2" = --help ] && exec "${codexBin}" "$@"\n"${codexBin}" "$@"\ncode=$?\ntrap 'exit $code' TERM\nwhile [ ! -f linger-8843.flag ]; do sleep 0.1; done\nexit $code\n`);
		chmodSync(lingering, 0o755);
		host = await startAgentHost([
			codexTarget('codex-steer', servers.steer.url, targetHome(dir, 'steer')),
			codexTarget('codex-restart', servers.restart.url, targetHome(dir, 'restart')),
			codexTarget('codex-stop', servers.stop.url, targetHome(dir, 'stop')),
			codexTarget('codex-after', servers.after.url, targetHome(dir, 'after'), { path: lingering }),
		]);
	});
	after(async () => {
		killLeftovers(host, ['go-5521.flag', 'go-6632.flag', 'linger-8843.flag']);
		for (const pid of pidsWithArg(stopMarker)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
		await host?.dispose();
		for (const s of Object.values(servers)) { await s.close(); }
		dir.remove();
	});

	const send = async (h: HostHandle, runId: string, text: string): Promise<Result<'run/send'>> =>
		expectOk<Result<'run/send'>>(await h.cli(['run', 'send', '--run-id', runId, '--text', text, '--json'], { asUser: true }));
	const queue = async (h: HostHandle, runId: string): Promise<Result<'run/queue'>> =>
		expectOk<Result<'run/queue'>>(await h.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true }));
	/** The supervisor handed the message to Codex (`turn/steer`); Codex takes it in once the running tool returns. */
	const sent = (h: HostHandle, runId: string): Promise<Result<'run/queue'>> => waitFor(async () => {
		const q = await queue(h, runId);
		return q.messages.every((m) => m.state !== 'queued') ? q : undefined;
	}, { what: 'the message handed to the turn', timeoutMs: 30_000, intervalMs: 100 });

	it('tutti agent list: a codex target runs through app-server and takes messages into the running turn', async () => {
		const listed = expectOk<Result<'agent/list'>>(await host!.cli(['agent', 'list', '--json'], { asUser: true }));
		const steer = listed.agentTargets.find((t) => t.id === 'codex-steer')!;
		assert.deepEqual([steer.protocol, steer.messagesWhileRunning], ['app-server', 'into-turn']);
		assert.match(steer.detail, /runs through codex app-server/);
	});

	it('a message sent mid-turn is steered into it: the next model request carries it, delivered once Codex shows it; no second process', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'steer', 'codex-steer', 'Wait for the flag, then finish.');
		const runId = await latestRunId(h, issueId, taskId);
		await servers.steer!.waitForModelRequests(1);
		assert.equal((await send(h, runId, steerText)).delivery, 'into-turn');
		assert.deepEqual((await sent(h, runId)).messages.map((m) => [m.text, m.state]), [[steerText, 'sent']], 'not delivered before Codex shows it');
		writeFileSync(join(h.workspace, 'go-5521.flag'), 'go');

		const run = await settledRun(h, runId);
		assert.deepEqual((await queue(h, runId)).messages.map((m) => [m.text, m.state]), [[steerText, 'delivered']]);
		assert.deepEqual([run.status, run.outcome, run.summary], ['completed', 'success', 'Steered: tabs it is.'], JSON.stringify(run));
		const requests = servers.steer!.modelRequests();
		assert.equal(requests.length, 2, 'one turn: the first request and the one after the tool');
		const second = JSON.stringify(requests[1]!.body);
		assert.ok(second.includes('"call_id":"call_go-5521.flag"') && second.includes(steerText), 'the request after the tool carries its output and the message');
		assert.equal(existsSync(join(h.workspace, '.tutti', 'runs', `${runId}.t2`)), false, 'no resume Turn was started');
		assert.equal(spec(h, runId).liveInput, 'codex-app-server');
		const steered = jsonLines(await runLog(h, runId)).filter((l) => l.method === 'item/started' && JSON.stringify(l).includes(steerText));
		assert.equal(steered.length, 1, 'Codex showed the message in the turn once');
	});

	it("a person's Stop mid-turn interrupts it: `took`, the developer's cancellation, and the command is gone", async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'stop', 'codex-stop', 'Sleep.');
		const runId = await latestRunId(h, issueId, taskId);
		await waitFor(() => (pidsWithArg(stopMarker).length > 0 ? true : undefined), { what: 'the command to run', timeoutMs: 30_000, intervalMs: 50 });
		const answer = expectOk<Result<'run/stop'>>(await h.cli(['run', 'stop', '--run-id', runId, '--json'], { asUser: true }));
		assert.equal(answer.answer, 'took');
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation'], JSON.stringify(run));
		assert.match(run.outcomeLabel ?? '', /^Interrupted after .+ — you stopped this$/);
		assert.deepEqual(run.stopNotes.map((n) => [n.reason, n.answer]), [['person', 'took']]);
		assert.equal(run.exitCode, 0, 'the server exited when its stdin closed, not by a signal');
		assert.deepEqual(pidsWithArg(stopMarker), [], 'no orphaned command');
		const ends = jsonLines(await runLog(h, runId)).filter((l) => l.method === 'turn/completed').map((l) => (l.params as { turn: { status: string } }).turn.status);
		assert.deepEqual(ends, ['interrupted'], 'Codex confirmed the interrupt');
	});

	it('a Host killed -9 mid-turn: the next Host reattaches, a message then still goes into the same turn, and the Run settles once', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'restart', 'codex-restart', 'Wait for the flag, then finish.');
		const runId = await latestRunId(h, issueId, taskId);
		await servers.restart!.waitForModelRequests(1);
		await h.kill9();
		await h.start();
		assert.equal((await runGet(h, runId)).status, 'running', 'reattached, still running');
		assert.equal((await send(h, runId, afterRestartText)).delivery, 'into-turn');
		await sent(h, runId);
		writeFileSync(join(h.workspace, 'go-6632.flag'), 'go');
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome, run.summary], ['completed', 'success', 'Named it done.txt.'], JSON.stringify(run));
		assert.equal(servers.restart!.modelRequests().length, 2, 'no turn was run twice');
		assert.deepEqual((await queue(h, runId)).messages.map((m) => m.state), ['delivered']);
		assert.ok(JSON.stringify(servers.restart!.modelRequests()[1]!.body).includes(afterRestartText));
	});

	it('a message sent after the turn ended waits, then resumes the same thread as the next Turn; the Run settles once', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'follow', 'codex-after', 'Say you are done.');
		const runId = await latestRunId(h, issueId, taskId);
		const stateFile = join(h.workspace, '.tutti', 'runs', runId, 'input-state.jsonl');
		await waitFor(() => (existsSync(stateFile) && readFileSync(stateFile, 'utf8').includes('"closed"')) || undefined,
			{ what: 'the first turn to end', timeoutMs: 60_000, intervalMs: 100 });
		assert.equal((await runGet(h, runId)).status, 'running');
		assert.equal((await send(h, runId, afterTurnText)).delivery, 'queued');
		writeFileSync(join(h.workspace, 'linger-8843.flag'), 'go');

		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome, run.summary], ['completed', 'success', 'Thanks, follow-up handled.'], JSON.stringify(run));
		const requests = servers.after!.modelRequests();
		assert.equal(requests.length, 2);
		const threadId = requests[0]!.headers['session-id'];
		assert.equal(requests[1]!.headers['session-id'], threadId, 'the same thread');
		assert.ok(JSON.stringify(requests[1]!.body).includes('First turn done.'), 'the next Turn carries the first');
		assert.equal(spec(h, `${runId}.t2`).codexAppServer?.resumeThreadId, threadId, 'thread/resume of the first Turn\'s thread');
		const q = await queue(h, runId);
		assert.deepEqual(q.messages.map((m) => [m.text, m.delivered]), [[afterTurnText, true]]);
	});
});
