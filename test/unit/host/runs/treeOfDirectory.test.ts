// The tree whose result commit a verification checks, from the directory a worktree Run ran in.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { treeOfDirectory } from '../../../../src/host/worktrees/worktreePaths.js';

describe('treeOfDirectory', () => {
	it('a tree named per issue, and a folder inside it', () => {
		assert.equal(treeOfDirectory('.tutti/worktrees/issue-1/a', 'issue-1'), join('.tutti', 'worktrees', 'issue-1', 'a'));
		assert.equal(treeOfDirectory('.tutti/worktrees/issue-1/a/packages/web', 'issue-1'), join('.tutti', 'worktrees', 'issue-1', 'a'));
	});

	it('a tree an older Tutti made (named by the task only)', () => {
		assert.equal(treeOfDirectory('.tutti/worktrees/a', 'issue-1'), join('.tutti', 'worktrees', 'a'));
		assert.equal(treeOfDirectory('.tutti/worktrees/a/src', 'issue-1'), join('.tutti', 'worktrees', 'a'));
	});

	it('no tree: the shared folder', () => {
		assert.equal(treeOfDirectory('', 'issue-1'), '');
		assert.equal(treeOfDirectory('packages/web', 'issue-1'), '');
	});
});
