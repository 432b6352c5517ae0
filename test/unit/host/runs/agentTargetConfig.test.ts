// `.tutti/config.json` agent targets: validated with clear errors; `agent list` finds claude/codex executables.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { DomainError } from '../../../../src/core/errors.js';
import { parseHostConfig } from '../../../../src/host/config.js';
import { AgentTargetList, askCodexForAppServer, listAgentTargets } from '../../../../src/host/services/agentTargets.js';

function refusal(json: unknown): string {
	try {
		parseHostConfig(JSON.stringify(json), '/ws/.tutti/config.json');
	} catch (e) {
		assert.ok(e instanceof DomainError);
		assert.equal(e.reasonCode, 'invalid_input');
		return e.message;
	}
	return assert.fail('expected the config to be refused');
}

describe('agent target config', () => {
	it('accepts claude, codex and command targets with their fields, and worktree isolation', () => {
		const config = parseHostConfig(JSON.stringify({
			agentTargets: [
				{ id: 'cc', adapter: 'claude', path: './bin/claude', args: ['--debug'], env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }, allowedTools: ['Bash(npm test)'], model: 'm', isolation: 'worktree' },
				{ id: 'cx', adapter: 'codex', model: 'gpt' },
				{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'true'], cwd: 'pkg', shell: false, isolation: 'none' },
			],
		}), 'config.json');
		assert.deepEqual(config.agentTargets.map((t) => [t.id, t.adapter, t.isolation]), [['cc', 'claude', 'worktree'], ['cx', 'codex', undefined], ['sh', 'command', 'none']]);
	});

	it('refuses with the file and the offending field named', () => {
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'gemini' }] }), /config\.json is invalid[\s\S]*adapter/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'command' }] }), /needs "argv"/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', argv: ['claude'] }] }), /"argv" and "shell" are for "command" targets/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', isolation: 'container' }] }), /isolation/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', bogus: 1 }] }), /bogus/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', env: { 'A=B': 'c' } }] }), /environment variable 'A=B' is not a valid name \(letters, digits and _, not starting with a digit\)[\s\S]*agentTargets\[0\]\.env\["A=B"\]/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude' }, { id: 'x', adapter: 'codex' }] }), /duplicate agent target id "x"/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'codex', approvals: 'ask', protocol: 'exec' }] }), /"approvals" is for claude and codex app-server targets/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'command', argv: ['a'], approvals: 'ask' }] }), /"approvals" is for claude and codex app-server targets/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', approvals: 'sometimes' }] }), /approvals/);
	});

	it('agent list reports whether each executable was found, by path or on PATH, and where', () => {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-targets-'));
		try {
			for (const name of ['claude', 'mycodex']) {
				writeFileSync(join(dir, name), '#!/bin/sh\n');
				chmodSync(join(dir, name), 0o755);
			}
			const config = parseHostConfig(JSON.stringify({
				agentTargets: [
					{ id: 'cc', adapter: 'claude' },
					{ id: 'cx', adapter: 'codex', path: join(dir, 'mycodex') },
					{ id: 'cx2', adapter: 'codex', isolation: 'worktree' },
					{ id: 'quiet', adapter: 'claude', approvals: 'allowed-tools-only' },
				],
			}), 'config.json');
			const listed = listAgentTargets(config, '/ws', dir);
			assert.deepEqual(listed.map((t) => [t.id, t.found, t.path]), [
				['cc', true, join(dir, 'claude')], ['cx', true, join(dir, 'mycodex')], ['cx2', false, ''], ['quiet', true, join(dir, 'claude')],
			]);
			assert.match(listed[2]!.detail, /codex is not on PATH; each task runs in its own git worktree/);
			// Approvals: claude and codex app-server ask by default (codex: what it asks to run outside its sandbox).
			assert.deepEqual(listed.map((t) => t.approvals), ['ask', 'ask', 'ask', 'allowed-tools-only']);
			assert.equal(listed[0]!.detail, 'found claude; tool calls outside allowedTools ask you (tutti approval list)');
			assert.match(listed[1]!.detail, /runs through codex app-server: a command it asks to run outside its sandbox, a file change or a question asks you \(tutti approval list\); messages go into the running turn$/);
			assert.match(listed[3]!.detail, /tool calls outside allowedTools are denied without asking$/);
			// claude and codex app-server (the default protocol) take messages into the running Turn.
			assert.deepEqual(listed.map((t) => t.messagesWhileRunning), ['into-turn', 'into-turn', 'into-turn', 'into-turn']);
			assert.deepEqual(listed.map((t) => t.protocol), [undefined, 'app-server', 'app-server', undefined]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('agent list asks each codex executable once whether it has app-server; one without it falls back to exec, and says so', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-targets-'));
		try {
			// A Codex with app-server prints its help for it; an older one reads `app-server` as a prompt and prints its own.
			writeFileSync(join(dir, 'newcodex'), '#!/bin/sh\n[ "$1" = app-server ] && echo "Usage: codex app-server [OPTIONS] [COMMAND]"\n');
			writeFileSync(join(dir, 'oldcodex'), '#!/bin/sh\necho "Usage: codex [OPTIONS] [PROMPT]"\n');
			for (const f of ['newcodex', 'oldcodex']) { chmodSync(join(dir, f), 0o755); }
			const config = parseHostConfig(JSON.stringify({
				agentTargets: [
					{ id: 'new', adapter: 'codex', path: join(dir, 'newcodex') },
					{ id: 'old', adapter: 'codex', path: join(dir, 'oldcodex') },
					{ id: 'old-exec', adapter: 'codex', path: join(dir, 'oldcodex'), protocol: 'exec' },
					{ id: 'missing', adapter: 'codex', path: join(dir, 'nocodex') },
				],
			}), 'config.json');
			const asked: string[] = [];
			const list = new AgentTargetList({ config, workspace: '/ws', ask: (path) => { asked.push(path); return askCodexForAppServer(path); } });
			const listed = await list.list();
			assert.deepEqual(listed.map((t) => [t.id, t.protocol, t.messagesWhileRunning, t.approvals]), [
				['new', 'app-server', 'into-turn', 'ask'], ['old', 'exec', 'queued-until-turn-ends', 'sandbox'],
				['old-exec', 'exec', 'queued-until-turn-ends', 'sandbox'], ['missing', 'app-server', 'into-turn', 'ask'],
			]);
			assert.match(listed[1]!.detail, /this Codex has no app-server: its Runs fall back to codex exec .*; update Codex, or set "protocol": "exec"$/);
			assert.match(listed[2]!.detail, /runs as codex exec \(protocol "exec"\)/);
			await list.list();
			assert.deepEqual(asked, [join(dir, 'newcodex'), join(dir, 'oldcodex')], 'asked once per executable; not for exec targets or missing files');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('refuses "protocol" on a target that is not codex, and a protocol it does not know', () => {
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'claude', protocol: 'exec' }] }), /"protocol" is for codex targets/);
		assert.match(refusal({ agentTargets: [{ id: 'x', adapter: 'codex', protocol: 'mcp' }] }), /protocol/);
	});
});
