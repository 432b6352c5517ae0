// Add Agent's discovery: `claude` and `codex` executables in PATH order, then the workspace's node_modules/.bin,
// each file once; files that are not executable, directories and relative PATH entries are skipped.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverAgents } from '../../../src/extension/agents/agentDiscovery.js';

function executable(dir: string, name: string, mode = 0o755): string {
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
	fs.chmodSync(file, mode);
	return file;
}

describe('extension/agents/agentDiscovery', () => {
	let root: string;
	beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-discovery-')); });
	afterEach(() => { fs.rmSync(root, { recursive: true, force: true }); });

	it('finds claude and codex on PATH in PATH order, then in the workspace\'s node_modules/.bin', () => {
		const first = path.join(root, 'first');
		const second = path.join(root, 'second');
		const workspace = path.join(root, 'ws');
		const codex = executable(first, 'codex');
		const claude = executable(second, 'claude');
		const claudeAgain = executable(first, 'claude-helper');
		const localClaude = executable(path.join(workspace, 'node_modules', '.bin'), 'claude');
		const found = discoverAgents({ pathEnv: [first, second].join(':'), workspace, platform: 'linux' });
		assert.deepEqual(found, [
			{ adapter: 'claude', path: claude, source: 'PATH' },
			{ adapter: 'claude', path: localClaude, source: 'workspace' },
			{ adapter: 'codex', path: codex, source: 'PATH' },
		]);
		assert.ok(!found.some((f) => f.path === claudeAgain));
	});

	it('skips files that are not executable, directories named claude, relative and empty PATH entries', () => {
		const dir = path.join(root, 'bin');
		executable(dir, 'claude', 0o644);
		fs.mkdirSync(path.join(root, 'other', 'codex'), { recursive: true });
		executable(path.join(root, 'rel'), 'codex');
		const found = discoverAgents({ pathEnv: `${dir}::${path.join(root, 'other')}:rel`, workspace: undefined, platform: 'linux' });
		assert.deepEqual(found, []);
	});

	it('lists one file once even when two PATH entries reach it (a symlinked directory)', () => {
		const real = path.join(root, 'real');
		const claude = executable(real, 'claude');
		const link = path.join(root, 'link');
		fs.symlinkSync(real, link);
		assert.deepEqual(discoverAgents({ pathEnv: `${real}:${link}`, workspace: undefined, platform: 'linux' }), [{ adapter: 'claude', path: claude, source: 'PATH' }]);
	});

	it('with no PATH and no workspace finds nothing', () => {
		assert.deepEqual(discoverAgents({ pathEnv: undefined, workspace: undefined, platform: 'linux' }), []);
	});
});
