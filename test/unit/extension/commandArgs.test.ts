import assert from 'node:assert/strict';
import { isConfirmed, isGoalRequest, issueIdOf, noteOf, optionsOf, runIdOf, taskRefOf } from '../../../src/extension/commands/commandArgs.js';

const boardElement = { kind: 'issue', item: { issueId: 'I1', title: 'T' } };

describe('extension/commandArgs', () => {
	it('reads the issue id from a plain id, an object, or a board element; nothing means "ask"', () => {
		assert.equal(issueIdOf(['I1']), 'I1');
		assert.equal(issueIdOf([{ issueId: 'I1' }]), 'I1');
		assert.equal(issueIdOf([boardElement]), 'I1');
		assert.equal(issueIdOf([]), undefined);
		assert.equal(issueIdOf(['']), undefined);
		assert.equal(issueIdOf([{ issueId: 7 }]), undefined);
	});

	it('reads run ids and task refs positionally (the panel) or from an object (scripts)', () => {
		assert.equal(runIdOf(['R1']), 'R1');
		assert.equal(runIdOf([{ runId: 'R1' }]), 'R1');
		assert.deepEqual(taskRefOf(['I1', 'T1']), { issueId: 'I1', taskId: 'T1' });
		assert.deepEqual(taskRefOf([{ issueId: 'I1', taskId: 'T1' }]), { issueId: 'I1', taskId: 'T1' });
		assert.equal(taskRefOf(['I1']), undefined, 'an issue alone is not a task');
		assert.equal(taskRefOf([boardElement]), undefined);
	});

	it('tells a goal request (issueId, undefined, note) from a task request (issueId, taskId, note)', () => {
		assert.equal(isGoalRequest(['I1', undefined, 'more tests']), true);
		assert.equal(isGoalRequest([{ issueId: 'I1', goal: true }]), true);
		assert.equal(isGoalRequest(['I1', 'T1', 'more tests']), false);
		assert.equal(isGoalRequest([boardElement]), false);
		assert.equal(noteOf(['I1', undefined, 'more tests']), 'more tests');
		assert.equal(noteOf([{ note: 'n' }]), 'n');
		assert.equal(noteOf(['I1', 'T1']), undefined);
	});

	it('reads confirmation and option objects', () => {
		assert.equal(isConfirmed([{ issueId: 'I1', confirmed: true }]), true);
		assert.equal(isConfirmed(['I1', { confirmed: true }]), true);
		assert.equal(isConfirmed(['I1']), false);
		assert.deepEqual(optionsOf<{ title: string }>([{ title: 'x' }]), { title: 'x' });
		assert.deepEqual(optionsOf(['I1']), {});
	});
});
