// Canary for the agent tier: the pinned CLI versions, and one scripted Claude Code turn round-tripping through
// our scripted model server with the protocol the rest of the tier relies on.
// When this fails, the CLI changed: fix the scripted server / adapter before reading the other failures.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { claudeAdapter } from '../../src/agents/claude.js';
import {
	type AgentSandbox, agentLaunchSpec, claudeBin, claudeTestTarget, isolatedEnv, jsonLines, makeAgentSandbox, pinnedVersions, spawnCommand,
} from './agentKit.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

describe('agent tier canary (claude)', function () {
	this.timeout(60_000);
	let sandbox: AgentSandbox;
	let server: ScriptedServer | undefined;

	beforeEach(() => { sandbox = makeAgentSandbox('tutti-canary-'); });
	afterEach(async () => {
		await server?.close();
		server = undefined;
		sandbox.remove();
	});

	it(`runs the pinned Claude Code ${pinnedVersions.claude}`, () => {
		const out = execFileSync(claudeBin, ['--version'], { env: isolatedEnv(sandbox.home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
		assert.match(out, new RegExp(`^${pinnedVersions.claude.replace(/\./g, '\\.')} \\(Claude Code\\)`));
	});

	it('round-trips one scripted turn: Messages SSE in, stream-json out', async () => {
		server = await startScriptedServer({ script: { turns: [{ blocks: [{ type: 'text', text: 'canary answer' }] }] } });
		const sessionId = randomUUID();
		const target = claudeTestTarget(server.url, sandbox);
		const command = claudeAdapter.commandFor(agentLaunchSpec('canary', target, sandbox.workspace, { prompt: '--say the canary line', newProviderSessionId: sessionId }));
		const run = spawnCommand(command, sandbox.workspace, { ...isolatedEnv(sandbox.home), ...command.env });
		const result = await run.done;
		assert.equal(result.code, 0, `claude exited ${String(result.code)}: ${result.stderr}`);

		// The request: POST /v1/messages streaming, our session id in the header, Bash offered, the prompt last
		// (it starts with dashes: the adapter's `--` keeps it a prompt).
		const requests = server.modelRequests();
		assert.equal(requests.length, 1, JSON.stringify(server.log.map((r) => `${r.method} ${r.path} ${String(r.served)}`)));
		const request = requests[0]!;
		assert.equal(request.method, 'POST');
		assert.match(request.path, /^\/v1\/messages/);
		assert.equal(request.headers['x-claude-code-session-id'], sessionId);
		assert.equal(request.headers['x-api-key'], 'sk-test');
		const body = request.body as { stream: boolean; tools: { name: string }[]; messages: { role: string; content: unknown }[] };
		assert.equal(body.stream, true);
		assert.ok(body.tools.some((t) => t.name === 'Bash'), 'Bash is among the offered tools');
		// The first user message ends with the prompt; a role:"system" message may follow it (§2.0).
		assert.ok(JSON.stringify(body.messages.filter((m) => m.role === 'user').at(-1)).includes('--say the canary line'));

		// The stream: init with our session id, the answer, exactly one successful result line.
		const lines = jsonLines(result.stdout);
		const init = lines.find((l) => l.type === 'system' && l.subtype === 'init');
		assert.equal(init?.session_id, sessionId);
		assert.equal(init?.claude_code_version, pinnedVersions.claude);
		const results = lines.filter((l) => l.type === 'result');
		assert.equal(results.length, 1);
		assert.equal(results[0]!.subtype, 'success');
		assert.equal(results[0]!.result, 'canary answer');

		const facts = claudeAdapter.parseTurnFacts!(result.stdout);
		assert.equal(facts.providerSessionId, sessionId);
		assert.deepEqual(facts.result, { ok: true, text: 'canary answer' });
	});
});
