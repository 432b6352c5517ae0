// A claude worker launched the way the Host launches every Run: ProcessRunner → detached supervisor → the
// claude adapter's command, stdin /dev/null, the target's env (pointing at the scripted model server), the
// Run's TUTTI_* variables and the `tutti` shim first on PATH. The worker calls `tutti` through its Bash tool
// with the default allowedTools, and the Turn facts are read from the stdout the supervisor captured.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { claudeAdapter } from '../../src/agents/claude.js';
import { ProcessRunner } from '../../src/host/runs/processRunner.js';
import type { RunExit } from '../../src/core/runs/runProcessPort.js';
import { killAllRuns, type RunBuild, shareRunBuild } from '../integration/runs/runTestKit.js';
import { type AgentSandbox, agentLaunchSpec, claudeTestTarget, isolatedEnv, makeAgentSandbox } from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

describe('claude worker through ProcessRunner (real supervisor, real CLI)', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let sandbox: AgentSandbox;
	let server: ScriptedServer | undefined;
	let runner: ProcessRunner | undefined;

	shareRunBuild('tutti-claude-sup-', (b) => { build = b; }, { withRunId: true });
	beforeEach(() => { sandbox = makeAgentSandbox('tutti-claude-run-'); });
	afterEach(async () => {
		killAllRuns(join(sandbox.workspace, '.tutti'));
		runner?.dispose();
		await server?.close();
		server = undefined;
		sandbox.remove();
	});

	it('runs a Turn whose tutti call reaches the CLI with the Run environment, and settles from the captured stdout', async () => {
		server = await startScriptedServer({
			script: {
				turns: [
					{ blocks: [{ type: 'tool', name: 'Bash', id: 'toolu_cli', input: { command: 'tutti run whoami --json', description: 'Ask Tutti' } }] },
					{ when: { last_user_includes: 'toolu_cli' }, blocks: [{ type: 'text', text: 'reported' }] },
				],
			},
		});
		const tuttiDir = join(sandbox.workspace, '.tutti');
		runner = new ProcessRunner({
			workspace: sandbox.workspace, tuttiDir, supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir, pollIntervalMs: 50, hostEnv: isolatedEnv(sandbox.home),
		});
		const exits: RunExit[] = [];
		runner.onExit((e) => exits.push(e));
		const sessionId = randomUUID();
		await runner.launch(agentLaunchSpec('run-claude-1', claudeTestTarget(server.url, sandbox), sandbox.workspace, { prompt: 'report to tutti', newProviderSessionId: sessionId }));
		const exit = await waitFor(() => exits.find((e) => e.runId === 'run-claude-1'), { what: 'the claude Run to exit', timeoutMs: 30_000 });
		const stdout = runner.readLog('run-claude-1', 'stdout', 0, 10_000_000).data;
		assert.equal(exit.exitCode, 0, `${runner.readLog('run-claude-1', 'stderr', 0, 100_000).data}\n${stdout.slice(-2000)}`);

		// The fake CLI printed its argv and env: the shim ran it, and the Run's own id reached it. (The command is
		// literal on purpose: `Bash(tutti:*)` refuses `$VAR` expansion with "Contains simple_expansion".)
		const toolResult = JSON.stringify((server.modelRequests()[1]!.body as { messages: { role: string }[] }).messages.filter((m) => m.role === 'user').at(-1));
		assert.ok(toolResult.includes('{\\"cli\\":[\\"run\\",\\"whoami\\",\\"--json\\"],\\"run\\":\\"run-claude-1\\"}'), toolResult);

		const facts = claudeAdapter.parseTurnFacts!(stdout);
		assert.equal(facts.providerSessionId, sessionId);
		assert.deepEqual(facts.toolCalls.map((c) => c.name), ['Bash']);
		assert.deepEqual(facts.result, { ok: true, text: 'reported' });
		assert.deepEqual(facts.errors, []);
	});
});
