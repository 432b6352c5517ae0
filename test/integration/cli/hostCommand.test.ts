// `tutti host --workspace DIR` as a real process (from source through tsx): the ready line, the 0700 endpoint,
// discovery from a subfolder, one Host per store, a broken config, and a clean SIGTERM shutdown.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../../../src/cli/runCli.js';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const cliMain = path.join(repoRoot, 'src', 'cli', 'main.ts');
const tsx = pathToFileURL(require.resolve('tsx')).href;

interface HostRun {
	child: ChildProcess;
	/** The first stdout line. */
	firstLine: Promise<string>;
	exit: Promise<number | null>;
	stderr: () => string;
}

function startHostProcess(workspace: string, env: NodeJS.ProcessEnv): HostRun {
	const child = spawn(process.execPath, ['--import', tsx, cliMain, 'host', '--workspace', workspace], { env, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
	const firstLine = new Promise<string>((resolve, reject) => {
		child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
			stdout += chunk;
			if (stdout.includes('\n')) {
				resolve(stdout.split('\n')[0]!);
			}
		});
		child.on('exit', () => (stdout.includes('\n') ? undefined : reject(new Error(`no line on stdout; stderr:\n${stderr}`))));
	});
	const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, firstLine, exit, stderr: () => stderr };
}

async function cli(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<{ code: number; stdout: string }> {
	let stdout = '';
	const code = await runCli(argv, { env, cwd, stdout: (t) => { stdout += t; }, stderr: () => undefined });
	return { code, stdout };
}

describe('tutti host', function () {
	this.timeout(60_000);
	let base: string;
	let workspace: string;
	let env: NodeJS.ProcessEnv;
	const running: ChildProcess[] = [];

	beforeEach(() => {
		base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-hc-')));
		workspace = path.join(base, 'ws');
		fs.mkdirSync(path.join(workspace, 'sub', 'deeper'), { recursive: true });
		env = { ...process.env, XDG_RUNTIME_DIR: path.join(base, 'run'), XDG_STATE_HOME: path.join(base, 'state') };
		delete env['TUTTI_IPC_HOOK'];
		delete env['TUTTI_SESSION_TOKEN'];
		delete env['NODE_EXTRA_CA_CERTS'];
	});
	afterEach(async () => {
		for (const child of running.splice(0)) {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((r) => child.once('exit', r));
				child.kill('SIGKILL');
				await exited;
			}
		}
		fs.rmSync(base, { recursive: true, force: true });
	});

	it('prints one ready line, serves the CLI through discovery, refuses a second Host, and shuts down on SIGTERM', async () => {
		const host = startHostProcess(workspace, env);
		running.push(host.child);
		const ready = JSON.parse(await host.firstLine) as { ready: boolean; socket: string; pid: number; workspace: string };
		assert.equal(ready.ready, true, host.stderr());
		assert.equal(ready.pid, host.child.pid);
		assert.equal(ready.workspace, workspace);
		const runtimeDir = path.dirname(ready.socket);
		assert.equal(path.dirname(runtimeDir), env['XDG_RUNTIME_DIR']);
		assert.equal(fs.statSync(runtimeDir).mode & 0o777, 0o700);
		assert.equal(fs.statSync(path.join(runtimeDir, 'user.token')).mode & 0o777, 0o600);

		// From a subfolder, without TUTTI_IPC_HOOK: the discovery file leads to the Host.
		const cliEnv = { XDG_RUNTIME_DIR: env['XDG_RUNTIME_DIR'] };
		const created = await cli(['issue', 'create', '--title', 'Found it', '--as-user', '--json'], cliEnv, path.join(workspace, 'sub', 'deeper'));
		assert.equal(created.code, 0, created.stdout);
		const listed = await cli(['issue', 'list', '--as-user', '--json'], cliEnv, path.join(workspace, 'sub'));
		assert.deepEqual((JSON.parse(listed.stdout) as { issues: { title: string }[] }).issues.map((i) => i.title), ['Found it']);
		// The developer's own terminal reads without --as-user; a write still needs it.
		const read = await cli(['issue', 'list', '--json'], cliEnv, workspace);
		assert.equal(read.code, 0, read.stdout);
		const noToken = await cli(['issue', 'create', '--title', 'Not without a principal', '--json'], cliEnv, workspace);
		assert.equal(noToken.code, 1);
		assert.equal((JSON.parse(noToken.stdout) as { error: { reasonCode: string } }).error.reasonCode, 'unauthenticated');

		// A second Host on the same workspace: one JSON error line naming the owner's pid, exit 1.
		const second = startHostProcess(workspace, env);
		running.push(second.child);
		const refused = JSON.parse(await second.firstLine) as { error: { reasonCode: string; message: string; hint: string } };
		assert.equal(refused.error.reasonCode, 'store_locked');
		assert.match(refused.error.message, new RegExp(`pid ${ready.pid}\\b`));
		assert.equal(await second.exit, 1);
		assert.equal((await cli(['issue', 'list', '--as-user', '--json'], cliEnv, workspace)).code, 0, 'the first Host is untouched');

		host.child.kill('SIGTERM');
		assert.equal(await host.exit, 0, host.stderr());
		assert.equal(fs.existsSync(ready.socket), false, 'socket removed');
		assert.equal(fs.existsSync(path.join(runtimeDir, 'user.token')), false, 'credential removed');
		assert.deepEqual(fs.readdirSync(path.join(env['XDG_RUNTIME_DIR']!, 'tutti-discovery')), [], 'discovery file removed');

		const after = await cli(['issue', 'list', '--as-user', '--json'], cliEnv, workspace);
		assert.equal(after.code, 1);
		assert.equal((JSON.parse(after.stdout) as { error: { reasonCode: string } }).error.reasonCode, 'host_unavailable');
	});

	it('a broken .tutti/config.json is one JSON error line naming the file and the path, exit 1', async () => {
		fs.mkdirSync(path.join(workspace, '.tutti'));
		fs.writeFileSync(path.join(workspace, '.tutti', 'config.json'), JSON.stringify({ agentTargets: [{ id: 'x', adapter: 'shell' }] }));
		const host = startHostProcess(workspace, env);
		running.push(host.child);
		const line = JSON.parse(await host.firstLine) as { error: { reasonCode: string; message: string; hint: string } };
		assert.equal(line.error.reasonCode, 'invalid_input');
		assert.ok(line.error.message.includes(path.join(workspace, '.tutti', 'config.json')), line.error.message);
		assert.match(line.error.message, /agentTargets\[0\]\.adapter/);
		assert.equal(await host.exit, 1);
		assert.equal(fs.existsSync(path.join(workspace, '.tutti', 'host.lease')), false, 'the store lease is released');
	});

	it('a workspace that does not exist is one JSON error line, exit 1', async () => {
		const host = startHostProcess(path.join(base, 'nope'), env);
		running.push(host.child);
		const line = JSON.parse(await host.firstLine) as { error: { reasonCode: string; message: string } };
		assert.equal(line.error.reasonCode, 'invalid_input');
		assert.match(line.error.message, /does not exist/);
		assert.equal(await host.exit, 1);
	});
});
