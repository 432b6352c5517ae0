// The Stop hook with the real Claude Code and Codex CLIs (pinned devDependencies) against the scripted model
// server: blocked while work is owed, released by Finish, fail-open when the Host is down. Codex has no block cap
// of its own, so its run ends when Tutti's 60-block budget releases it (the slowest tests of the agent tier). codex
// app-server runs no untrusted hook: there the Run's supervisor plays the same hook between turns of the thread.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { codexAdapter } from '../../src/agents/codex.js';
import { stopHookCommand, stopHookLaunchArgs, withClaudeStopHook, withCodexStopHook } from '../../src/agents/stopHook.js';
import type { RunExit } from '../../src/core/runs/runProcessPort.js';
import { ProcessRunner } from '../../src/host/runs/processRunner.js';
import { type RunBuild, shareRunBuild } from '../integration/runs/runTestKit.js';
import { agentLaunchSpec, claudeBin, claudeEnv, codexBin, isolatedEnv, makeAgentSandbox, spawnAgent } from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { codexTestTarget } from './codexKit.js';
import { startScriptedServer } from './modelServer/server.js';
import { cliJs, expectOk, type HostHandle, type ManagedIssue, managedIssue, standardTargets, startHost, taskSpec } from '../integration/harness.js';

const hookCommand = stopHookCommand([process.execPath, cliJs]);

async function completeAndFinish(host: HostHandle, issue: ManagedIssue): Promise<void> {
	await issue.addTasks(taskSpec('a', 'ok', [], { autoAccept: true }));
	await issue.scheduleOk(['a']);
	let snapshot = await issue.waitSnapshot((s) => s.activeCheckpoint !== null && s.activeCheckpoint.kind !== 'initial_schedule', 'a settlement');
	while (snapshot.activeCheckpoint?.kind !== 'all_tasks_terminal') {
		await issue.acknowledgeOk();
		snapshot = await issue.get();
	}
	await issue.completeOk();
	expectOk(await host.cli(['finish', '--issue-id', issue.issueId, '--as-user', '--json']));
}

describe('real agents: the Stop hook', function () {
	this.timeout(180_000);
	let host: HostHandle;
	const sandbox = makeAgentSandbox();
	let build: RunBuild;
	shareRunBuild('tutti-hook-sup-', (b) => { build = b; });

	before(async () => {
		host = await startHost({ config: (g) => ({ agentTargets: standardTargets(g), maxParallelRuns: 2, developerConfirmation: false, autoAcceptDefault: true } as never) });
	});
	after(async () => { await host.dispose(); sandbox.remove(); });

	async function claude(token: string, socket = host.socket): Promise<string[]> {
		const server = await startScriptedServer({ script: { turns: [], default: { blocks: [{ type: 'text', text: 'done' }] } } });
		try {
			const env = { ...isolatedEnv(sandbox.home), ...claudeEnv(server.url, sandbox.claudeConfigDir), TUTTI_IPC_HOOK: socket, TUTTI_SESSION_TOKEN: token, TUTTI_HOOK_CONNECT_TIMEOUT_MS: '300' };
			await spawnAgent(claudeBin, withClaudeStopHook(['-p', 'hello', '--output-format', 'stream-json', '--verbose'], hookCommand), sandbox.workspace, env, 90_000).done;
			return server.modelRequests().map((r) => JSON.stringify(r.body));
		} finally { await server.close(); }
	}

	it('claude: a turn ending while work is owed is blocked with the exact command; after Finish, and with the Host down, it ends', async () => {
		const issue = await managedIssue(host);
		const blocked = await claude(issue.source.token);
		assert.ok(blocked.length >= 2, 'the hook made Claude continue');
		assert.match(blocked[1]!, new RegExp(`Run this now: tutti plan issue get --issue-id ${issue.issueId} --json`));
		assert.equal((await claude(issue.source.token, join(host.base, 'absent.sock'))).length, 1, 'fails open when the Host is down');
		await completeAndFinish(host, issue);
		assert.equal((await claude(issue.source.token)).length, 1, 'Finish lets the agent exit');
	});

	it('codex: blocked by the real hook until the budget releases it (Codex does not cap blocks itself)', async () => {
		const issue = await managedIssue(host);
		const server = await startScriptedServer({ script: { turns: [], default: { blocks: [{ type: 'text', text: 'again' }] } } });
		try {
			const codexHome = join(sandbox.home, 'codex');
			mkdirSync(codexHome, { recursive: true });
			const base = ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', 'gpt-5.5', '-c', 'model_provider=mock',
				'-c', `model_providers.mock={name="mock",base_url="${server.url}/v1",wire_api="responses",request_max_retries=0,stream_max_retries=0}`,
				'-c', 'analytics.enabled=false', '-c', 'check_for_update_on_startup=false', 'hello'];
			const env = { ...isolatedEnv(sandbox.home), CODEX_HOME: codexHome, TUTTI_IPC_HOOK: host.socket, TUTTI_SESSION_TOKEN: issue.source.token };
			const result = await spawnAgent(codexBin, withCodexStopHook(base, hookCommand), sandbox.workspace, env, 150_000).done;
			const requests = server.modelRequests().map((r) => JSON.stringify(r.body));
			assert.match(requests[1] ?? '', new RegExp(`Run this now: tutti plan issue get --issue-id ${issue.issueId} --json`));
			assert.equal(requests.length, 61, '60 blocks, then the release');
			assert.equal(result.code, 0);
		} finally { await server.close(); }
	});

	it('codex app-server: the Run supervisor plays the hook between turns, blocked until the budget releases it', async () => {
		const issue = await managedIssue(host);
		const server = await startScriptedServer({ script: { turns: [], default: { blocks: [{ type: 'text', text: 'again' }] } } });
		const runner = new ProcessRunner({
			workspace: sandbox.workspace, tuttiDir: join(sandbox.workspace, '.tutti'), supervisorScript: build.supervisorScript,
			pollIntervalMs: 50, hostEnv: isolatedEnv(sandbox.home),
		});
		try {
			const exits: RunExit[] = [];
			runner.onExit((e) => exits.push(e));
			const target = codexTestTarget(server, sandbox);
			const spec = agentLaunchSpec('run-hook', target, sandbox.workspace, { prompt: 'hello', extraArgs: stopHookLaunchArgs('codex', hookCommand) });
			// A source session's Turn: the Host's socket and the session's token, no Run of its own.
			await runner.launch({ ...spec, env: { TUTTI_IPC_HOOK: host.socket, TUTTI_SESSION_TOKEN: issue.source.token } });
			const exit = await waitFor(() => exits[0], { what: 'the Turn to end', timeoutMs: 150_000 });
			const requests = server.modelRequests().map((r) => JSON.stringify(r.body));
			assert.match(requests[1] ?? '', new RegExp(`Run this now: tutti plan issue get --issue-id ${issue.issueId} --json`));
			assert.equal(requests.length, 61, '60 blocks, then the release');
			assert.equal(exit.exitCode, 0);
			const facts = codexAdapter.parseTurnFacts!(runner.readLog('run-hook', 'stdout', 0, 50_000_000).data);
			assert.deepEqual(facts.result, { ok: true, text: 'again' });
			assert.equal(facts.usage.inputTokens, 61 * 20, 'every turn of the thread counts once');
		} finally {
			runner.dispose();
			await server.close();
		}
	});
});
