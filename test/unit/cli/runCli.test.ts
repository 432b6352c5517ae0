// The whole CLI in process (runCli) against the real server on a temporary socket, backed by a fake HostApi.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { type CliIo, runCli, shellCommand } from '../../../src/cli/runCli.js';
import { requestBodyCapBytes } from '../../../src/cli/client.js';
import { createFakeHostApi, type FakeHostApi, sourceToken, special, userToken } from '../control-plane/fakeHostApi.js';
import { makeTempDir, startTestServer, type TestServer } from '../control-plane/serverTestKit.js';

interface Captured {
	code: number;
	stdout: string;
	stderr: string;
}

async function run(argv: string[], env: Record<string, string | undefined>, extra: Partial<CliIo> = {}): Promise<Captured> {
	let stdout = '';
	let stderr = '';
	const code = await runCli(argv, {
		env, cwd: extra.cwd ?? process.cwd(),
		stdout: (text) => { stdout += text; },
		stderr: (text) => { stderr += text; },
		sleep: extra.sleep ?? ((ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20)))),
		loadHost: extra.loadHost,
	});
	return { code, stdout, stderr };
}

function envelope(out: Captured): { reasonCode: string; message: string; hint: string; retryable?: boolean } {
	const lines = out.stdout.trimEnd().split('\n');
	assert.equal(lines.length, 1, `one JSON line expected on stdout, got ${JSON.stringify(out.stdout)}`);
	const parsed = JSON.parse(lines[0]!) as { error: { reasonCode: string; message: string; hint: string; retryable?: boolean } };
	assert.deepEqual(Object.keys(parsed), ['error']);
	return parsed.error;
}

