import { strict as assert } from 'node:assert';
import { effectiveIsolation, effectiveOnMergeConflict, withTargetDefaults } from '../../../../src/core/runs/targetDefaults.js';

describe('agent target defaults', () => {
	it('isolation: worktree for claude and codex in a git workspace, none otherwise, and what a target says wins', () => {
		const table: [Parameters<typeof effectiveIsolation>[0], boolean, 'none' | 'worktree'][] = [
			[{ adapter: 'claude' }, true, 'worktree'],
			[{ adapter: 'codex' }, true, 'worktree'],
			[{ adapter: 'command' }, true, 'none'],
			[{ adapter: 'claude' }, false, 'none'],
			[{ adapter: 'codex' }, false, 'none'],
			[{ adapter: 'claude', isolation: 'none' }, true, 'none'],
			[{ adapter: 'command', isolation: 'worktree' }, true, 'worktree'],
			[{ adapter: 'command', isolation: 'worktree' }, false, 'worktree'],
		];
		for (const [target, git, expected] of table) {
			assert.equal(effectiveIsolation(target, git), expected, `${JSON.stringify(target)} git=${git}`);
		}
	});

	it('onMergeConflict: fail for command targets, agent for claude and codex, and what a target says wins', () => {
		assert.equal(effectiveOnMergeConflict({ adapter: 'command' }), 'fail');
		assert.equal(effectiveOnMergeConflict({ adapter: 'claude' }), 'agent');
		assert.equal(effectiveOnMergeConflict({ adapter: 'codex' }), 'agent');
		assert.equal(effectiveOnMergeConflict({ adapter: 'claude', onMergeConflict: 'fail' }), 'fail');
		assert.equal(effectiveOnMergeConflict({ adapter: 'command', onMergeConflict: 'agent' }), 'agent');
	});

	it('writes the defaults out without changing anything else', () => {
		assert.deepEqual(withTargetDefaults([{ id: 'c', adapter: 'claude', model: 'sonnet' }], true),
			[{ id: 'c', adapter: 'claude', model: 'sonnet', isolation: 'worktree', onMergeConflict: 'agent' }]);
	});
});
