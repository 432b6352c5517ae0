// The await bound holds from the agent's side: `tutti await-review`, `tutti plan issue await` and
// `tutti next-action` come back within their call bound whatever the Host does: against a socket that accepts and
// never answers, and against no socket at all, the real CLI prints the waiting response (exit 0, retryable) whose
// `next` is the same command, never a failure. TUTTI_AWAIT_TIMEOUT_MS shortens the bound here so the test is short;
// the default bound is pinned by importing it.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentCallBoundMs, callBoundMsFrom, maxWaitMs } from '../../../src/cli/agentJson.js';
import { awaitTimeoutMs } from '../../../src/host/services/await/awaitService.js';
import { type AgentResponse, responseProblems } from '../../../src/protocol/agentResponse.js';
import { cliJs, requireDist } from '../harness.js';

interface Exit {
	code: number | null;
	stdout: string;
	stderr: string;
}

function runCli(args: readonly string[], env: Record<string, string>, cwd: string): Promise<Exit> {
	const childEnv: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (!name.startsWith('TUTTI_') && !name.startsWith('XDG_RUNTIME_DIR')) { childEnv[name] = value; }
	}
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliJs, ...args], { cwd, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}

const commands: readonly (readonly string[])[] = [
	['await-review', '--issue-id', 'issue-1'],
	['plan', 'issue', 'await', '--issue-id', 'issue-1'],
	['next-action', '--issue-id', 'issue-1'],
];

function expectWaiting(exit: Exit, args: readonly string[]): void {
	const shown = `tutti ${args.join(' ')} → exit ${exit.code}\nstdout: ${exit.stdout}\nstderr: ${exit.stderr}`;
	assert.equal(exit.code, 0, shown);
	const lines = exit.stdout.trim().split('\n');
	assert.equal(lines.length, 1, `exactly one JSON document on stdout: ${shown}`);
	const doc = JSON.parse(lines[0]!) as AgentResponse & { retryable?: boolean };
	assert.deepEqual(responseProblems(doc), [], shown);
	assert.equal(doc.ok, true, shown);
	assert.equal(doc.state, 'waiting', shown);
	assert.equal(doc.advance_allowed, false, shown);
	assert.equal(doc.retryable, true, shown);
	assert.equal(doc.next, `tutti ${args.join(' ')}`, shown);
}

describe('the await bound from the agent side (real CLI)', function () {
	this.timeout(60_000);
	let dir: string;
	let server: net.Server | undefined;
	const held: net.Socket[] = [];
	/** Short enough for a test; the call bound adds the CLI's slack on top. */
	const shortWait = { TUTTI_AWAIT_TIMEOUT_MS: '300', TUTTI_KEEPALIVE_MS: '100', TUTTI_SESSION_TOKEN: 'session-token' };

	before(() => { requireDist(); });
	beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-bound-')); });
	afterEach(async () => {
		for (const socket of held.splice(0)) { socket.destroy(); }
		if (server) { await new Promise<void>((resolve) => server!.close(() => resolve())); server = undefined; }
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it('the default bound keeps a call under 50 s: the Host answers at its own 45 s bound first, and the CLI gives up before 50 s', () => {
		assert.equal(maxWaitMs, awaitTimeoutMs, 'the CLI mirrors the Host bound');
		assert.equal(callBoundMsFrom({}), agentCallBoundMs);
		assert.ok(agentCallBoundMs > awaitTimeoutMs, `the CLI bound ${agentCallBoundMs} ms leaves the Host time to answer after its ${awaitTimeoutMs} ms`);
		assert.ok(agentCallBoundMs <= 48_000, `the CLI bound ${agentCallBoundMs} ms leaves 2 s of the 50 s for starting node and printing`);
	});

	it('prints the waiting response (exit 0, retryable) when no Host listens on the socket', async () => {
		const env = { ...shortWait, TUTTI_IPC_HOOK: path.join(dir, 'absent.sock') };
		for (const args of commands) {
			expectWaiting(await runCli(args, env, dir), args);
		}
	});

	it('prints the waiting response (exit 0, retryable) when the Host accepts and never answers', async () => {
		const socketPath = path.join(dir, 'cp.sock');
		server = net.createServer((socket) => { held.push(socket); socket.on('error', () => { /* the CLI hangs up */ }); });
		await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
		const env = { ...shortWait, TUTTI_IPC_HOOK: socketPath };
		for (const args of commands) {
			expectWaiting(await runCli(args, env, dir), args);
		}
	});
});
