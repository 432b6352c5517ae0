// End to end through the real Host and the real Claude Code CLI: the Host stops (SIGTERM, as on a window reload)
// while two claude workers stream slowly; the agents keep going under their supervisors, and the next Host
// re-attaches them (or settles them from their exit records). Each Run settles once, as a success, with no second
// agent process, and a further restart changes nothing.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '../../../src/protocol/controlPlane.js';
import type { RunDto } from '../../../src/protocol/dto.js';
import { expectOk, type HostHandle, runGet } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, killLeftovers, latestRunId, manualTask, settledRun, startAgentHost, targetHome } from './e2eKit.js';

/** One slow text turn: `parts` text blocks, `delayMs` between SSE events. */
function slowAnswer(name: string, parts: number, delayMs: number): Script {
	const blocks = Array.from({ length: parts }, (_, i) => ({ type: 'text' as const, text: `${name} part ${i + 1}. ` }));
	return { turns: [{ blocks, chunk_delay_ms: delayMs }] };
}

function alive(pid: number): boolean {
	try { process.kill(pid, 0); return true; } catch { return false; }
}

describe('e2e: a Host restart while two claude workers run', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	const servers: ScriptedServer[] = [];

	before(async () => {
		dir = makeTempDir('tutti-e2e-restart-');
		servers.push(await startScriptedServer({ script: slowAnswer('first', 3, 250) }));
		servers.push(await startScriptedServer({ script: slowAnswer('second', 6, 300) }));
		host = await startAgentHost(servers.map((s, i) => claudeTarget(`claude-r${i + 1}`, s.url, targetHome(dir, `r${i + 1}`))));
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		for (const s of servers) { await s.close(); }
		dir.remove();
	});

	it('both Runs settle exactly once across the restart', async () => {
		const h = host!;
		const a = await manualTask(h, 'r1', 'claude-r1', 'Answer slowly.');
		await manualTask(h, 'r2', 'claude-r2', 'Answer more slowly.', a.issueId);
		const runIds = [await latestRunId(h, a.issueId, 'r1'), await latestRunId(h, a.issueId, 'r2')];
		await Promise.all(servers.map((s) => s.waitForModelRequests(1)));
		const agentPids = runIds.map((id) => (JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', id, 'pid.json'), 'utf8')) as { agentPid: number }).agentPid);

		await h.stop();
		assert.ok(agentPids.some(alive), 'the agents outlive the Host (their supervisors own them)');
		await h.start();

		const settled: RunDto[] = [];
		for (const runId of runIds) { settled.push(await settledRun(h, runId)); }
		settled.forEach((run, i) => {
			assert.equal(run.status, 'completed', JSON.stringify(run));
			assert.equal(run.outcome, 'success');
			assert.equal(run.exitCode, 0);
			assert.match(run.summary, new RegExp(`${i === 0 ? 'first' : 'second'} part ${i === 0 ? 3 : 6}\\.`));
			assert.deepEqual(run.stopNotes, [], 'a Host stop never stops a Run');
		});
		assert.deepEqual(servers.map((s) => s.modelRequests().length), [1, 1], 'no agent process was started twice');

		// Settled once: one Run per task, and another restart leaves every Run exactly as it was.
		const list = methods['run/list'].result.parse(expectOk(await h.cli(['run', 'list', '--issue-id', a.issueId, '--json'], { asUser: true })));
		assert.deepEqual(list.runs.map((r) => r.runId).sort(), [...runIds].sort());
		await h.restart();
		for (const [i, runId] of runIds.entries()) {
			const again = await runGet(h, runId);
			assert.deepEqual({ ...again, outputDir: '' }, { ...settled[i]!, outputDir: '' });
		}
	});
});
