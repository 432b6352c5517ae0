// The developer's Finish with --remove-worktrees and `tutti worktree prune` delete task branches: each deletion is told (to the ledger that keeps
// it from counting as a live Run's outside change) before git deletes the branch. Real git.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { WorktreeManager } from '../../../src/host/worktrees/worktreeManager.js';
import { newRepo, sh } from './gitRepoKit.js';

describe('worktree removal tells each branch it deletes, before deleting it (real git)', function () {
	this.timeout(60_000);
	let root = '';
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	it('deleteBranch: the callback sees the branch still there, then it is gone', async () => {
		const made = newRepo();
		root = made.root;
		const seen: { ref: string; existed: boolean }[] = [];
		const manager = new WorktreeManager(made.repo, undefined, (ref) => {
			seen.push({ ref, existed: sh(made.repo, 'for-each-ref', '--format=%(refname)', ref) === ref });
		});
		const tree = await manager.ensure('iss', ['a'], 'iso');
		assert.equal(tree.absolutePath, join(made.repo, '.tutti', 'worktrees', 'iss', 'a'));
		await manager.remove('iss', 'a');
		assert.equal(await manager.deleteBranch('iss', 'a', made.first), true);
		assert.deepEqual(seen, [{ ref: 'refs/heads/tutti/iss/a', existed: true }]);
		assert.equal(sh(made.repo, 'branch', '--list', 'tutti/iss/a'), '');
	});
});
