// Agents of the fault campaign that reach the approvals and the budgets: `asker`, a command target that asks the
// developer about one tool call through the real `tutti mcp` (stdio JSON-RPC, the way Claude Code calls its
// permission prompt tool) and exits 0 when allowed, 5 when denied; and `spender`, a stand-in Claude Code
// (stream-json) whose one Turn reports usage and a fixed cost, so an issue's Runs cross a small budget.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentTarget, cliJs, type HostConfig } from '../../test/integration/harness.js';

/** What one spender Turn costs (USD, the agent's own `total_cost_usd`). */
export const spenderCostUsd = 0.6;

/**
 * The asker: starts `tutti mcp`, calls `approve` with tool_use_id `toolu_<runId>` and waits as long as it takes. If
 * its MCP server dies mid-call it starts a new one and asks again with the same tool_use_id (the Host answers with
 * the same request). It records its pids (`<taskId>.pids`, rewritten per server) and appends each answer it gets
 * to `<taskId>.answers` (one line per answer: exactly one is expected).
 */
const askerScript = `
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const dir = process.env.ASKER_DIR;
const task = process.env.TUTTI_TASK_ID;
const toolUseId = 'toolu_' + process.env.TUTTI_RUN_ID;
let servers = 0;
function ask() {
	servers++;
	const mcp = spawn(process.execPath, [process.env.ASKER_CLI_JS, 'mcp'], { stdio: ['pipe', 'pipe', 'ignore'] });
	fs.writeFileSync(path.join(dir, task + '.pids'), JSON.stringify({ agent: process.pid, mcp: mcp.pid, servers }));
	let done = false;
	let buffer = '';
	const send = (m) => mcp.stdin.write(JSON.stringify(m) + '\\n');
	mcp.stdin.on('error', () => undefined);
	mcp.stdout.setEncoding('utf8').on('data', (chunk) => {
		buffer += chunk;
		for (let i = buffer.indexOf('\\n'); i >= 0; i = buffer.indexOf('\\n')) {
			const m = JSON.parse(buffer.slice(0, i));
			buffer = buffer.slice(i + 1);
			if (m.id === 1) {
				send({ jsonrpc: '2.0', method: 'notifications/initialized' });
				send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'echo ' + task }, tool_use_id: toolUseId } } });
			} else if (m.id === 2) {
				done = true;
				const text = m.result && m.result.content && m.result.content[0] ? m.result.content[0].text : JSON.stringify(m);
				fs.appendFileSync(path.join(dir, task + '.answers'), text.replace(/\\n/g, ' ') + '\\n');
				mcp.stdin.end();
				let behavior = '';
				try { behavior = JSON.parse(text).behavior; } catch {}
				process.exit(behavior === 'allow' ? 0 : 5);
			}
		}
	});
	mcp.on('exit', () => { if (!done) { setTimeout(ask, 50); } });
	send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'asker', version: '1' } } });
}
ask();
`;

/** A stand-in Claude Code: one Turn (the first stdin message), then usage and a cost like `claude -p`; exits when stdin closes. */
const spenderScript = `#!${process.execPath}
const args = process.argv.slice(2);
const after = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : '');
const sid = after('--session-id') || after('--resume');
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'system', subtype: 'init', session_id: sid, model: 'claude-opus-4-8[1m]' });
let done = false;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
	if (done) { return; }
	done = true;
	const m = JSON.parse(line);
	out({ type: 'user', isReplay: true, uuid: m.uuid, session_id: sid, message: m.message });
	setTimeout(() => out({ type: 'result', subtype: 'success', is_error: false, session_id: sid, result: 'done', total_cost_usd: ${spenderCostUsd},
		usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 3000, cache_creation_input_tokens: 100 } }), 100 + Math.floor(Math.random() * 300));
}).on('close', () => process.exit(0));
`;

/** Where an asker leaves its pids and answers (under the Host's gate directory). */
export function askerDir(gateDir: string): string {
	return join(gateDir, 'asker');
}

/** The `asker` and `spender` targets (writes their scripts under gateDir). */
export function approvalAndBudgetTargets(gateDir: string): HostConfig['agentTargets'] {
	const dir = askerDir(gateDir);
	mkdirSync(dir, { recursive: true });
	const asker = join(gateDir, 'asker.js');
	writeFileSync(asker, askerScript);
	const spender = join(gateDir, 'spender');
	writeFileSync(spender, spenderScript);
	chmodSync(spender, 0o755);
	const askerTarget: AgentTarget = { id: 'asker', adapter: 'command', argv: [process.execPath, asker], env: { ASKER_DIR: dir, ASKER_CLI_JS: cliJs } };
	// The harness types command targets; a claude target is the same JSON with "path".
	const spenderTarget = { id: 'spender', adapter: 'claude', path: spender } as unknown as AgentTarget;
	return [askerTarget, spenderTarget];
}

/** The answers an asker task's agent received (one line each), empty before any. */
export function askerAnswers(gateDir: string, taskId: string): { behavior: string; message?: string }[] {
	const file = join(askerDir(gateDir), `${taskId}.answers`);
	if (!existsSync(file)) { return []; }
	return readFileSync(file, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => {
		try {
			return JSON.parse(l) as { behavior: string; message?: string };
		} catch {
			return { behavior: `unreadable: ${l.slice(0, 200)}` };
		}
	});
}

/** The asker's pids (its own and its current MCP server's), undefined before it started. */
export function askerPids(gateDir: string, taskId: string): { agent: number; mcp: number; servers: number } | undefined {
	try {
		return JSON.parse(readFileSync(join(askerDir(gateDir), `${taskId}.pids`), 'utf8')) as { agent: number; mcp: number; servers: number };
	} catch {
		return undefined;
	}
}
