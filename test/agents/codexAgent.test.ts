// The agent tier for Codex in exec mode (a target with `"protocol": "exec"`): the pinned real `codex` CLI, started
// with the codex adapter's exact command, against our scripted Responses server on 127.0.0.1;
// app-server, the default protocol, has its own file (codexAppServer.test.ts). Retries are off (a failure takes one
// request), CODEX_HOME is a fresh temp dir per test, stdin is /dev/null. The canary runs first: when it fails,
// the CLI or its protocol changed; fix the scripted server / adapter before reading the other failures.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { TurnFacts } from '../../src/agents/adapter.js';
import { codexAdapter } from '../../src/agents/codex.js';
import type { AgentTargetConfig, AgentTurnInput } from '../../src/core/runs/runProcessPort.js';
import {
	type AgentResult, type AgentRun, type AgentSandbox, agentLaunchSpec, codexBin, isolatedEnv, jsonLines, killGroup, makeAgentSandbox,
	pinnedVersions, sleep, spawnAgent,
} from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { codexTestTarget, pidsWithArg } from './codexKit.js';
import type { Script } from './modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

function startTurn(target: AgentTargetConfig, sandbox: AgentSandbox, turn: AgentTurnInput, runId = 'run-1'): AgentRun {
	const command = codexAdapter.commandFor(agentLaunchSpec(runId, target, sandbox.workspace, turn));
	assert.equal(command.stdin, 'devnull');
	return spawnAgent(command.file, command.args, sandbox.workspace, { ...isolatedEnv(sandbox.home), ...command.env }, 60_000);
}

async function runTurn(target: AgentTargetConfig, sandbox: AgentSandbox, turn: AgentTurnInput, runId?: string): Promise<{ result: AgentResult; facts: TurnFacts }> {
	const result = await startTurn(target, sandbox, turn, runId).done;
	return { result, facts: codexAdapter.parseTurnFacts!(result.stdout) };
}

/** The test target in exec mode. */
const execTarget = (s: ScriptedServer, sandbox: AgentSandbox): AgentTargetConfig => codexTestTarget(s, sandbox, { protocol: 'exec' });

type InputItem = Record<string, unknown>;
const inputOf = (body: unknown): InputItem[] => (body as { input: InputItem[] }).input;

