import { strict as assert } from 'node:assert';
import { type CheckoutSnapshot, type OutsideAttribution, outsideChanges, outsideChangesLabel } from '../../../../src/core/runs/outsideChanges.js';

const before: CheckoutSnapshot = {
	atUnixMs: 1, head: 'h1', branch: 'main', tracked: { 'dirty.txt': '1 .M a 3:10' },
	refs: { 'refs/heads/main': 'h1', 'refs/heads/tutti/own': 'o1', 'refs/heads/tutti/other': 'x1', 'refs/heads/tutti/live': 'l1' },
};
const none: OutsideAttribution = { ownRef: 'refs/heads/tutti/own', liveOtherRefs: new Set(), developerMoves: new Map() };

describe('core/runs/outsideChanges', () => {
	it('nothing changed, or only the Run\'s own branch: nothing is listed', () => {
		assert.deepEqual(outsideChanges(before, before, none), []);
		assert.deepEqual(outsideChanges(before, { ...before, refs: { ...before.refs, 'refs/heads/tutti/own': 'o2' } }, none), []);
	});

	it('lists HEAD, then paths (a dirty file changed again counts), then refs (moved, created, deleted)', () => {
		const after: CheckoutSnapshot = {
			atUnixMs: 2, head: 'h2', branch: 'main', tracked: { 'dirty.txt': '1 .M a 4:11', 'new.txt': '1 M. b 1:1' },
			refs: { 'refs/heads/main': 'h2', 'refs/heads/tutti/own': 'o1', 'refs/heads/tutti/live': 'l1', 'refs/heads/extra': 'e' },
		};
		assert.deepEqual(outsideChanges(before, after, none), ['HEAD', 'dirty.txt', 'new.txt', 'refs/heads/extra', 'refs/heads/main', 'refs/heads/tutti/other']);
	});

	it('a switch of the checked-out branch at the same commit is a change of HEAD', () => {
		assert.deepEqual(outsideChanges(before, { ...before, branch: 'other' }, none), ['HEAD']);
	});

	it('another live Run\'s branch and the developer\'s own moves (to exactly that value) are not counted', () => {
		const after: CheckoutSnapshot = { ...before, head: 'h2', refs: { ...before.refs, 'refs/heads/main': 'h2', 'refs/heads/tutti/live': 'l2' } };
		const attribution: OutsideAttribution = {
			...none, liveOtherRefs: new Set(['refs/heads/tutti/live']),
			developerMoves: new Map([['refs/heads/main', new Set(['h2'])], ['HEAD', new Set(['h2'])]]),
		};
		assert.deepEqual(outsideChanges(before, after, attribution), []);
		const movedFurther: CheckoutSnapshot = { ...after, head: 'h3', refs: { ...after.refs, 'refs/heads/main': 'h3' } };
		assert.deepEqual(outsideChanges(before, movedFurther, attribution), ['HEAD', 'refs/heads/main'], 'a value the developer did not set is listed');
	});

	it('names at most five, then how many more', () => {
		assert.equal(outsideChangesLabel(['a', 'b', 'c', 'd', 'e', 'f', 'g']), 'changed files outside its worktree: a, b, c, d, e and 2 more');
	});
});
