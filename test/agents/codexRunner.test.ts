// A codex worker launched the way the Host launches every Run: ProcessRunner → detached supervisor → the codex
// adapter's command (default sandbox), the target's env (pointing at the scripted Responses server), the Run's
// TUTTI_* variables and the `tutti` shim first on PATH. The worker calls `tutti` through exec_command; the Turn facts
// are read from the stdout the supervisor captured. Both protocols: `app-server` (the default: the supervisor speaks
// JSON-RPC with `codex app-server` and keeps its lines as stdout) and `exec` (stdin /dev/null, the JSONL stream).
// A Stop ends the agent and its running command: app-server through its supervisor (`turn/interrupt`, then stdin
// closed — SIGINT would orphan the command, which app-server runs in a session of its own), exec by SIGINT to the group.
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexAdapter } from '../../src/agents/codex.js';
import { ProcessRunner } from '../../src/host/runs/processRunner.js';
import type { RunExit } from '../../src/core/runs/runProcessPort.js';
import { killAllRuns, type RunBuild, shareRunBuild } from '../integration/runs/runTestKit.js';
import { type AgentSandbox, agentLaunchSpec, codexBin, isolatedEnv, jsonLines, makeAgentSandbox } from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { codexTestTarget, pidsWithArg } from './codexKit.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

