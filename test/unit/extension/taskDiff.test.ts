import { strict as assert } from 'node:assert';
import { fileSidesOf, taskDiffPlan } from '../../../src/extension/changes/taskDiff.js';

const run = (over: Partial<Parameters<typeof taskDiffPlan>[1]> = {}): Parameters<typeof taskDiffPlan>[1] => ({
	inWorktree: true, baseCommit: 'b1', resultCommit: 'r1', status: 'completed', executionDirectory: '.tutti/worktrees/a',
	changedFiles: [{ path: 'a.txt', added: 1, deleted: 0, binary: false }, { path: 'src/x.ts', added: 3, deleted: 2, binary: false }], ...over,
});

describe('what Open Changes shows for a task', () => {
	it("a worktree Run: its own files, base commit against result commit (never HEAD or the working tree)", () => {
		assert.deepEqual(taskDiffPlan('Write A', run()), {
			kind: 'files', title: 'Changes of "Write A"', left: 'b1', right: { kind: 'commit', sha: 'r1' }, files: ['a.txt', 'src/x.ts'], note: '',
		});
	});

	it('a shared-folder Run: the folder against the commit at launch, labelled as possibly mixed', () => {
		const plan = taskDiffPlan('Write A', run({ inWorktree: false, resultCommit: '', executionDirectory: '.' }));
		assert.deepEqual(plan, {
			kind: 'workingTree', title: 'Changes of "Write A" (shared folder: may include other changes)', left: 'b1', dir: '.',
			note: 'shared folder: may include other changes',
		});
	});

	it('a running worktree Run: its tree against its base; a settled one without a result or changes: nothing, with why', () => {
		assert.equal(taskDiffPlan('A', run({ resultCommit: '', status: 'running' })).kind, 'workingTree');
		assert.deepEqual(taskDiffPlan('A', run({ resultCommit: '', status: 'failed' })), { kind: 'none', why: '"A" has no result commit yet' });
		assert.deepEqual(taskDiffPlan('A', run({ changedFiles: [] })), { kind: 'none', why: '"A" changed no files (its result is its base commit)' });
		assert.equal(taskDiffPlan('A', run({ baseCommit: '' })).kind, 'none');
	});

	it('an added file has no original side and a deleted one no modified side (the Git extension\'s A / D statuses)', () => {
		// The Git extension's Status enum: INDEX_ADDED = 1, INDEX_DELETED = 2, MODIFIED = 5, DELETED = 6.
		assert.deepEqual([1, 2, 5, 6, undefined].map(fileSidesOf), ['added', 'deleted', 'both', 'deleted', 'both']);
	});
});
