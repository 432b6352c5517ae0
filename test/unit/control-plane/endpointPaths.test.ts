// Endpoint paths (shared by Host and CLI), the Host's private directories and credential, and CLI discovery.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readUserToken, resolveEndpoint } from '../../../src/cli/discovery.js';
import { writeDiscoveryFile } from '../../../src/control-plane/discoveryFile.js';
import { endpointEnvironment, prepareEndpoint, writeUserCredential } from '../../../src/host/endpoint.js';
import {
	type EndpointEnvironment, endpointEnvironmentFrom, endpointPathsFor, fitsSunPath, maxSocketPathBytes, parseDiscoveryRecord, workspaceKey,
} from '../../../src/ipc/endpointPaths.js';
import { makeTempDir } from './serverTestKit.js';

const linux = (over: Partial<EndpointEnvironment> = {}): EndpointEnvironment => ({ tmpDir: '/tmp', uid: 1000, platform: 'linux', ...over });

describe('endpoint paths', () => {
	it('keys a workspace by the first 12 hex digits of sha256 of its path', () => {
		assert.equal(workspaceKey('/home/me/repo'), createHash('sha256').update('/home/me/repo').digest('hex').slice(0, 12));
		assert.match(workspaceKey('/home/me/repo'), /^[0-9a-f]{12}$/);
		assert.notEqual(workspaceKey('/home/me/repo'), workspaceKey('/home/me/repo2'));
	});

	it('uses $XDG_RUNTIME_DIR/tutti-<key> when set', () => {
		const key = workspaceKey('/w');
		assert.deepEqual(endpointPathsFor('/w', linux({ xdgRuntimeDir: '/run/user/1000' })), {
			runtimeDir: `/run/user/1000/tutti-${key}`,
			socketPath: `/run/user/1000/tutti-${key}/cp.sock`,
			userTokenPath: `/run/user/1000/tutti-${key}/user.token`,
			discoveryFile: `/run/user/1000/tutti-discovery/${key}.json`,
		});
	});

	it('falls back to <tmp>/tutti-<uid>-<key> and a per-user discovery directory', () => {
		const key = workspaceKey('/w');
		assert.deepEqual(endpointPathsFor('/w', linux({ tmpDir: '/var/tmp' })), {
			runtimeDir: `/var/tmp/tutti-1000-${key}`,
			socketPath: `/var/tmp/tutti-1000-${key}/cp.sock`,
			userTokenPath: `/var/tmp/tutti-1000-${key}/user.token`,
			discoveryFile: `/var/tmp/tutti-discovery-1000/${key}.json`,
		});
	});

	it('keeps the socket path under the sun_path limit, falling back to shorter bases', () => {
		const long = `/${'d'.repeat(120)}`;
		const fromXdg = endpointPathsFor('/w', linux({ xdgRuntimeDir: long, tmpDir: '/tmp' }));
		assert.ok(fromXdg.socketPath.startsWith('/tmp/tutti-1000-'));
		const fromTmp = endpointPathsFor('/w', linux({ tmpDir: long }));
		assert.ok(fromTmp.socketPath.startsWith('/tmp/tutti-1000-'));
		for (const paths of [fromXdg, fromTmp, endpointPathsFor(`/${'w'.repeat(300)}`, linux())]) {
			assert.ok(fitsSunPath(paths.socketPath), paths.socketPath);
		}
		assert.equal(fitsSunPath(`/${'x'.repeat(maxSocketPathBytes - 1)}`), true);
		assert.equal(fitsSunPath(`/${'x'.repeat(maxSocketPathBytes)}`), false);
		assert.equal(fitsSunPath(`/${'é'.repeat(60)}`), false, 'bytes, not characters');
	});

	it('reads the environment: absolute XDG_RUNTIME_DIR and TMPDIR only, trailing slashes dropped', () => {
		const fallback = { tmpDir: '/tmp', uid: 7, platform: 'linux' as const };
		assert.deepEqual(endpointEnvironmentFrom({ XDG_RUNTIME_DIR: '/run/user/7/', TMPDIR: '/scratch//' }, fallback),
			{ xdgRuntimeDir: '/run/user/7', tmpDir: '/scratch', uid: 7, platform: 'linux' });
		assert.deepEqual(endpointEnvironmentFrom({ XDG_RUNTIME_DIR: 'relative', TMPDIR: '' }, fallback),
			{ xdgRuntimeDir: undefined, tmpDir: '/tmp', uid: 7, platform: 'linux' });
	});

	it('parses discovery records strictly', () => {
		assert.deepEqual(parseDiscoveryRecord('{"workspace":"/w","socket":"/s","pid":12}'), { workspace: '/w', socket: '/s', pid: 12 });
		for (const text of ['', 'null', '[]', '{"workspace":"/w","socket":"/s"}', '{"workspace":"/w","socket":"/s","pid":"12"}', '{"workspace":1,"socket":"/s","pid":1}', '{"workspace":"/w","socket":"/s","pid":1.5}']) {
			assert.equal(parseDiscoveryRecord(text), null, text);
		}
	});
});

