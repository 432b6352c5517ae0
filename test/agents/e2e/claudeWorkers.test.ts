// End to end through the real Host and the real Claude Code CLI as a worker: a task on a claude target runs a Bash
// tool call and its Run completes with the usage of its stream; and the developer's Stop (`tutti run stop`) pressed
// before the turn opens, during a tool call, and twice — the Run ends "Interrupted after …" with the Stop answers in
// its stopNotes, and a later press never overwrites an answer that took; an agent's stop before the turn opens (claude
// exits 0 without a result) is a failure, never a success. One scripted model server per agent process
// (one target each).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTargetConfig } from '../../../src/core/runs/runProcessPort.js';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { RunDto } from '../../../src/protocol/dto.js';
import { expectOk, fenceOf, type HostHandle, managedIssue, runGet, taskSpec, waitFor } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { pidsWithArg } from '../codexKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, killLeftovers, latestRunId, manualTask, runLog, settledRun, startAgentHost, targetHome } from './e2eKit.js';

/** Unique argv words so the tool processes can be found (and reaped) in the process table. */
const sleepMarker = '30.4242';
const twiceMarker = '30.4343';

const toolThenDone = (id: string, command: string, final: string): Script => ({
	turns: [
		{ blocks: [{ type: 'text', text: 'Working on it.' }, { type: 'tool', name: 'Bash', id, input: { command, description: 'run the step' } }], usage: { input_tokens: 120, output_tokens: 30 } },
		{ when: { last_user_includes: id }, blocks: [{ type: 'text', text: final }], usage: { input_tokens: 200, output_tokens: 9, cache_read_input_tokens: 40 } },
	],
});

