// "Open the task's tree" opens only a folder inside the workspace's .tutti/worktrees/, however the path is spelled.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taskTreePath } from '../../../src/extension/panels/taskTree.js';

describe('task tree path', () => {
	let workspace: string;
	let outside: string;
	beforeEach(() => {
		workspace = realpathSync(mkdtempSync(join(tmpdir(), 'tutti-tree-')));
		outside = realpathSync(mkdtempSync(join(tmpdir(), 'tutti-outside-')));
		mkdirSync(join(workspace, '.tutti', 'worktrees', 'i1', 'middle'), { recursive: true });
		mkdirSync(join(workspace, 'src'));
	});
	afterEach(() => {
		rmSync(workspace, { recursive: true, force: true });
		rmSync(outside, { recursive: true, force: true });
	});

	it('opens a task\'s tree inside .tutti/worktrees/', () => {
		assert.deepEqual(taskTreePath(workspace, '.tutti/worktrees/i1/middle'), { ok: true, path: join(workspace, '.tutti', 'worktrees', 'i1', 'middle') });
	});

	it('refuses every path outside it, naming where trees are', () => {
		for (const tree of ['src', '.tutti', '.tutti/worktrees', '.tutti/worktrees/../../src', '../', outside, '/etc', join(workspace, 'src')]) {
			const r = taskTreePath(workspace, tree);
			assert.equal(r.ok, false, tree);
			assert.match(r.ok ? '' : r.error, /Refused to open .*inside \.tutti\/worktrees of the workspace/, tree);
		}
	});

	it('refuses a link inside it that leads out, a tree that is gone, no tree, and no workspace', () => {
		symlinkSync(outside, join(workspace, '.tutti', 'worktrees', 'i1', 'escape'));
		const link = taskTreePath(workspace, '.tutti/worktrees/i1/escape');
		assert.match(link.ok ? '' : link.error, /leads outside \.tutti\/worktrees/);
		const gone = taskTreePath(workspace, '.tutti/worktrees/i1/gone');
		assert.match(gone.ok ? '' : gone.error, /does not exist any more/);
		assert.equal(taskTreePath(workspace, '').ok, false);
		assert.equal(taskTreePath(undefined, '.tutti/worktrees/i1/middle').ok, false);
	});
});
