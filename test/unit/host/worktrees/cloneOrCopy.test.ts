// A tree's own copy of a shared install (setupShare.ts cloneOrCopy): files, folders, modes and times as they were,
// symbolic links kept as links (never followed), a destination that exists refused, and a copy that is the tree's
// own: writing it leaves the cache as it was.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneOrCopy } from '../../../../src/host/worktrees/setupShare.js';

describe('a tree\'s own copy of a shared install', () => {
	let dir: string;
	beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'tutti-clone-')); });
	afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

	function install(): string {
		const from = join(dir, 'cache', 'node_modules');
		mkdirSync(join(from, 'pkg', 'bin'), { recursive: true });
		writeFileSync(join(from, 'pkg', 'index.js'), 'module.exports = 1;\n');
		writeFileSync(join(from, 'pkg', 'bin', 'run'), '#!/bin/sh\necho run\n');
		chmodSync(join(from, 'pkg', 'bin', 'run'), 0o755);
		utimesSync(join(from, 'pkg', 'index.js'), new Date(1_000_000_000), new Date(1_000_000_000));
		mkdirSync(join(from, '.bin'));
		symlinkSync('../pkg/bin/run', join(from, '.bin', 'run'));
		return from;
	}

	it('copies a folder with its modes, times and relative links as links, into a parent it creates', async () => {
		const from = install();
		const to = join(dir, 'tree', 'packages', 'a', 'node_modules');
		const method = await cloneOrCopy(from, to);
		assert.ok(method === 'clone' || method === 'copy', method);
		assert.equal(readFileSync(join(to, 'pkg', 'index.js'), 'utf8'), 'module.exports = 1;\n');
		assert.equal(statSync(join(to, 'pkg', 'bin', 'run')).mode & 0o777, 0o755);
		assert.equal(statSync(join(to, 'pkg', 'index.js')).mtimeMs, 1_000_000_000);
		assert.ok(lstatSync(join(to, '.bin', 'run')).isSymbolicLink());
		assert.equal(readlinkSync(join(to, '.bin', 'run')), '../pkg/bin/run');
	});

	it('is the tree\'s own: writing the copy leaves the cache unchanged (no hard link shares a file)', async () => {
		const from = install();
		const to = join(dir, 'tree', 'node_modules');
		await cloneOrCopy(from, to);
		writeFileSync(join(to, 'pkg', 'index.js'), 'changed by the agent\n');
		assert.equal(readFileSync(join(from, 'pkg', 'index.js'), 'utf8'), 'module.exports = 1;\n');
		assert.equal(statSync(join(to, 'pkg', 'index.js')).nlink, 1);
	});

	it('refuses a destination that exists and leaves it as it was', async () => {
		const from = install();
		const to = join(dir, 'tree', 'node_modules');
		mkdirSync(to, { recursive: true });
		writeFileSync(join(to, 'mine'), 'the developer\'s');
		await assert.rejects(cloneOrCopy(from, to), /already exists/);
		assert.equal(readFileSync(join(to, 'mine'), 'utf8'), 'the developer\'s');
		assert.throws(() => lstatSync(join(to, 'pkg')));
	});

	it('copies a single file', async () => {
		const from = install();
		const to = join(dir, 'tree', 'index.js');
		await cloneOrCopy(join(from, 'pkg', 'index.js'), to);
		assert.equal(readFileSync(to, 'utf8'), 'module.exports = 1;\n');
	});
});
