// Security: the CLI uses only discovery records, credentials and sockets that are its user's own. Without
// XDG_RUNTIME_DIR the discovery directory sits in the shared temporary directory, where another user can plant one:
// a record naming their socket, a symlink next to it to this user's credential. Each case below plants exactly one
// wrong thing next to an otherwise private setup whose socket is a recording listener, runs the real CLI (as root
// here, so "another user" is uid 65534), and checks the refusal names the path and what is wrong, and that the
// listener got no connection and no byte.
import { strict as assert } from 'node:assert';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { workspaceKey } from '../../src/ipc/endpointPaths.js';
import { type CliResult, type HostHandle, expectError, expectOk, show, startHost } from '../integration/harness.js';

const otherUid = 65534;

/** Gives `path` to uid 65534; only root can (the security tier runs as root), so other users skip the test. */
function giveToOtherUser(context: Mocha.Context, path: string): void {
	if (process.getuid?.() !== 0) {
		context.skip();
	}
	chownSync(path, otherUid, otherUid);
}

/** A Unix socket that answers nothing and records what reached it. */
class RecordingListener {
	connections = 0;
	bytes = 0;
	readonly #server: net.Server;

	private constructor(readonly path: string) {
		this.#server = net.createServer((socket) => {
			this.connections += 1;
			socket.on('data', (chunk: Buffer) => {
				this.bytes += chunk.length;
				socket.destroy();
			});
			socket.on('error', () => { /* the CLI gives up */ });
		});
	}

	static async listen(path: string): Promise<RecordingListener> {
		const listener = new RecordingListener(path);
		await new Promise<void>((resolve, reject) => {
			listener.#server.once('error', reject);
			listener.#server.listen(path, () => resolve());
		});
		chmodSync(path, 0o600);
		return listener;
	}

	close(): Promise<void> {
		return new Promise((resolve) => this.#server.close(() => resolve()));
	}
}

describe('security: the CLI trusts only its own discovery files, credentials and sockets', function () {
	let host: HostHandle;
	let base: string;
	let tmp: string;
	let workspace: string;
	let discoveryDir: string;
	let discoveryFile: string;
	let socketDir: string;
	let listener: RecordingListener;

	before(async function () {
		host = await startHost();
	});

	after(async function () {
		await host?.dispose();
	});

	beforeEach(async function () {
		// A private, correct setup: TMPDIR/tutti-discovery-<uid>/<key>.json names a listener in a 0700 directory.
		base = realpathSync(mkdtempSync(join(tmpdir(), 'tutti-sec-disc-')));
		tmp = join(base, 'tmp');
		workspace = join(base, 'ws');
		mkdirSync(tmp, { mode: 0o700 });
		mkdirSync(workspace);
		discoveryDir = join(tmp, `tutti-discovery-${process.getuid!()}`);
		mkdirSync(discoveryDir, { mode: 0o700 });
		discoveryFile = join(discoveryDir, `${workspaceKey(workspace)}.json`);
		socketDir = join(base, 'rt');
		mkdirSync(socketDir, { mode: 0o700 });
		listener = await RecordingListener.listen(join(socketDir, 'cp.sock'));
		writeRecord(discoveryFile, listener.path);
	});

	afterEach(async function () {
		await listener.close();
		rmSync(base, { recursive: true, force: true });
	});

	function writeRecord(file: string, socket: string): void {
		writeFileSync(file, `${JSON.stringify({ workspace, socket, pid: process.pid })}\n`, { mode: 0o600 });
	}

	/** The real CLI as the developer, finding its Host by discovery only (no TUTTI_IPC_HOOK, no XDG_RUNTIME_DIR). */
	function discoverAndCall(asUser = true): Promise<CliResult> {
		return host.cli(['issue', 'list', '--json'], {
			asUser, cwd: workspace, env: { TUTTI_IPC_HOOK: undefined, XDG_RUNTIME_DIR: undefined, TMPDIR: tmp, TUTTI_CONNECT_TIMEOUT_MS: '300' },
		});
	}

	function assertRefused(result: CliResult, path: string, problem: RegExp): void {
		const error = expectError(result, 'host_unavailable');
		assert.ok(error.message.includes(`refusing ${path}: `), `the refusal names ${path}:\n${show(result)}`);
		assert.match(error.message, problem, show(result));
		assert.match(error.message, /nothing was sent; it did not take effect/, show(result));
		assert.equal(listener.connections, 0, 'nothing connected to the planted socket');
		assert.equal(listener.bytes, 0, 'no byte reached the planted socket');
	}

	it('control: with everything private the CLI follows the record (to the listener here, to the real Host below)', async function () {
		const reached = await discoverAndCall(false);
		assert.notEqual(reached.code, 0);
		assert.ok(listener.bytes > 0, `the request reached the listener, so the refusals below are the checks' doing:\n${show(reached)}`);
		writeRecord(discoveryFile, host.socket);
		expectOk(await discoverAndCall(true));
	});

	it('refuses a discovery directory owned by another user', async function () {
		giveToOtherUser(this, discoveryDir);
		assertRefused(await discoverAndCall(), discoveryDir, new RegExp(`belongs to uid 65534, not to this user \\(uid ${process.getuid!()}\\)`));
	});

	it('refuses a discovery directory that its group or other users can write', async function () {
		chmodSync(discoveryDir, 0o777);
		assertRefused(await discoverAndCall(), discoveryDir, /writable by its group and other users \(mode 0777\)/);
	});

	it('refuses a discovery file owned by another user', async function () {
		giveToOtherUser(this, discoveryFile);
		assertRefused(await discoverAndCall(), discoveryFile, /belongs to uid 65534/);
	});

	it('refuses a discovery file that is a symlink', async function () {
		const elsewhere = join(base, 'record.json');
		writeRecord(elsewhere, listener.path);
		rmSync(discoveryFile);
		symlinkSync(elsewhere, discoveryFile);
		assertRefused(await discoverAndCall(), discoveryFile, /is a symbolic link \(to .*record\.json\), not a file/);
	});

	it("refuses a credential that is a symlink (to the developer's real one): it is never read nor sent", async function () {
		const credential = join(dirname(host.socket), 'user.token');
		symlinkSync(credential, join(socketDir, 'user.token'));
		assertRefused(await discoverAndCall(), join(socketDir, 'user.token'), /is a symbolic link \(to .*user\.token\), not a file/);
	});

	it('refuses a credential owned by another user', async function () {
		const token = join(socketDir, 'user.token');
		writeFileSync(token, 'a'.repeat(64), { mode: 0o600 });
		giveToOtherUser(this, token);
		assertRefused(await discoverAndCall(), token, /belongs to uid 65534/);
	});

	it('refuses a socket owned by another user, found by discovery or named by TUTTI_IPC_HOOK', async function () {
		giveToOtherUser(this, listener.path);
		assertRefused(await discoverAndCall(false), listener.path, /belongs to uid 65534/);
		const hooked = await host.cli(['issue', 'list', '--json'], { env: { TUTTI_IPC_HOOK: listener.path, TUTTI_CONNECT_TIMEOUT_MS: '300' } });
		assertRefused(hooked, listener.path, /belongs to uid 65534/);
	});

	it('refuses a socket in a directory that other users can write', async function () {
		chmodSync(socketDir, 0o733);
		assertRefused(await discoverAndCall(false), socketDir, /writable by its group and other users \(mode 0733\)/);
	});
});