describe('tutti CLI against a control-plane server', () => {
	let api: FakeHostApi;
	let t: TestServer;
	let env: Record<string, string | undefined>;

	beforeEach(async () => {
		api = createFakeHostApi();
		t = await startTestServer(api);
		fs.writeFileSync(path.join(t.dir, 'user.token'), `${userToken}\n`, { mode: 0o600 });
		env = { TUTTI_IPC_HOOK: t.socketPath, TUTTI_SESSION_TOKEN: sourceToken };
	});
	afterEach(async () => {
		await t.close();
	});

	it('prints the result as one JSON line and exits 0', async () => {
		const out = await run(['issue', 'get', '--issue-id', 'I-3', '--json'], env);
		assert.equal(out.code, 0);
		assert.equal(out.stderr, '');
		assert.equal(out.stdout.split('\n').length, 2);
		assert.equal((JSON.parse(out.stdout) as { issueId: string }).issueId, 'I-3');
		assert.deepEqual(api.calls.at(-1)?.caller, { kind: 'session', sessionId: 'S-1', role: 'source' });
	});

	it('sends the user credential next to the socket with --as-user', async () => {
		const out = await run(['issue', 'pause', '--issue-id', 'I-3', '--as-user', '--json'], env);
		assert.equal(out.code, 0, out.stdout);
		assert.deepEqual(api.calls.at(-1)?.caller, { kind: 'user' });
		const asAgent = await run(['issue', 'pause', '--issue-id', 'I-3', '--json'], env);
		assert.equal(asAgent.code, 1);
		assert.equal(envelope(asAgent).reasonCode, 'forbidden');
	});

	it('--as-user without a readable credential is unauthenticated (exit 1)', async () => {
		fs.rmSync(path.join(t.dir, 'user.token'));
		const out = await run(['issue', 'list', '--as-user', '--json'], env);
		assert.equal(out.code, 1);
		const error = envelope(out);
		assert.equal(error.reasonCode, 'unauthenticated');
		assert.match(error.message, /user\.token/);
	});

	it('without a token a write is unauthenticated with the --as-user hint; a read goes as the developer', async () => {
		const read = await run(['issue', 'list', '--json'], { TUTTI_IPC_HOOK: t.socketPath });
		assert.equal(read.code, 0, read.stdout);
		const out = await run(['issue', 'pause', '--issue-id', 'i1', '--json'], { TUTTI_IPC_HOOK: t.socketPath });
		assert.equal(out.code, 1);
		assert.equal(envelope(out).reasonCode, 'unauthenticated');
		assert.match(envelope(out).hint, /--as-user/);
	});

	it('Host errors keep their reason and hint; exit 1, or 2 for invalid input', async () => {
		const missing = await run(['issue', 'get', '--issue-id', special.missing, '--json'], env);
		assert.equal(missing.code, 1);
		assert.deepEqual(envelope(missing), { reasonCode: 'issue_not_found', message: 'issue missing does not exist', hint: 'Run `tutti issue list --json` and use an issueId it lists.' });

		const stale = await run(['issue', 'get', '--issue-id', special.stale, '--json'], env);
		assert.equal(stale.code, 1);
		assert.equal(envelope(stale).retryable, true);

		const tooLong = await run(['issue', 'get', '--issue-id', 'x'.repeat(300), '--json'], env);
		assert.equal(tooLong.code, 2, 'HTTP 400 from the Host is invalid input');
		assert.equal(envelope(tooLong).reasonCode, 'invalid_input');
		assert.match(envelope(tooLong).hint, /tutti issue get --help/);
	});

	it('without --json: the result is readable text, errors go to stderr as "error: …\\nhint: …"', async () => {
		const list = await run(['issue', 'list'], env);
		assert.equal(list.code, 0);
		assert.match(list.stdout, /^I-1 +open +manual +First\nI-2 +open +manual +Second\n$/);
		const missing = await run(['issue', 'get', '--issue-id', special.missing], env);
		assert.equal(missing.code, 1);
		assert.equal(missing.stdout, '');
		assert.equal(missing.stderr, 'error: issue missing does not exist\nhint: Run `tutti issue list --json` and use an issueId it lists.\n');
		const bad = await run(['issue', 'get'], env);
		assert.equal(bad.code, 2);
		assert.match(bad.stderr, /^error: required option '--issue-id <id>' not specified\nhint: run `tutti issue get --help`\n$/);
	});

	it('command-line errors are the JSON envelope with exit 2 and never reach the Host', async () => {
		const out = await run(['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--task-ids-json', 'nope', '--json'], env);
		assert.equal(out.code, 2);
		assert.equal(envelope(out).reasonCode, 'invalid_input');
		assert.equal(api.calls.length, 0);
	});

	it('refuses a request over the body cap before sending it', async () => {
		const out = await run(['issue', 'create', '--title', 'T', '--content', 'x'.repeat(requestBodyCapBytes + 1), '--json'], env);
		assert.equal(out.code, 2);
		assert.match(envelope(out).message, /over the Host's request cap of 8388608 bytes \(8 MiB, a plan of about 5,000 tasks\)/);
		assert.equal(api.calls.length, 0);
	});

	it('--help prints help on stdout and exits 0', async () => {
		const out = await run(['plan', 'issue', 'get', '--help'], env);
		assert.equal(out.code, 0);
		assert.match(out.stdout, /Usage: tutti plan issue get/);
	});

	it('run log prints the raw text; --follow keeps reading until the Run has ended', async () => {
		api.log.text = 'line one\nline two\n';
		const once = await run(['run', 'log', '--run-id', 'R-1'], env);
		assert.equal(once.stdout, 'line', 'one slice (the fake serves 4 bytes per request)');

		api.log.runEnded = false;
		// The Run writes its last line and ends while follow waits for more (its first pause).
		const pauses: number[] = [];
		const followed = await run(['run', 'log', '--run-id', 'R-1', '--follow'], env, {
			sleep: async (ms) => {
				pauses.push(ms);
				if (!api.log.runEnded) { api.log.text += 'line three\n'; api.log.runEnded = true; }
			},
		});
		assert.equal(followed.code, 0);
		assert.equal(followed.stdout, 'line one\nline two\nline three\n');
		assert.ok(pauses.length >= 1, 'follow waited for more output before the Run ended');
	});

	it('finds the Host through the discovery file when TUTTI_IPC_HOOK is not set', async () => {
		const base = makeTempDir('tutti-cli-');
		try {
			const workspace = fs.realpathSync(base);
			const xdg = path.join(workspace, 'run');
			const { endpointEnvironment, prepareEndpoint } = await import('../../../src/host/endpoint.js');
			const { writeDiscoveryFile } = await import('../../../src/control-plane/discoveryFile.js');
			const paths = prepareEndpoint(workspace, endpointEnvironment({ XDG_RUNTIME_DIR: xdg }));
			writeDiscoveryFile(paths.discoveryFile, { workspace, socket: t.socketPath, pid: process.pid });
			const out = await run(['issue', 'list', '--json'], { XDG_RUNTIME_DIR: xdg, TUTTI_SESSION_TOKEN: sourceToken }, { cwd: path.join(workspace) });
			assert.equal(out.code, 0, out.stdout);
		} finally {
			fs.rmSync(base, { recursive: true, force: true });
		}
	});
});

describe('tutti CLI without a Host', () => {
	it('no TUTTI_IPC_HOOK and no discovery file: host_unavailable naming how to start one', async () => {
		const base = makeTempDir('tutti-cli-');
		try {
			const out = await run(['plan', 'issue', 'get', '--issue-id', 'X', '--json'], { XDG_RUNTIME_DIR: base }, { cwd: base });
			assert.equal(out.code, 1);
			const error = envelope(out);
			assert.equal(error.reasonCode, 'host_unavailable');
			assert.equal(error.hint, 'open the folder in VS Code with Tutti, or run `tutti host --workspace DIR`');
		} finally {
			fs.rmSync(base, { recursive: true, force: true });
		}
	});

	it('a missing or refused socket is retried until the deadline, then a retryable error naming the same command', async () => {
		const base = makeTempDir('tutti-cli-');
		try {
			const socketPath = path.join(base, 'cp.sock');
			const slept: number[] = [];
			const argv = ['plan', 'issue', 'get', '--issue-id', 'X Y', '--json'];
			const out = await run(argv, { TUTTI_IPC_HOOK: socketPath, TUTTI_CONNECT_TIMEOUT_MS: '1000' }, {
				sleep: (ms) => { slept.push(ms); return new Promise((r) => setTimeout(r, ms)); },
			});
			assert.equal(out.code, 1);
			const error = envelope(out);
			assert.equal(error.reasonCode, 'host_unavailable');
			assert.equal(error.retryable, true);
			assert.match(error.message, /ENOENT/);
			assert.ok(error.hint.includes("`tutti plan issue get --issue-id 'X Y' --json`"), error.hint);
			assert.deepEqual(slept, [100, 200, 400], 'exponential backoff within the deadline');
			assert.match(error.message, /after 1 s/);
		} finally {
			fs.rmSync(base, { recursive: true, force: true });
		}
	});

	it('succeeds when the Host comes back while the CLI is retrying', async () => {
		const api = createFakeHostApi();
		const base = makeTempDir('tutti-cli-');
		let t: TestServer | undefined;
		try {
			const socketPath = path.join(base, 'cp.sock');
			let attempts = 0;
			const out = await run(['issue', 'list', '--json'], { TUTTI_IPC_HOOK: socketPath, TUTTI_SESSION_TOKEN: sourceToken }, {
				sleep: async () => {
					attempts++;
					if (attempts === 2) {
						const { ControlPlaneServer } = await import('../../../src/control-plane/server.js');
						const server = await ControlPlaneServer.listen({ api, socketPath, log: () => undefined });
						t = { server, dir: base, socketPath, discoveryFile: '', logs: [], close: () => server.close() };
					}
				},
			});
			assert.equal(out.code, 0, out.stdout);
			assert.equal(attempts, 2);
		} finally {
			await t?.close();
			fs.rmSync(base, { recursive: true, force: true });
		}
	});

	it('tutti host without the Host bundle is a clear error', async () => {
		const out = await run(['host', '--workspace', '.', '--json'], {}, { loadHost: () => null });
		assert.equal(out.code, 1);
		assert.match(envelope(out).message, /host\.js/);
	});

	it('tutti host hands the resolved workspace to the Host entry and returns its exit code', async () => {
		let seen = '';
		const out = await run(['host', '--workspace', 'sub'], {}, {
			cwd: '/base',
			loadHost: () => ({ runHostCommand: async (options) => { seen = options.workspace; options.stdout('{"ready":true}\n'); return 0; } }),
		});
		assert.equal(out.code, 0);
		assert.equal(seen, '/base/sub');
		assert.equal(out.stdout, '{"ready":true}\n');
	});
});

describe('tutti CLI against a Host of a newer Tutti version', () => {
	/** A Host that answers every request with an error whose reason code this version does not have. */
	async function newerHost(status: number): Promise<{ socketPath: string; close: () => Promise<void> }> {
		const dir = makeTempDir('tutti-cli-');
		fs.chmodSync(dir, 0o700);
		const socketPath = path.join(dir, 'cp.sock');
		const body = JSON.stringify({ ok: false, error: { reasonCode: 'task_on_fire', message: 'task a is on fire', hint: 'run `tutti plan issue get --issue-id X --json`', retryable: true, details: { taskId: 'a' } } });
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
		});
		await new Promise<void>((resolve) => server.listen(socketPath, resolve));
		return { socketPath, close: async () => { await new Promise<void>((resolve) => server.close(() => resolve())); fs.rmSync(dir, { recursive: true, force: true }); } };
	}

	it('prints an unknown reason code as version_mismatch, keeping the Host\'s message, hint, retryable, details and code (exit by HTTP status)', async () => {
		for (const [status, exitCode] of [[409, 1], [400, 2]] as const) {
			const host = await newerHost(status);
			try {
				const out = await run(['plan', 'issue', 'get', '--issue-id', 'X', '--json'], { TUTTI_IPC_HOOK: host.socketPath, TUTTI_SESSION_TOKEN: sourceToken });
				assert.equal(out.code, exitCode, String(status));
				const error = JSON.parse(out.stdout) as { error: Record<string, unknown> };
				assert.deepEqual(error, {
					error: {
						reasonCode: 'version_mismatch',
						message: 'task a is on fire (the Host answered with the reason code "task_on_fire", which this version of Tutti does not know: the Host runs another Tutti version)',
						hint: 'run `tutti plan issue get --issue-id X --json`',
						retryable: true,
						details: { taskId: 'a', peerReasonCode: 'task_on_fire' },
					},
				});
				const human = await run(['plan', 'issue', 'get', '--issue-id', 'X'], { TUTTI_IPC_HOOK: host.socketPath, TUTTI_SESSION_TOKEN: sourceToken });
				assert.equal(human.stderr, 'error: task a is on fire (the Host answered with the reason code "task_on_fire", which this version of Tutti does not know: the Host runs another Tutti version) (retryable)\nhint: run `tutti plan issue get --issue-id X --json`\n');
			} finally {
				await host.close();
			}
		}
	});
});

describe('shellCommand', () => {
	it('quotes words a shell would split or expand', () => {
		assert.equal(shellCommand(['plan', 'issue', 'get', '--issue-id', 'a b', "it's", '--task-ids-json', '["a"]']),
			`tutti plan issue get --issue-id 'a b' 'it'\\''s' --task-ids-json '["a"]'`);
	});
});
