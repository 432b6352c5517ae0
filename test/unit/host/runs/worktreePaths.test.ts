// Worktree path rules: `.tutti/worktrees/<taskId>` on `tutti/<taskId>`, only for ids safe as folder and branch.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { reworkChain, worktreeBranch, worktreeRelativePath, worktreeTaskIdProblem } from '../../../../src/host/worktrees/worktreePaths.js';

describe('worktree path rules', () => {
	it('places a task tree under .tutti/worktrees on branch tutti/<taskId>', () => {
		assert.equal(worktreeRelativePath('fix-login'), join('.tutti', 'worktrees', 'fix-login'));
		assert.equal(worktreeBranch('fix-login'), 'tutti/fix-login');
	});

	it('accepts simple ids and refuses ids that escape the folder or are not branch names', () => {
		for (const ok of ['a', 'task-12', 'T_1.2']) { assert.equal(worktreeTaskIdProblem(ok), null, ok); }
		for (const bad of ['', '..', '../x', 'a/b', '.hidden', 'a..b', 'x.lock', 'trailing.', 'sp ace', 'a'.repeat(121), 'é']) {
			assert.notEqual(worktreeTaskIdProblem(bad), null, bad);
		}
	});

	it('a rework chain leads back through superseded tasks, nearest first, and stops on a cycle', () => {
		const supersededBy = new Map([['a', 'b'], ['b', 'c'], ['x', '']]);
		assert.deepEqual(reworkChain('c', supersededBy), ['c', 'b', 'a']);
		assert.deepEqual(reworkChain('a', supersededBy), ['a']);
		assert.deepEqual(reworkChain('p', new Map([['p', 'q'], ['q', 'p']])), ['p', 'q']);
	});
});
