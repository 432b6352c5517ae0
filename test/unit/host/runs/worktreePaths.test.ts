// Worktree path rules: a new tree is `.tutti/worktrees/<issueId>/<taskId>` on `tutti/<issueId>/<taskId>`; a tree made
// when names were per task keeps `.tutti/worktrees/<taskId>` on `tutti/<taskId>`; a record naming anything else is not taken.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import {
	isInsideTree, isKnownLayout, legacyTreeNames, reworkChain, worktreeBranch, worktreeRelativePath, worktreeTaskIdProblem,
} from '../../../../src/host/worktrees/worktreePaths.js';

describe('worktree path rules', () => {
	it('places a new task tree under its issue: .tutti/worktrees/<issue>/<task> on tutti/<issue>/<task>', () => {
		assert.equal(worktreeRelativePath('issue-1', 'fix-login'), join('.tutti', 'worktrees', 'issue-1', 'fix-login'));
		assert.equal(worktreeBranch('issue-1', 'fix-login'), 'tutti/issue-1/fix-login');
		assert.notEqual(worktreeRelativePath('issue-1', 'a'), worktreeRelativePath('issue-2', 'a'), 'the same task id in two issues');
		assert.deepEqual(legacyTreeNames('a'), { path: join('.tutti', 'worktrees', 'a'), branch: 'tutti/a' });
	});

	it('accepts simple ids and refuses ids that escape the folder or are not branch names', () => {
		for (const ok of ['a', 'task-12', 'T_1.2']) { assert.equal(worktreeTaskIdProblem(ok), null, ok); }
		for (const bad of ['', '..', '../x', 'a/b', '.hidden', 'a..b', 'x.lock', 'trailing.', 'sp ace', 'a'.repeat(121), 'é', '-x', 'a@{1}']) {
			assert.notEqual(worktreeTaskIdProblem(bad), null, bad);
		}
	});

	it('takes a recorded tree only in one of the two layouts of its own issue and task', () => {
		const of = (path: string, branch: string): boolean => isKnownLayout({ issueId: 'issue-1', taskId: 'a', path, branch });
		assert.equal(of(join('.tutti', 'worktrees', 'issue-1', 'a'), 'tutti/issue-1/a'), true);
		assert.equal(of(join('.tutti', 'worktrees', 'a'), 'tutti/a'), true, 'an older tree keeps its names');
		assert.equal(of(join('.tutti', 'worktrees', 'issue-1', 'a'), 'tutti/a'), false, 'names of two layouts mixed');
		assert.equal(of(join('.tutti', 'worktrees', 'issue-2', 'a'), 'tutti/issue-2/a'), false, "another issue's names");
		assert.equal(of('..', 'main'), false, 'a folder and a branch outside Tutti');
		assert.equal(isKnownLayout({ issueId: '..', taskId: 'a', path: join('.tutti', 'a'), branch: 'tutti/../a' }), false);
	});

	it('tells whether a Run directory lies in a tree folder', () => {
		const tree = join('.tutti', 'worktrees', 'issue-1', 'a');
		assert.equal(isInsideTree(tree, tree), true);
		assert.equal(isInsideTree(tree, join(tree, 'sub')), true);
		assert.equal(isInsideTree(tree, join('.tutti', 'worktrees', 'issue-1', 'ab')), false);
		assert.equal(isInsideTree(join('.tutti', 'worktrees', 'a'), join('.tutti', 'worktrees', 'issue-1', 'a')), false);
	});

	it('a rework chain leads back through superseded tasks, nearest first, and stops on a cycle', () => {
		const supersededBy = new Map([['a', 'b'], ['b', 'c'], ['x', '']]);
		assert.deepEqual(reworkChain('c', supersededBy), ['c', 'b', 'a']);
		assert.deepEqual(reworkChain('a', supersededBy), ['a']);
		assert.deepEqual(reworkChain('p', new Map([['p', 'q'], ['q', 'p']])), ['p', 'q']);
	});
});
