// Trees are made with git's bookkeeping alone in the WorktreeManager's serial chain and checked out beside it: every
// tree of a batch made at once has its files and a clean status, and a tree whose checkout never ran (the Host stopped
// between the two) is checked out at its next launch. Real git.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { WorktreeManager } from '../../../src/host/worktrees/worktreeManager.js';
import { initRepo, sh } from './gitRepoKit.js';
import { tmpdir } from 'node:os';

const files = { 'README.md': 'hello\n', '.gitignore': '.tutti/\n', 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' };

describe('worktrees are checked out beside git\'s serial bookkeeping (real git)', function () {
	this.timeout(120_000);
	let root = '';
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	function repo(): string {
		root = mkdtempSync(join(tmpdir(), 'tutti-checkout-'));
		const dir = join(root, 'repo');
		mkdirSync(dir);
		initRepo(dir, files);
		return dir;
	}

	it('eight trees asked for at once each get every file and a clean status', async () => {
		const dir = repo();
		const manager = new WorktreeManager(dir);
		const trees = await Promise.all(Array.from({ length: 8 }, (_, i) => manager.ensure('iss', [`t${i}`], 'iso')));
		for (const tree of trees) {
			assert.equal(readFileSync(join(tree.absolutePath, 'src', 'b.ts'), 'utf8'), files['src/b.ts']);
			assert.equal(sh(tree.absolutePath, 'status', '--porcelain'), '', `${tree.taskId} is clean`);
		}
	});

	it('a tree left without its checkout (no index, no files) is checked out at its next launch by a new manager', async () => {
		const dir = repo();
		const tree = await new WorktreeManager(dir).ensure('iss', ['a'], 'iso');
		// What a Host stopped between `worktree add --no-checkout` and the checkout leaves: the registration, no index, no files.
		const gitDir = sh(tree.absolutePath, 'rev-parse', '--absolute-git-dir');
		rmSync(join(gitDir, 'index'));
		for (const path of ['README.md', '.gitignore', 'src']) { rmSync(join(tree.absolutePath, path), { recursive: true, force: true }); }
		assert.equal(existsSync(join(tree.absolutePath, 'src', 'a.ts')), false);
		const again = await new WorktreeManager(dir).ensure('iss', ['a'], 'iso');
		assert.equal(again.absolutePath, tree.absolutePath);
		assert.equal(readFileSync(join(again.absolutePath, 'src', 'a.ts'), 'utf8'), files['src/a.ts']);
		assert.equal(sh(again.absolutePath, 'status', '--porcelain'), '');
	});
});
