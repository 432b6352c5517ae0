// Security: what the Host leaves on disk is private to this user. The socket directory is 0700, the socket, the
// user credential and the discovery file are 0600, `.tutti/runs` and each Run directory are 0700 and every file a
// Run writes (spec.json with the agent's environment, stdin with the task text, logs) is 0600.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensurePrivateDirectory, writePrivateFile } from '../../src/control-plane/privateFiles.js';
import { type HostHandle, manualIssue, startHost, standardTargets } from '../integration/harness.js';
import { addManualTask, modeOf, octal, recorderTarget, settledRunOf } from './securityKit.js';

function assertMode(path: string, expected: number, what: string): void {
	const mode = modeOf(path);
	assert.equal(octal(mode), octal(expected), `${what} (${path}) must be ${octal(expected)}, is ${octal(mode)}`);
}

describe('security: private files and directories', function () {
	let host: HostHandle;
	let records: string;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-rec-'));
		host = await startHost({ config: (gates) => ({ agentTargets: [...standardTargets(gates), recorderTarget('rec', records)], maxParallelRuns: 4 }) });
	});

	after(async function () {
		await host?.dispose();
		rmSync(records, { recursive: true, force: true });
	});

	it('the socket directory is 0700 and the socket and the user credential are 0600', function () {
		const runtimeDir = dirname(host.socket);
		assertMode(runtimeDir, 0o700, 'the socket directory');
		assert.ok(statSync(host.socket).isSocket(), 'the control plane is a Unix socket');
		assertMode(host.socket, 0o600, 'the socket');
		assertMode(join(runtimeDir, 'user.token'), 0o600, 'the user credential');
		const names = readdirSync(runtimeDir).filter((n) => !n.startsWith('.') && n !== 'bin');
		assert.deepEqual(names.sort(), ['cp.sock', 'user.token'], 'nothing else sits next to the socket but the shim directory');
	});

	it('the discovery directory is 0700 and its file 0600', function () {
		const discoveryDir = join(host.runtimeDir, 'tutti-discovery');
		assertMode(discoveryDir, 0o700, 'the discovery directory');
		const files = readdirSync(discoveryDir).filter((n) => n.endsWith('.json'));
		assert.equal(files.length, 1, 'one discovery file for the one Host');
		assertMode(join(discoveryDir, files[0]!), 0o600, 'the discovery file');
	});

	it('.tutti/runs and each Run directory are 0700; spec.json, stdin and every Run file are 0600', async function () {
		const issueId = await manualIssue(host, 'Private runs');
		await addManualTask(host, issueId, 'p1', ['--content', 'secret task text', '--agent-target-id', 'rec']);
		const run = await settledRunOf(host, issueId, 'p1');
		assert.equal(run.status, 'completed', `the recorder Run completes (${run.errorMessage})`);
		const runsDir = join(host.workspace, '.tutti', 'runs');
		assertMode(runsDir, 0o700, '.tutti/runs');
		const runDir = join(runsDir, run.runId);
		assertMode(runDir, 0o700, 'the Run directory');
		assertMode(join(runDir, 'spec.json'), 0o600, 'spec.json (it holds the agent session token)');
		const files = readdirSync(runDir);
		assert.ok(files.includes('stdin.txt'), `the task text was handed over through a file (files: ${files.join(', ')})`);
		for (const name of files) {
			const path = join(runDir, name);
			if (statSync(path).isDirectory()) {
				assertMode(path, 0o700, `Run subdirectory ${name}`);
			} else {
				assertMode(path, 0o600, `Run file ${name}`);
			}
		}
	});
});

describe('security: private file primitives', function () {
	let dir: string;
	beforeEach(function () { dir = mkdtempSync(join(tmpdir(), 'tutti-sec-priv-')); });
	afterEach(function () { rmSync(dir, { recursive: true, force: true }); });

	it('an existing directory with a looser mode is tightened to 0700', function () {
		const loose = join(dir, 'loose');
		mkdirSync(loose);
		chmodSync(loose, 0o755);
		ensurePrivateDirectory(loose);
		assertMode(loose, 0o700, 'the tightened directory');
	});

	it('a planted symlink in place of the private directory is refused, never followed', function () {
		const elsewhere = join(dir, 'elsewhere');
		mkdirSync(elsewhere, { mode: 0o755 });
		const link = join(dir, 'planted');
		symlinkSync(elsewhere, link);
		assert.throws(() => ensurePrivateDirectory(link), /not a directory/);
		assertMode(elsewhere, 0o755, 'the symlink target is left alone');
	});

	it('writePrivateFile replaces a world-readable file with a 0600 one, whatever the umask', function () {
		const file = join(dir, 'credential');
		writeFileSync(file, 'old', { mode: 0o644 });
		const previous = process.umask(0);
		try {
			writePrivateFile(file, 'new');
		} finally {
			process.umask(previous);
		}
		assertMode(file, 0o600, 'the rewritten file');
	});
});
