// The files a task changed, with +/- counts, from `git diff --numstat base result` (real git).
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { changedFiles, parseNumstat } from '../../../src/host/delivery/changedFiles.js';
import { commitOnBranch, newRepo, sh } from './gitRepoKit.js';

describe('changed files of a task (real git)', () => {
	let root: string;
	let repo: string;
	let first: string;
	beforeEach(() => { ({ root, repo, first } = newRepo()); });
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	it('counts added and deleted lines per path, binary files and paths with spaces included', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'README.md': 'hello\nworld\nagain\n', 'dir/new file.txt': 'x\ny\n', 'img.bin': '\u0000\u0001\u0002' });
		const files = await changedFiles(repo, first, a);
		assert.deepEqual(files.sort((p, q) => (p.path < q.path ? -1 : 1)), [
			{ path: 'README.md', added: 2, deleted: 0, binary: false },
			{ path: 'dir/new file.txt', added: 2, deleted: 0, binary: false },
			{ path: 'img.bin', added: 0, deleted: 0, binary: true },
		]);
	});

	it('reports a rename under its new path, and nothing for an unchanged Run', async () => {
		const body = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
		const a = commitOnBranch(repo, 'tutti/a', first, { 'old.txt': body });
		const tree = `${root}/t`;
		sh(repo, 'worktree', 'add', '-q', '-b', 'tutti/b', tree, a);
		sh(tree, 'mv', 'old.txt', 'new.txt');
		sh(tree, 'commit', '-q', '-m', 'rename');
		const b = sh(tree, 'rev-parse', 'HEAD');
		assert.deepEqual(await changedFiles(repo, a, b), [{ path: 'new.txt', added: 0, deleted: 0, binary: false }]);
		assert.deepEqual(await changedFiles(repo, a, a), []);
		assert.deepEqual(await changedFiles(repo, a, ''), [], 'a task without a worktree has no result commit');
	});

	it('parses numstat -z output it was given (no git)', () => {
		assert.deepEqual(parseNumstat('3\t1\tsrc/a.ts\0-\t-\tlogo.png\0'), [
			{ path: 'src/a.ts', added: 3, deleted: 1, binary: false },
			{ path: 'logo.png', added: 0, deleted: 0, binary: true },
		]);
		assert.deepEqual(parseNumstat('0\t0\t\0old name.txt\0new name.txt\0'), [{ path: 'new name.txt', added: 0, deleted: 0, binary: false }]);
		assert.deepEqual(parseNumstat(''), []);
	});
});