describe('e2e: claude workers through the Host', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	const servers: Record<string, ScriptedServer> = {};

	before(async () => {
		dir = makeTempDir('tutti-e2e-workers-');
		servers.work = await startScriptedServer({ script: toolThenDone('toolu_echo', 'echo done > out.txt', 'Done: wrote out.txt') });
		// (a) the first response's headers come only after 10 s: the Stop lands before the turn opens. (Not longer: the
		// server's pending timer would keep mocha alive after the suite.)
		servers.early = await startScriptedServer({ script: { turns: [{ blocks: [{ type: 'text', text: 'too late' }], delay_ms: 10_000 }] } });
		// (a') the same, ended by an agent's `plan issue stop` (a Host Stop, not the developer's).
		servers.agentStop = await startScriptedServer({ script: { turns: [{ blocks: [{ type: 'text', text: 'too late' }], delay_ms: 10_000 }] } });
		// (b) a slow Bash tool call is running when the Stop lands.
		servers.tool = await startScriptedServer({ script: toolThenDone('toolu_sleep', `sleep ${sleepMarker}`, 'slept') });
		// (c) the same, pressed twice at once and once more after the Run settled.
		servers.twice = await startScriptedServer({ script: toolThenDone('toolu_twice', `sleep ${twiceMarker}`, 'slept') });
		const targets = Object.entries(servers).map(([name, s]) => claudeTarget(`claude-${name}`, s.url, targetHome(dir, name), { allowedTools: ['Bash'] }));
		const ok: AgentTargetConfig = { id: 'ok', adapter: 'command', argv: [process.execPath, '-e', 'process.exit(0)'] };
		host = await startAgentHost([...targets, ok], { maxParallelRuns: 8 });
	});
	after(async () => {
		killLeftovers(host, [sleepMarker, twiceMarker]);
		await host?.dispose();
		for (const s of Object.values(servers)) { await s.close(); }
		dir.remove();
	});

	const stop = async (runId: string): Promise<Result<'run/stop'>> => expectOk<Result<'run/stop'>>(await host!.cli(['run', 'stop', '--run-id', runId, '--json'], { asUser: true }));
	const interrupted = (run: RunDto): void => {
		assert.equal(run.status, 'canceled', JSON.stringify(run));
		assert.equal(run.outcome, 'cancellation');
		assert.match(run.outcomeLabel ?? '', /^Interrupted after \d/);
	};
	/** Waits until the scripted server has sent the tool call and Claude's Bash has started it. */
	const toolRunning = async (server: ScriptedServer): Promise<void> => {
		await server.waitForModelRequests(1);
		await waitFor(() => (pidsWithArg(server === servers.tool ? sleepMarker : twiceMarker).length > 0 ? true : undefined), { what: 'the Bash tool to start', timeoutMs: 30_000 });
	};

	it('Stop before the turn opens (the model has not answered yet): Interrupted, the Stop took', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'early', 'claude-early', 'Answer slowly.');
		const runId = await latestRunId(h, issueId, taskId);
		await servers.early!.waitForModelRequests(1);
		const answer = await stop(runId);
		assert.equal(answer.answer, 'took');
		const run = await settledRun(h, runId);
		interrupted(run);
		assert.deepEqual(run.stopNotes.map((n) => [n.eventId, n.reason, n.answer]), [[answer.eventId, 'person', 'took']]);
		assert.equal(servers.early!.modelRequests().length, 1);
	});

	it("an agent's plan issue stop before the turn opens: claude exits without a result, so the Run failed (never a success)", async () => {
		const h = host!;
		const issue = await managedIssue(h, 'Stopped by its source agent');
		await issue.addTasks(taskSpec('a', 'claude-agentStop'), taskSpec('x', 'ok'));
		const { runIds: [runId] } = await issue.scheduleOk(['a', 'x']);
		await servers.agentStop!.waitForModelRequests(1);
		// x settles at once: its checkpoint is the one the source agent stops the issue from.
		expectOk(await issue.stop('the goal is abandoned', fenceOf(await issue.waitActive('task_settled', 'x'))));
		const run = await settledRun(h, runId!);
		assert.deepEqual([run.status, run.outcome], ['failed', 'failure'], JSON.stringify(run));
		assert.deepEqual(run.stopNotes.map((n) => n.reason), ['host']);
		const log = await runLog(h, runId!);
		const results = log.split('\n').filter((l) => l.includes('"type":"result"'));
		assert.ok(results.every((l) => l.includes('"is_error":true')), `any result line is an error: ${results.join('\n')}`);
		assert.match(run.outcomeLabel ?? '', results.length === 0 ? /^Ended without a result after \d/ : /^Failed after \d.* — the agent reported an error/);
	});

	it('a task on a claude target runs a Bash tool call; the Run completes with its usage', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'echo', 'claude-work', 'Write done to out.txt.');
		const run = await settledRun(h, await latestRunId(h, issueId, taskId));
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(run.outcome, 'success');
		assert.match(run.outcomeLabel ?? '', /^Completed in /);
		assert.equal(run.exitCode, 0);
		assert.equal(readFileSync(join(h.workspace, 'out.txt'), 'utf8'), 'done\n');
		assert.deepEqual(run.usage, { inputTokens: 320, outputTokens: 39, cacheReadTokens: 40, cacheWriteTokens: 0 });
		assert.equal(run.summary, 'Done: wrote out.txt');
		assert.equal(servers.work!.turnsUsed(), 2);
		// The worker prompt names the task; the agent got its TUTTI_* identity (it is in the Run's spec, not the prompt).
		const first = JSON.stringify(servers.work!.modelRequests()[0]!.body);
		assert.ok(first.includes(`do task ${taskId} of issue ${issueId}`) && first.includes('Write done to out.txt.'), first.slice(0, 400));
		const log = await runLog(h, run.runId);
		assert.ok(log.split('\n').some((l) => l.includes('"type":"result"') && l.includes('"subtype":"success"')), log.slice(-1000));
	});

	it('Stop during a Bash tool call: Interrupted, the tool process is gone', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'tool', 'claude-tool', 'Sleep.');
		const runId = await latestRunId(h, issueId, taskId);
		await toolRunning(servers.tool!);
		const answer = await stop(runId);
		assert.equal(answer.answer, 'took');
		const run = await settledRun(h, runId);
		interrupted(run);
		assert.deepEqual(run.stopNotes.map((n) => n.answer), ['took']);
		assert.deepEqual(pidsWithArg(sleepMarker), [], 'SIGINT let Claude Code kill its Bash tool');
		assert.equal(servers.tool!.modelRequests().length, 1, 'the interrupted turn made no further request');
	});

	it('Stop pressed twice (and once more after the end): one took, the others never overwrite it', async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'twice', 'claude-twice', 'Sleep.');
		const runId = await latestRunId(h, issueId, taskId);
		await toolRunning(servers.twice!);
		const [first, second] = await Promise.all([stop(runId), stop(runId)]);
		assert.notEqual(first.eventId, second.eventId);
		assert.deepEqual([first.answer, second.answer].sort(), ['no-effect', 'took']);
		const settled = await settledRun(h, runId);
		interrupted(settled);
		const late = await stop(runId);
		assert.equal(late.answer, 'no-effect');
		const run = await runGet(h, runId);
		interrupted(run);
		assert.equal(run.outcomeLabel, settled.outcomeLabel);
		const notes = new Map(run.stopNotes.map((n) => [n.eventId, n.answer]));
		assert.equal(notes.get(first.eventId), first.answer);
		assert.equal(notes.get(second.eventId), second.answer);
		assert.equal(notes.get(late.eventId), 'no-effect');
		assert.equal(run.stopNotes.filter((n) => n.answer === 'took').length, 1);
	});
});