describe('Host endpoint on disk', () => {
	let base: string;
	beforeEach(() => { base = makeTempDir('tutti-ep-'); });
	afterEach(() => { fs.rmSync(base, { recursive: true, force: true }); });

	const env = (): EndpointEnvironment => ({ xdgRuntimeDir: base, tmpDir: base, uid: process.getuid!(), platform: process.platform });

	it('creates the runtime and discovery directories with mode 0700', () => {
		const paths = prepareEndpoint('/some/workspace', env());
		assert.equal(fs.statSync(paths.runtimeDir).mode & 0o777, 0o700);
		assert.equal(fs.statSync(path.dirname(paths.discoveryFile)).mode & 0o777, 0o700);
	});

	it('tightens an existing directory that is too open', () => {
		const paths = endpointPathsFor('/some/workspace', env());
		fs.mkdirSync(paths.runtimeDir, { mode: 0o755 });
		fs.chmodSync(paths.runtimeDir, 0o755);
		prepareEndpoint('/some/workspace', env());
		assert.equal(fs.statSync(paths.runtimeDir).mode & 0o777, 0o700);
	});

	it('refuses a runtime directory that is a symlink', () => {
		const paths = endpointPathsFor('/some/workspace', env());
		const elsewhere = path.join(base, 'elsewhere');
		fs.mkdirSync(elsewhere, { mode: 0o700 });
		fs.symlinkSync(elsewhere, paths.runtimeDir);
		assert.throws(() => prepareEndpoint('/some/workspace', env()), (error: Error & { reasonCode?: string }) => {
			assert.equal(error.reasonCode, 'host_unavailable');
			assert.match(error.message, /not a directory/);
			return true;
		});
	});

	it('refuses a directory owned by another user (needs root to set up)', function () {
		if (process.getuid!() !== 0) {
			this.skip();
		}
		const paths = endpointPathsFor('/some/workspace', env());
		fs.mkdirSync(paths.runtimeDir, { mode: 0o700 });
		fs.chownSync(paths.runtimeDir, 12345, 12345);
		assert.throws(() => prepareEndpoint('/some/workspace', env()), /belongs to another user \(uid 12345\)/);
	});

	it('writes a fresh 0600 user credential of 32 random bytes', () => {
		const paths = prepareEndpoint('/some/workspace', env());
		const first = writeUserCredential(paths.userTokenPath);
		assert.match(first, /^[0-9a-f]{64}$/);
		assert.equal(fs.statSync(paths.userTokenPath).mode & 0o777, 0o600);
		assert.equal(readUserToken(paths.userTokenPath), first);
		const second = writeUserCredential(paths.userTokenPath);
		assert.notEqual(second, first);
		assert.equal(readUserToken(paths.userTokenPath), second);
		assert.deepEqual(fs.readdirSync(paths.runtimeDir), ['user.token'], 'no temp files left behind');
	});

	it('the Host and the CLI derive the same endpoint from the same environment', () => {
		const processEnv = { XDG_RUNTIME_DIR: base, TMPDIR: base };
		assert.deepEqual(endpointEnvironment(processEnv), { ...env(), platform: process.platform });
	});
});

describe('CLI discovery', () => {
	let base: string;
	let workspace: string;
	beforeEach(() => {
		base = makeTempDir('tutti-disc-');
		workspace = fs.realpathSync(fs.mkdtempSync(path.join(base, 'ws-')));
	});
	afterEach(() => { fs.rmSync(base, { recursive: true, force: true }); });

	it('finds the Host of the nearest ancestor workspace through its discovery file', () => {
		const env = { XDG_RUNTIME_DIR: path.join(base, 'run') };
		const paths = prepareEndpoint(workspace, endpointEnvironment(env));
		writeDiscoveryFile(paths.discoveryFile, { workspace, socket: paths.socketPath, pid: process.pid });
		const nested = path.join(workspace, 'a', 'b');
		fs.mkdirSync(nested, { recursive: true });
		for (const cwd of [workspace, nested]) {
			assert.deepEqual(resolveEndpoint(env, cwd), { socketPath: paths.socketPath, userTokenPath: paths.userTokenPath, source: 'discovery', workspace });
		}
		assert.equal(resolveEndpoint(env, base), null, 'a folder above the workspace has no Host');
		assert.equal(resolveEndpoint({ XDG_RUNTIME_DIR: path.join(base, 'other') }, nested), null, 'another runtime dir, another user');
	});

	it('ignores a discovery file whose workspace does not match (hash collision or tampering)', () => {
		const env = { XDG_RUNTIME_DIR: path.join(base, 'run') };
		const paths = prepareEndpoint(workspace, endpointEnvironment(env));
		writeDiscoveryFile(paths.discoveryFile, { workspace: '/not/this/one', socket: paths.socketPath, pid: process.pid });
		assert.equal(resolveEndpoint(env, workspace), null);
	});

	it('TUTTI_IPC_HOOK wins, with the user credential next to the socket', () => {
		assert.deepEqual(resolveEndpoint({ TUTTI_IPC_HOOK: '/run/x/tutti-abc/cp.sock' }, workspace),
			{ socketPath: '/run/x/tutti-abc/cp.sock', userTokenPath: '/run/x/tutti-abc/user.token', source: 'TUTTI_IPC_HOOK' });
	});
});
