// The ways forward of a conflicting integrate, as the panel's conflict block shows them: one short line each, with the
// button it goes with; the CLI's hint keeps every command spelled out.
import { strict as assert } from 'node:assert';
import { describe, it } from 'mocha';
import { type ConflictFacts, conflictRefusal } from '../../../../src/core/issues/integrationWayForward.js';

const facts: ConflictFacts = {
	issueId: 'i1', into: 'main', paths: ['shared.txt', 'src/a.ts'], taskId: 'middle', withLabel: 'main (0123456789ab)',
	tree: '.tutti/worktrees/i1/middle', sources: [{ label: 'main', commit: 'a'.repeat(40) }], updateFromBase: 'agent',
};

describe('core/issues/integrationWayForward: the conflict\'s ways as short lines', () => {
	it('agent target: Update from base (its agent resolves), then by hand in the tree', () => {
		assert.deepEqual(conflictRefusal(facts).ways, [
			{ action: 'update_from_base', text: 'A new Run merges main into the task\'s tree and its agent resolves the conflict; accept it, then integrate again.' },
			{ action: 'open_tree', text: 'By hand in the task\'s tree: git merge main, fix the conflicts, commit; then accept the change and integrate again.' },
		]);
	});

	it('a target that does not resolve conflicts: the Run leaves the merge to the developer', () => {
		assert.equal(conflictRefusal({ ...facts, updateFromBase: 'developer' }).ways[0]!.text,
			'A new Run merges main into the task\'s tree and leaves the conflict there for you to resolve and commit; then accept it and integrate again.');
	});

	it('an earlier task\'s work: merged by its commit, after the branch', () => {
		const ways = conflictRefusal({ ...facts, sources: [{ label: 'main', commit: 'a'.repeat(40) }, { label: 'task left', commit: 'b'.repeat(40) }] }).ways;
		assert.equal(ways[0]!.text, 'A new Run merges main and task left into the task\'s tree and its agent resolves the conflict; accept it, then integrate again.');
		assert.equal(ways[1]!.text, `By hand in the task's tree: git merge main, then git merge ${'b'.repeat(40)}, fix the conflicts, commit; then accept the change and integrate again.`);
	});

	it('Update from base not possible now: a line saying why, with no button; no tree, no by-hand line', () => {
		assert.deepEqual(conflictRefusal({ ...facts, updateFromBase: 'unavailable', unavailableReason: 'its tasks are the source agent\'s until the Goal Review', tree: '' }).ways, [
			{ action: null, text: 'Update from base is not possible now: its tasks are the source agent\'s until the Goal Review.' },
		]);
	});

	it('every line is short; the hint still spells out each command for the CLI', () => {
		const refusal = conflictRefusal(facts);
		for (const way of refusal.ways) { assert.ok(way.text.length <= 140, way.text); }
		assert.ok(refusal.hint.includes('`tutti task update-from-base --issue-id i1 --task-id middle --into main --as-user`'), refusal.hint);
		assert.ok(refusal.hint.includes('`git -C .tutti/worktrees/i1/middle merge main`'), refusal.hint);
	});
});