describe('codex worker through ProcessRunner (real supervisor, real CLI)', function () {
	this.timeout(60_000);
	let build: RunBuild;
	let sandbox: AgentSandbox;
	let server: ScriptedServer | undefined;
	let runner: ProcessRunner | undefined;

	shareRunBuild('tutti-codex-sup-', (b) => { build = b; }, { withRunId: true });
	beforeEach(() => { sandbox = makeAgentSandbox('tutti-codex-run-'); });
	afterEach(async () => {
		killAllRuns(join(sandbox.workspace, '.tutti'));
		runner?.dispose();
		runner = undefined;
		await server?.close();
		server = undefined;
		sandbox.remove();
	});

	function startRunner(): { runner: ProcessRunner; exits: RunExit[] } {
		runner = new ProcessRunner({
			workspace: sandbox.workspace, tuttiDir: join(sandbox.workspace, '.tutti'), supervisorScript: build.supervisorScript, cliScript: build.cliScript, shimDir: build.shimDir,
			pollIntervalMs: 50, interruptGraceMs: 3000, killWaitMs: 2000, hostEnv: isolatedEnv(sandbox.home),
		});
		const exits: RunExit[] = [];
		runner.onExit((e) => exits.push(e));
		return { runner, exits };
	}

	for (const protocol of ['app-server', 'exec'] as const) {
		it(`${protocol}: runs a Turn whose tutti call reaches the CLI with the Run environment, and settles from the captured stdout`, async () => {
			server = await startScriptedServer({
				script: {
					turns: [
						{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_cli', input: { cmd: 'tutti run whoami --json' } }] },
						{ when: { last_user_includes: 'call_cli' }, blocks: [{ type: 'text', text: 'reported' }] },
					],
				},
			});
			const { runner: r, exits } = startRunner();
			await r.launch(agentLaunchSpec('run-codex-1', codexTestTarget(server, sandbox, { protocol }), sandbox.workspace, { prompt: 'report to tutti' }));
			const exit = await waitFor(() => exits.find((e) => e.runId === 'run-codex-1'), { what: 'the codex Run to exit', timeoutMs: 30_000 });
			const stdout = r.readLog('run-codex-1', 'stdout', 0, 10_000_000).data;
			assert.equal(exit.exitCode, 0, `${r.readLog('run-codex-1', 'stderr', 0, 100_000).data}\n${stdout.slice(-2000)}`);
			assert.equal(jsonLines(stdout).some((l) => 'method' in l), protocol === 'app-server', 'the stdout is the protocol\'s');

			// The fake CLI printed its argv and env: the shim ran it inside Codex's sandbox (found on PATH: no login
			// shell resetting it), with this Run's id.
			const input = (server.modelRequests()[1]!.body as { input: { type: string; output?: string }[] }).input;
			const output = input.find((i) => i.type === 'function_call_output')?.output ?? '';
			assert.ok(output.includes('{"cli":["run","whoami","--json"],"run":"run-codex-1"}'), output);

			const facts = codexAdapter.parseTurnFacts!(stdout);
			assert.match(facts.providerSessionId, /^[0-9a-f-]{36}$/);
			assert.deepEqual(facts.toolCalls.map((c) => c.name), ['exec_command']);
			assert.deepEqual(facts.result, { ok: true, text: 'reported' });
			assert.deepEqual(facts.errors, []);
			assert.deepEqual(facts.usage, { inputTokens: 40, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }, 'two scripted responses of 20 in / 10 out');
		});
	}

	it('app-server: a Stop during a shell command interrupts the turn and ends the server and the command', async () => {
		const marker = `41.${String(process.pid)}`;
		server = await startScriptedServer({
			script: { turns: [{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_sleep', input: { cmd: `sleep ${marker}`, yield_time_ms: 30_000 } }] }] },
		});
		const { runner: r, exits } = startRunner();
		await r.launch(agentLaunchSpec('run-codex-2', codexTestTarget(server, sandbox), sandbox.workspace, { prompt: 'sleep' }));
		const started = (): boolean => jsonLines(r.readLog('run-codex-2', 'stdout', 0, 10_000_000).data)
			.some((l) => l.method === 'item/started' && (l.params as { item: { type: string } }).item.type === 'commandExecution');
		await waitFor(() => (pidsWithArg(marker).length > 0 && started() ? true : undefined), { what: 'the command to run', timeoutMs: 20_000 });
		assert.equal(await r.interrupt('run-codex-2'), 'exited');
		const exit = await waitFor(() => exits.find((e) => e.runId === 'run-codex-2'), { what: 'the exit record', timeoutMs: 30_000 });
		assert.equal(exit.exitCode, 0, `the server exits 0 once its stdin closes, got ${String(exit.exitCode)} / ${String(exit.signal)}`);
		assert.deepEqual(pidsWithArg(marker), [], 'no orphaned command');
		await waitFor(() => (r.isAlive('run-codex-2') ? undefined : true), { what: 'the supervisor to end after its exit record', timeoutMs: 30_000 });
		const stdout = r.readLog('run-codex-2', 'stdout', 0, 10_000_000).data;
		assert.equal(codexAdapter.parseTurnFacts!(stdout).result, null, 'an interrupted turn has no result');
		const completed = jsonLines(stdout).find((l) => l.method === 'turn/completed');
		assert.equal((completed?.params as { turn: { status: string } } | undefined)?.turn.status, 'interrupted', 'the server confirmed the interrupt');
	});

	it('exec: a Stop during a shell command ends the whole group (wrapper, native codex, the command) on SIGINT', async () => {
		const marker = `41.${String(process.pid)}`;
		server = await startScriptedServer({
			script: { turns: [{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_sleep', input: { cmd: `sleep ${marker}`, yield_time_ms: 30_000 } }] }] },
		});
		const { runner: r, exits } = startRunner();
		await r.launch(agentLaunchSpec('run-codex-2', codexTestTarget(server, sandbox, { protocol: 'exec' }), sandbox.workspace, { prompt: 'sleep' }));
		const started = (): boolean => jsonLines(r.readLog('run-codex-2', 'stdout', 0, 10_000_000).data).some((l) => l.type === 'item.started');
		await waitFor(() => (pidsWithArg(marker).length > 0 && started() ? true : undefined), { what: 'the command to run', timeoutMs: 20_000 });
		assert.equal(await r.interrupt('run-codex-2'), 'exited');
		const exit = await waitFor(() => exits.find((e) => e.runId === 'run-codex-2'), { what: 'the exit record', timeoutMs: 30_000 });
		assert.equal(exit.exitCode, 1, `SIGINT: codex exits 1 (§3.5), got ${String(exit.exitCode)} / ${String(exit.signal)}`);
		assert.deepEqual(pidsWithArg(marker), [], 'no orphaned command');
		// exit.json is the supervisor's last write, not its end: it is still exiting when the record appears.
		await waitFor(() => (r.isAlive('run-codex-2') ? undefined : true), { what: 'the supervisor to end after its exit record', timeoutMs: 30_000 });
		const stdout = r.readLog('run-codex-2', 'stdout', 0, 10_000_000).data;
		assert.equal(codexAdapter.parseTurnFacts!(stdout).result, null);
		assert.equal(jsonLines(stdout).at(-1)?.type, 'item.started');
	});

	it('app-server on a Codex that has none: the same Turn runs as codex exec, with a note in stderr', async () => {
		server = await startScriptedServer({ script: { turns: [{ blocks: [{ type: 'text', text: 'answered by exec' }] }] } });
		// An older Codex reads `app-server` as a prompt: no JSON-RPC, its own usage text, exit 2.
		const old = join(sandbox.root, 'old-codex');
		writeFileSync(old, `#!/bin/sh\nif [ "$1" = app-server ]; then echo 'Usage: codex [OPTIONS] [PROMPT]'; exit 2; fi\nexec '${codexBin}' "$@"\n`);
		chmodSync(old, 0o755);
		const { runner: r, exits } = startRunner();
		await r.launch(agentLaunchSpec('run-codex-3', { ...codexTestTarget(server, sandbox), path: old }, sandbox.workspace, { prompt: 'say it' }));
		const exit = await waitFor(() => exits.find((e) => e.runId === 'run-codex-3'), { what: 'the exit record', timeoutMs: 30_000 });
		const stdout = r.readLog('run-codex-3', 'stdout', 0, 10_000_000).data;
		const stderr = r.readLog('run-codex-3', 'stderr', 0, 100_000).data;
		assert.equal(exit.exitCode, 0, `${stderr}\n${stdout}`);
		assert.match(stderr, /has no `app-server`; this Turn runs as `codex exec` instead/);
		assert.deepEqual(codexAdapter.parseTurnFacts!(stdout).result, { ok: true, text: 'answered by exec' });
		assert.equal(jsonLines(stdout)[0]?.type, 'thread.started', 'only the exec stream is in stdout');
		assert.match(readFileSync(join(r.runDir('run-codex-3'), 'input-state.jsonl'), 'utf8'), /"closed"/, 'input closed: messages wait for the next Turn');
	});
});
