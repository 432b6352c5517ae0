// Pins what README and `tutti agent list` say about codex targets: the pinned `codex exec` cannot route an
// approval to another program, so codex runs under its sandbox setting and Tutti never asks the developer per call.
// Checked against the pinned binary: its help offers no approval program or prompt tool, and in exec mode a command
// that asks for escalation is rejected by codex itself ("approval policy is Never") even with approval_policy
// "on-request" and a PermissionRequest hook configured (the hook never runs). If a later codex changes either, this
// test fails and the README's statement must be revisited.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexBin, isolatedEnv, makeAgentSandbox, pinnedVersions, spawnAgent, type AgentSandbox } from './agentKit.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

describe(`codex exec ${pinnedVersions.codex}: approvals cannot be routed to Tutti`, function () {
	this.timeout(90_000);
	let sandbox: AgentSandbox;
	let server: ScriptedServer | undefined;
	beforeEach(() => { sandbox = makeAgentSandbox('tutti-codex-approvals-'); });
	afterEach(async () => { await server?.close(); server = undefined; sandbox.remove(); });

	it('its help names no approval program, prompt tool or approval MCP server', () => {
		const help = execFileSync(codexBin, ['exec', '--help'], { encoding: 'utf8', env: isolatedEnv(sandbox.home) });
		const approvalOptions = help.split('\n').filter((l) => /^\s+(-\w, )?--[\w-]+/.test(l) && /approv/i.test(l)).map((l) => l.trim().split(/\s+/)[0]);
		assert.deepEqual(approvalOptions, ['--approve-for-me', '--dangerously-bypass-approvals-and-sandbox']);
		assert.doesNotMatch(help, /permission-prompt|prompt-tool|approval-program/i);
	});

	it('in exec mode an escalation is rejected by codex itself, even with on-request and a PermissionRequest hook', async () => {
		const codexHome = join(sandbox.home, 'codex-home');
		mkdirSync(codexHome, { recursive: true });
		server = await startScriptedServer({ script: { turns: [
			{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_escalate', input: { cmd: 'echo hi > out.txt', sandbox_permissions: 'require_escalated', justification: 'write a file' } }] },
			{ when: { last_user_includes: 'call_escalate' }, blocks: [{ type: 'text', text: 'done' }] },
		] } });
		const marker = join(sandbox.root, 'permission-hook-ran');
		const hook = join(sandbox.root, 'hook.sh');
		writeFileSync(hook, `#!/bin/sh\ncat > '${marker}'\n`, { mode: 0o755 });
		const args = ['exec', '--json', '--skip-git-repo-check', '-s', 'read-only', '-m', 'gpt-5.5', '-c', 'model_provider=mock',
			'-c', `model_providers.mock={name="mock",base_url="${server.url}/v1",wire_api="responses",request_max_retries=0,stream_max_retries=0}`,
			'-c', 'approval_policy="on-request"', '-c', 'analytics.enabled=false', '-c', 'check_for_update_on_startup=false',
			'--dangerously-bypass-hook-trust', '-c', `hooks.PermissionRequest=[{hooks=[{type="command",command="${hook}"}]}]`, 'write hi'];
		const result = await spawnAgent(codexBin, args, sandbox.workspace, { ...isolatedEnv(sandbox.home), CODEX_HOME: codexHome }).done;
		assert.equal(result.code, 0, result.stderr);
		assert.equal(existsSync(join(sandbox.workspace, 'out.txt')), false, 'the command did not run');
		assert.equal(existsSync(marker), false, `the PermissionRequest hook never ran${existsSync(marker) ? `: ${readFileSync(marker, 'utf8')}` : ''}`);
		const output = JSON.stringify((server.modelRequests()[1]?.body as { input?: unknown[] } | undefined)?.input?.at(-1));
		assert.match(output, /approval policy is Never; reject command/);
	});
});