describe('agent tier: codex', function () {
	this.timeout(60_000);
	let sandbox: AgentSandbox;
	let server: ScriptedServer | undefined;
	const runs: AgentRun[] = [];

	beforeEach(() => { sandbox = makeAgentSandbox('tutti-codex-'); });
	afterEach(async () => {
		for (const run of runs.splice(0)) { killGroup(run.child); }
		await server?.close();
		server = undefined;
		sandbox.remove();
	});

	async function serve(script: Script): Promise<ScriptedServer> {
		server = await startScriptedServer({ script });
		return server;
	}

	describe('canary', () => {
		it(`runs the pinned Codex CLI ${pinnedVersions.codex}`, () => {
			const out = execFileSync(codexBin, ['--version'], { env: isolatedEnv(sandbox.home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
			assert.equal(out.trim(), `codex-cli ${pinnedVersions.codex}`);
		});

		it('round-trips one scripted turn: Responses SSE in, exec JSONL out', async () => {
			const s = await serve({ turns: [{ blocks: [{ type: 'text', text: 'canary answer' }] }] });
			const { result, facts } = await runTurn(execTarget(s, sandbox), sandbox, { prompt: '--say the canary line' });
			assert.equal(result.code, 0, `codex exited ${String(result.code)}: ${result.stderr}`);

			// The request: POST /v1/responses streaming, from codex exec, with the thread id, exec_command offered,
			// the prompt as the last user message (it starts with dashes: the adapter's `--` keeps it a prompt).
			const requests = s.modelRequests();
			assert.equal(requests.length, 1, JSON.stringify(s.log.map((r) => `${r.method} ${r.path} ${String(r.served)}`)));
			const request = requests[0]!;
			assert.equal(request.method, 'POST');
			assert.equal(request.path, '/v1/responses');
			assert.equal(request.headers.originator, 'codex_exec');
			assert.equal(request.headers.authorization, undefined, 'no env_key, no credential');
			const body = request.body as { model: string; stream: boolean; tools: { name: string }[] };
			assert.equal(body.model, 'gpt-5.5');
			assert.equal(body.stream, true);
			assert.ok(body.tools.some((t) => t.name === 'exec_command'), 'exec_command is among the offered tools');
			const users = inputOf(body).filter((i) => i.role === 'user');
			assert.ok(JSON.stringify(users.at(-1)).includes('--say the canary line'));
			const metadata = JSON.parse(String(request.headers['x-codex-turn-metadata'])) as { sandbox_mode?: string };
			assert.equal(metadata.sandbox_mode, 'workspace-write', 'the adapter default sandbox');

			// The stream: thread.started, the answer, turn.completed with the scripted usage; the header carries the thread id.
			const lines = jsonLines(result.stdout);
			assert.deepEqual(lines.map((l) => l.type), ['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
			assert.equal(request.headers['session-id'], facts.providerSessionId);
			assert.deepEqual(facts, {
				providerSessionId: lines[0]!.thread_id,
				toolCalls: [],
				assistantText: 'canary answer',
				usage: { inputTokens: 20, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
				result: { ok: true, text: 'canary answer' },
				errors: [],
				model: '',
				costUsd: null,
			});
		});
	});

	describe('as a worker', () => {
		it('works as a worker: runs a scripted shell tool call in the default sandbox (cwd writable, Host socket reachable) and ends', async () => {
			const socketPath = join(sandbox.root, 'host.sock');
			const hostSocket: Server = createServer((c) => { c.end('host-says-hi\n'); });
			await new Promise<void>((resolve) => { hostSocket.listen(socketPath, resolve); });
			try {
				const probe = `require("net").connect(${JSON.stringify(socketPath)}).on("data",(d)=>process.stdout.write(d)).on("error",(e)=>console.log("ERR",e.code))`;
				const cmd = `echo hello > out.txt && node -e '${probe}'`;
				const s = await serve({
					turns: [
						{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_echo1', input: { cmd } }] },
						{ when: { last_user_includes: 'function_call_output' }, blocks: [{ type: 'text', text: 'Done: wrote out.txt' }] },
					],
				});
				const { result, facts } = await runTurn(execTarget(s, sandbox), sandbox, { prompt: 'write out.txt' });
				assert.equal(result.code, 0, result.stderr);
				assert.equal(readFileSync(join(sandbox.workspace, 'out.txt'), 'utf8'), 'hello\n');

				const requests = s.modelRequests();
				assert.equal(requests.length, 2);
				const output = inputOf(requests[1]!.body).find((i) => i.type === 'function_call_output');
				assert.equal(output?.call_id, 'call_echo1');
				assert.match(String(output?.output), /Process exited with code 0/);
				assert.match(String(output?.output), /host-says-hi/, `the sandboxed command reached the unix socket: ${String(output?.output)}`);

				assert.equal(facts.toolCalls.length, 1);
				assert.equal(facts.toolCalls[0]!.name, 'exec_command');
				assert.match(JSON.stringify(facts.toolCalls[0]!.input), /echo hello > out\.txt/);
				assert.deepEqual(facts.result, { ok: true, text: 'Done: wrote out.txt' });
				assert.deepEqual(facts.usage, { inputTokens: 40, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 });
			} finally {
				await new Promise<void>((resolve) => { hostSocket.close(() => resolve()); });
			}
		});

		it('resumes the same thread with exec resume: same thread id, the earlier turn in the request', async () => {
			const s = await serve({
				turns: [
					{ blocks: [{ type: 'text', text: 'first answer' }] },
					{ when: { last_user_includes: 'second question' }, blocks: [{ type: 'text', text: 'second answer' }] },
				],
			});
			const target = execTarget(s, sandbox);
			const first = await runTurn(target, sandbox, { prompt: 'first question' }, 'run-1');
			assert.equal(first.result.code, 0, first.result.stderr);
			const threadId = first.facts.providerSessionId;
			assert.match(threadId, /^[0-9a-f-]{36}$/);

			const second = await runTurn(target, sandbox, { prompt: 'second question', resumeProviderSessionId: threadId }, 'run-2');
			assert.equal(second.result.code, 0, second.result.stderr);
			assert.equal(second.facts.providerSessionId, threadId);
			assert.deepEqual(second.facts.result, { ok: true, text: 'second answer' });

			const requests = s.modelRequests();
			assert.deepEqual(requests.map((r) => r.served), [0, 1]);
			assert.equal(requests[1]!.headers['session-id'], threadId);
			const history = JSON.stringify(inputOf(requests[1]!.body));
			assert.ok(history.includes('first question') && history.includes('first answer'), 'the resumed request carries the earlier turn');
			// Observed: a resumed thread's turn.completed usage is the thread's running total (both turns), not this Turn's.
			assert.deepEqual(second.facts.usage, { inputTokens: 40, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 });
		});

		it('fails fast with retries off: an HTTP 500 takes one request, turn.failed, exit 1', async () => {
			const s = await serve({ turns: [{ blocks: [], http_error: { status: 500 } }] });
			const { result, facts } = await runTurn(execTarget(s, sandbox), sandbox, { prompt: 'fail please' });
			assert.equal(result.code, 1);
			assert.equal(s.modelRequests().length, 1, 'no retry');
			assert.equal(facts.result?.ok, false);
			assert.ok(facts.errors.length > 0);
		});

		it('reports a stream cut before response.completed as a failed Turn', async () => {
			const s = await serve({ turns: [{ blocks: [{ type: 'text', text: 'partial' }], omit_completed: true }] });
			const { result, facts } = await runTurn(execTarget(s, sandbox), sandbox, { prompt: 'cut' });
			assert.equal(result.code, 1);
			assert.equal(facts.result?.ok, false);
			assert.match(facts.result?.text ?? '', /stream disconnected before completion/);
		});
	});

	describe('SIGINT to the process group (what the Run supervisor sends first)', () => {
		it('while a shell command runs: exits promptly with no final event, and the command is gone', async () => {
			const marker = `37.${String(process.pid)}`;
			const s = await serve({
				turns: [{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_sleep', input: { cmd: `sleep ${marker}`, yield_time_ms: 30_000 } }] }],
			});
			const run = startTurn(execTarget(s, sandbox), sandbox, { prompt: 'sleep' });
			runs.push(run);
			await waitFor(() => (jsonLines(run.stdout()).some((l) => l.type === 'item.started') && pidsWithArg(marker).length > 0 ? true : undefined), { what: 'the command to start', timeoutMs: 20_000 });
			process.kill(-run.child.pid!, 'SIGINT');
			const result = await run.done;
			// Recorded (§3.5): exit 1, nothing after item.started; the group SIGINT also ends the command.
			assert.equal(result.code, 1, `exit ${String(result.code)} / ${String(result.signal)}`);
			const facts = codexAdapter.parseTurnFacts!(result.stdout);
			assert.equal(facts.result, null);
			assert.equal(facts.toolCalls.length, 1);
			assert.equal(jsonLines(result.stdout).at(-1)?.type, 'item.started');
			await waitFor(() => (pidsWithArg(marker).length === 0 ? true : undefined), { what: 'the sleep to end', timeoutMs: 5_000 });
		});

		it('while waiting for a slow model (unsandboxed: permission mode danger-full-access): exits promptly with no final event', async () => {
			const s = await serve({ turns: [{ blocks: [], hang: true }] });
			const run = startTurn(execTarget(s, sandbox), sandbox, { prompt: 'wait', permissionModeId: 'danger-full-access' });
			runs.push(run);
			await s.waitForModelRequests(1, 20_000);
			const metadata = JSON.parse(String(s.modelRequests()[0]!.headers['x-codex-turn-metadata'])) as { sandbox_mode?: string };
			assert.equal(metadata.sandbox_mode, 'danger-full-access');
			await sleep(100);
			process.kill(-run.child.pid!, 'SIGINT');
			const result = await run.done;
			assert.equal(result.code, 1, `exit ${String(result.code)} / ${String(result.signal)}`);
			const facts = codexAdapter.parseTurnFacts!(result.stdout);
			assert.equal(facts.result, null);
			assert.equal(jsonLines(result.stdout).at(-1)?.type, 'turn.started');
			assert.ok(!existsSync(join(sandbox.workspace, 'out.txt')));
		});
	});
});
