// A task builds on its parents (real git): the base of a new tree, a rework merging in new parent work, and the
// conflicted merge handed to an agent.
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { enterConflict, mergeMissingParents, newTreeBase } from '../../../src/host/delivery/taskBase.js';
import { commitOnBranch, newRepo, sh } from './gitRepoKit.js';

const identity = { name: 'Dev One', email: 'dev@example.test' };

describe('task bases from parent commits (real git)', () => {
	let root: string;
	let repo: string;
	let first: string;
	beforeEach(() => { ({ root, repo, first } = newRepo()); });
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	const files = (commit: string): string[] => sh(repo, 'ls-tree', '-r', '--name-only', commit).split('\n').sort();

	it('starts a root task at the issue base and a chained task at its parent', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		assert.deepEqual(await newTreeBase(repo, 'a', first, [], identity), { kind: 'ready', commit: first, mergeCommit: false });
		assert.deepEqual(await newTreeBase(repo, 'b', first, [{ taskId: 'a', commit: a }], identity), { kind: 'ready', commit: a, mergeCommit: false });
	});

	it("starts a diamond's join at a merge commit holding both parents' work", async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', a, { 'b.txt': 'B\n' });
		const c = commitOnBranch(repo, 'tutti/c', first, { 'c.txt': 'C\n' });
		const base = await newTreeBase(repo, 'd', first, [{ taskId: 'b', commit: b }, { taskId: 'c', commit: c }], identity);
		assert.ok(base.kind === 'ready' && base.mergeCommit);
		assert.deepEqual(files(base.commit), ['README.md', 'a.txt', 'b.txt', 'c.txt']);
		assert.equal(sh(repo, 'log', '-1', '--format=%s', base.commit), 'Merge parents of d: b, c');
	});

	it('names the conflicting parents and paths, with a clean commit of the others, and hands the agent the conflict', async () => {
		const x = commitOnBranch(repo, 'tutti/x', first, { 'x.txt': 'x\n' });
		const a = commitOnBranch(repo, 'tutti/a', first, { 'README.md': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', first, { 'README.md': 'B\n' });
		const base = await newTreeBase(repo, 'd', first, [{ taskId: 'x', commit: x }, { taskId: 'a', commit: a }, { taskId: 'b', commit: b }], identity);
		assert.equal(base.kind, 'conflict');
		assert.ok(base.kind === 'conflict');
		assert.equal(base.otherTaskId, 'a');
		assert.deepEqual(base.conflicting, { taskId: 'b', commit: b });
		assert.deepEqual(base.paths, ['README.md']);
		assert.deepEqual(files(base.cleanCommit), ['README.md', 'x.txt']);
		assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), 'hello\n', 'the workspace is untouched');
		const tree = join(root, 'd');
		sh(repo, 'worktree', 'add', '-q', '-b', 'tutti/d', tree, base.cleanCommit);
		assert.deepEqual(await enterConflict(tree, 'd', base.conflicting, identity), ['README.md']);
		assert.match(readFileSync(join(tree, 'README.md'), 'utf8'), /^<<<<<<< /m);
	});

	it('merges into a rework tree only the parent commits it does not contain yet', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const tree = join(root, 'b');
		sh(repo, 'worktree', 'add', '-q', '-b', 'tutti/b', tree, a);
		sh(tree, 'commit', '-q', '--allow-empty', '-m', 'b result');
		assert.deepEqual(await mergeMissingParents(tree, 'b2', [{ taskId: 'a', commit: a }], identity),
			{ kind: 'ready', commit: sh(tree, 'rev-parse', 'HEAD'), mergeCommit: false });
		const a2 = commitOnBranch(repo, 'tutti/a2', a, { 'a2.txt': 'A2\n' });
		const merged = await mergeMissingParents(tree, 'b2', [{ taskId: 'a2', commit: a2 }], identity);
		assert.ok(merged.kind === 'ready' && merged.mergeCommit);
		assert.equal(sh(tree, 'rev-parse', 'HEAD'), merged.commit, 'the tree moved to the merge');
		assert.equal(readFileSync(join(tree, 'a2.txt'), 'utf8'), 'A2\n');
	});
});
