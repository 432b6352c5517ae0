import { strict as assert } from 'node:assert';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { launchIntentRepository } from '../../../../src/store/repositories/launchIntentRepository.js';
import { turnRepository } from '../../../../src/store/repositories/turnRepository.js';
import { rejects, ServiceHarness } from './serviceHarness.js';

const twoMinutesThree = 123_000;

describe('host services: Run launch and settlement', () => {
	let h: ServiceHarness;
	let issueId: string;
	beforeEach(async () => {
		h = await ServiceHarness.open();
		issueId = (await h.call('issue/create', { title: 'runs', autoAccept: true })).issueId;
	});
	afterEach(async () => { await h.close(); });

	async function startTask(taskId: string, extra: { content?: string; executionDirectory?: string; autoAccept?: boolean } = {}): Promise<string> {
		await h.call('task/add', { issueId, taskId, title: taskId, agentTargetId: 'ok', ...extra });
		await h.idle();
		const launched = h.runs.launches.find((l) => l.taskId === taskId);
		if (launched) { return launched.runId; }
		const task = (await h.call('issue/get', { issueId })).tasks.find((t) => t.taskId === taskId)!;
		return task.latestRunId;
	}

	it('launches with the TUTTI_* environment, a fresh worker token, the task content on stdin and its directory as cwd', async () => {
		mkdirSync(join(h.workspace, 'pkg'));
		const runId = await startTask('a', { content: 'do the thing', executionDirectory: 'pkg' });
		const spec = h.runs.launches[0]!;
		assert.equal(spec.stdinText, 'do the thing');
		assert.equal(spec.cwd, realpathSync(join(h.workspace, 'pkg')));
		assert.equal(spec.target.id, 'ok');
		const run = await h.call('run/get', { runId });
		assert.deepEqual(Object.keys(spec.env).sort(), ['TUTTI_IPC_HOOK', 'TUTTI_ISSUE_ID', 'TUTTI_RUN_ID', 'TUTTI_SESSION_ID', 'TUTTI_SESSION_TOKEN', 'TUTTI_TASK_ID']);
		assert.equal(spec.env.TUTTI_RUN_ID, runId);
		assert.equal(spec.env.TUTTI_TASK_ID, 'a');
		assert.equal(spec.env.TUTTI_ISSUE_ID, issueId);
		assert.equal(spec.env.TUTTI_SESSION_ID, run.agentSessionId);
		assert.deepEqual(h.services.api.authenticate(spec.env.TUTTI_SESSION_TOKEN), { kind: 'session', sessionId: run.agentSessionId, role: 'worker' });
		assert.equal(run.status, 'running');
		assert.equal(run.outputDir, h.runs.runDir(runId));
		assert.ok(run.startedAtUnixMs > 0);
		assert.equal(h.store.read((r) => launchIntentRepository.byRun(r, runId))?.status, 'dispatched');
		assert.equal(h.store.read((r) => turnRepository.bySubmitId(r, `issue-run:${runId}`))?.state, 'running');
		const task = (await h.call('issue/get', { issueId })).tasks[0]!;
		assert.deepEqual([task.status, task.latestRunId], ['running', runId]);
	});

	it('settles only from the exact Turn binding issue-run:<runId>; other exit records are ignored', async () => {
		const runId = await startTask('a');
		h.runs.exit(runId, { exitCode: 0, clientSubmitId: 'issue-run:someone-else' });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'running');
		assert.ok(h.logs.some((l) => l.includes('issue-run:someone-else')));
		await h.call('run/report', { runId, event: 'exited' });
		assert.equal((await h.call('run/get', { runId })).status, 'running', 'a re-check of the same foreign record changes nothing');
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'completed');
	});

	it('success: completed + auto_checked with autoAccept, pending_acceptance + agent_claimed without', async () => {
		const auto = await startTask('auto');
		const review = await startTask('review', { autoAccept: false });
		h.clock.advance(twoMinutesThree);
		h.runs.exit(auto, { exitCode: 0 });
		h.runs.exit(review, { exitCode: 0 });
		await h.idle();
		const tasks = (await h.call('issue/get', { issueId })).tasks;
		assert.deepEqual(tasks.map((t) => [t.taskId, t.status, t.acceptanceState]), [['auto', 'completed', 'auto_checked'], ['review', 'pending_acceptance', 'agent_claimed']]);
		const run = await h.call('run/get', { runId: auto });
		assert.equal(run.outcome, 'success');
		assert.equal(run.exitCode, 0);
		assert.equal(run.outcomeLabel, 'Completed in 2m 03s');
		assert.equal(run.durationMs, twoMinutesThree);
		assert.equal(h.store.read((r) => turnRepository.bySubmitId(r, `issue-run:${auto}`))?.outcome, 'success');
	});

	it('a non-zero exit is a failure: "exited with code N", "Failed after …"', async () => {
		const runId = await startTask('a');
		h.clock.advance(twoMinutesThree);
		h.runs.exit(runId, { exitCode: 3 });
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome, run.exitCode, run.errorMessage], ['failed', 'failure', 3, 'exited with code 3']);
		assert.equal(run.outcomeLabel, 'Failed after 2m 03s — exited with code 3');
		assert.equal((await h.call('issue/get', { issueId })).tasks[0]!.status, 'failed');
	});

	it('a spawn failure recorded by the runner settles the Run failed with that message', async () => {
		h.runs.launchError = new Error('spawn nope ENOENT');
		h.runs.holdLaunch = undefined;
		const original = h.runs.launch.bind(h.runs);
		h.runs.launch = async (spec) => {
			h.runs.exits.set(spec.runId, { runId: spec.runId, clientSubmitId: `issue-run:${spec.runId}`, exitCode: null, signal: null, startedAtUnixMs: h.clock.now(), endedAtUnixMs: h.clock.now(), spawnError: 'spawn nope ENOENT' });
			return original(spec);
		};
		const runId = await startTask('a');
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome, run.errorMessage], ['failed', 'failure', 'spawn nope ENOENT']);
		assert.equal(h.store.read((r) => launchIntentRepository.byRun(r, runId))?.status, 'failed');
	});

	it('an execution directory that escapes the workspace through a symlink settles the Run failed without a process', async () => {
		symlinkSync(h.dir, join(h.workspace, 'escape'));
		const runId = await startTask('a', { executionDirectory: 'escape' });
		assert.equal(h.runs.launches.length, 0);
		const run = await h.call('run/get', { runId });
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage, /outside the workspace through a symbolic link/);
		const missing = await startTask('b', { executionDirectory: 'does-not-exist' });
		assert.match((await h.call('run/get', { runId: missing })).errorMessage, /does not exist/);
	});

	it('run/list, run/log and not-found errors', async () => {
		const runId = await startTask('a');
		h.runs.logs.set(runId, 'hello\n');
		assert.deepEqual(await h.call('run/log', { runId }), { runId, data: 'hello\n', nextOffset: 6, done: false });
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/log', { runId, offset: 6 })).done, true);
		assert.deepEqual((await h.call('run/list', { issueId })).runs.map((r) => r.runId), [runId]);
		await rejects(h.call('run/get', { runId: 'nope' }), 'run_not_found');
		await rejects(h.call('run/list', { issueId: 'nope' }), 'issue_not_found');
	});

	it('agent/list reports whether each target\'s executable is found', async () => {
		await h.close();
		h = await ServiceHarness.open({ config: { agentTargets: [
			{ id: 'node', adapter: 'command', argv: [process.execPath, '-e', '0'] },
			{ id: 'ghost', adapter: 'command', argv: ['definitely-not-a-command-xyz'] },
			{ id: 'sh', adapter: 'command', argv: ['sh'] },
		] } });
		const { agentTargets } = await h.call('agent/list', {});
		assert.deepEqual(agentTargets.map((t) => [t.id, t.found]), [['node', true], ['ghost', false], ['sh', true]]);
		assert.equal(agentTargets[0]!.path, process.execPath);
	});
});
