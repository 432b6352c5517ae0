// The Stop hook with the real Claude Code and Codex CLIs (pinned devDependencies) against the scripted model
// server: blocked while work is owed, released by Finish, fail-open when the Host is down. Codex has no block cap
// of its own, so its run ends when Tutti's 60-block budget releases it (the slowest test of the agent tier).
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stopHookCommand, withClaudeStopHook, withCodexStopHook } from '../../src/agents/stopHook.js';
import { claudeBin, claudeEnv, codexBin, isolatedEnv, makeAgentSandbox, spawnAgent } from './agentKit.js';
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
});
