// A claude-target worker Run over real processes, with a stand-in `claude` executable that speaks stream-json in
// and out: the adapter's argv, the prompt as the first message on stdin, the TUTTI_* environment and `tutti` on PATH reach the process, and the
// Run settles from the Turn facts in its stdout.log (summary, usage, provider session id; is_error → failure; exit 0
// without a result line → failure).
import { strict as assert } from 'node:assert';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Caller } from '../../../src/protocol/controlPlane.js';
import { systemClock } from '../../../src/core/ports.js';
import type { HostConfig } from '../../../src/host/config.js';
import { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import { createHostServices, type HostServices } from '../../../src/host/services/hostServices.js';
import { methods, type Method, type Params, type ParsedParams, type Result } from '../../../src/protocol/controlPlane.js';
import { Store } from '../../../src/store/database.js';
import { sessionRepository } from '../../../src/store/repositories/sessionRepository.js';
import { recordingPlanService, sequentialIds } from '../../unit/host/services/serviceHarness.js';
import { killAllRuns, makeTempDir, type RunBuild, shareRunBuild } from '../runs/runTestKit.js';
import { waitFor } from '../../waitFor.js';

const user: Caller = { kind: 'user' };
const credential = 'the-users-own-credential';

/**
 * A fake Claude Code (`--input-format stream-json`): reads the first user message on stdin as its prompt, replays it,
 * reports what it was given as the final result, then waits for stdin to close, as the real one does.
 */
const fakeClaude = `#!${process.execPath}
const fs = require('fs');
const args = process.argv.slice(2);
const sid = args[args.indexOf('--session-id') + 1];
const path = (process.env.PATH || '').split(':');
const tutti = path.find((d) => fs.existsSync(d + '/tutti')) || '';
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('TUTTI_')));
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'system', subtype: 'init', session_id: sid });
let prompt = null;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
	if (prompt !== null) { return; }
	const m = JSON.parse(line);
	prompt = m.message.content[0].text;
	out({ type: 'user', isReplay: true, uuid: m.uuid, session_id: sid, message: m.message });
	const report = { args, prompt, tutti, env, sawCredential: Object.values(process.env).includes(${JSON.stringify(credential)}) };
	out({ type: 'assistant', session_id: sid, message: { content: [{ type: 'text', text: 'checking' }] } });
	if (prompt.includes('END WITHOUT A RESULT')) { process.exit(0); }
	const failing = prompt.includes('PLEASE FAIL');
	out({ type: 'result', subtype: failing ? 'error_during_execution' : 'success', is_error: failing, session_id: sid,
		result: failing ? 'model overloaded' : JSON.stringify(report), usage: { input_tokens: 11, output_tokens: 7 } });
}).on('close', () => process.exit(0));
`;

describe('claude-target worker Runs over real processes (stand-in claude)', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let ws: ReturnType<typeof makeTempDir>;
	let store: Store;
	let runner: ProcessRunner;
	let services: HostServices;

	shareRunBuild('tutti-fc-build-', (b) => {
		build = b;
		writeFileSync(join(build.path, 'claude'), fakeClaude);
		chmodSync(join(build.path, 'claude'), 0o755);
	});

	beforeEach(async () => {
		ws = makeTempDir('tutti-fc-ws-');
		const tuttiDir = join(ws.path, '.tutti');
		const config: HostConfig = { agentTargets: [{ id: 'cc', adapter: 'claude', path: join(build.path, 'claude') }], maxParallelRuns: 4, autoAcceptDefault: false };
		store = await Store.open({ dir: tuttiDir, lease: false });
		runner = new ProcessRunner({ workspace: ws.path, tuttiDir, supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir, pollIntervalMs: 50, hostEnv: { ...process.env, TUTTI_SESSION_TOKEN: credential, TUTTI_USER_TOKEN: credential } });
		services = createHostServices({
			workspace: ws.path, tuttiDir, store, clock: systemClock, ids: sequentialIds(), runs: runner, config,
			endpoint: join(ws.path, 'cp.sock'), userCredential: credential, cliShim: join(build.shimDir, 'tutti'), log: () => undefined, planServiceFactory: recordingPlanService([]),
		});
		await services.start();
	});
	afterEach(async () => {
		killAllRuns(join(ws.path, '.tutti'));
		services.dispose();
		runner.dispose();
		await store.close();
		ws.remove();
	});

	function call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
		const handler = services.api.handlers[method] as (p: ParsedParams<M>, c: Caller) => Promise<Result<M>>;
		return handler(methods[method].params.parse(params) as ParsedParams<M>, user);
	}

	async function settledRunOf(issueId: string): Promise<Result<'run/get'>> {
		return waitFor(async () => {
			const runId = (await call('issue/get', { issueId })).tasks[0]?.latestRunId ?? '';
			const run = runId === '' ? undefined : await call('run/get', { runId });
			return run?.status === 'running' ? undefined : run;
		}, { what: 'the Run to settle', timeoutMs: 30_000 });
	}

	it('starts claude with the adapter argv, the prompt on stdin, TUTTI_* and tutti on PATH, and settles from the stream', async () => {
		const issueId = (await call('issue/create', { title: 'claude' })).issueId;
		await call('task/add', { issueId, taskId: 'a', title: 'a', content: 'list the files', agentTargetId: 'cc' });
		const run = await settledRunOf(issueId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], run.errorMessage);
		const report = JSON.parse(run.summary) as { args: string[]; prompt: string; tutti: string; env: Record<string, string>; sawCredential: boolean };
		assert.deepEqual(report.args.slice(0, 7), ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages']);
		assert.match(report.prompt, /Tutti worker agent[\s\S]*--- task ---\nlist the files$/);
		assert.equal(report.args.some((a) => a.includes('list the files')), false, 'the prompt is not in argv');
		assert.equal(report.tutti, build.shimDir, '`tutti` is first found in the private shim directory');
		assert.deepEqual(Object.keys(report.env).sort(), ['TUTTI_IPC_HOOK', 'TUTTI_ISSUE_ID', 'TUTTI_RUN_ID', 'TUTTI_SESSION_ID', 'TUTTI_SESSION_TOKEN', 'TUTTI_TASK_ID']);
		assert.equal(report.env.TUTTI_RUN_ID, run.runId);
		assert.notEqual(report.env.TUTTI_SESSION_TOKEN, credential);
		assert.equal(report.sawCredential, false, 'a credential in the Host environment (Host started from a Tutti terminal) never reaches the agent');
		assert.deepEqual([run.usage.inputTokens, run.usage.outputTokens], [11, 7]);
		const session = store.read((r) => sessionRepository.get(r, run.agentSessionId));
		assert.equal(session?.providerSessionId, report.args[report.args.indexOf('--session-id') + 1]);
	});

	it('an is_error result settles failed although claude exited 0', async () => {
		const issueId = (await call('issue/create', { title: 'claude' })).issueId;
		await call('task/add', { issueId, taskId: 'a', title: 'a', content: 'PLEASE FAIL', agentTargetId: 'cc' });
		const run = await settledRunOf(issueId);
		assert.deepEqual([run.status, run.outcome, run.exitCode], ['failed', 'failure', 0]);
		assert.equal(run.errorMessage, 'the agent reported an error: model overloaded');
	});

	it('exit 0 without a result line settles failed: "Ended without a result", not a success', async () => {
		const issueId = (await call('issue/create', { title: 'claude' })).issueId;
		await call('task/add', { issueId, taskId: 'a', title: 'a', content: 'END WITHOUT A RESULT', agentTargetId: 'cc' });
		const run = await settledRunOf(issueId);
		assert.deepEqual([run.status, run.outcome, run.exitCode], ['failed', 'failure', 0], run.outcomeLabel ?? '');
		assert.match(run.outcomeLabel ?? '', /^Ended without a result after \d/);
		assert.equal(run.summary, 'checking', 'what the agent said is kept as the summary');
		assert.equal((await call('issue/get', { issueId })).tasks[0]?.status, 'failed');
	});
});
