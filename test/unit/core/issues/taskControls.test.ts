import { strict as assert } from 'node:assert';
import { isIssueClosed } from '../../../../src/core/issues/issueControls.js';
import { type TaskControlFacts, taskControls } from '../../../../src/core/issues/taskControls.js';
import { executionStatuses, taskStatuses } from '../../../../src/core/model.js';

const open: TaskControlFacts = { status: 'pending_acceptance', superseded: false, issueClosed: false, hasRecordedBase: true };

/** [accept, requestChanges, openChanges] */
function row(facts: Partial<TaskControlFacts>): [boolean, boolean, boolean] {
	const c = taskControls({ ...open, ...facts });
	return [c.accept, c.requestChanges, c.openChanges];
}

describe('core/issues/taskControls', () => {
	it('Accept and Request changes for an active task pending acceptance, in no other status', () => {
		const table: [typeof taskStatuses[number], boolean][] = [
			['not_started', false], ['running', false], ['pending_acceptance', true], ['completed', false], ['failed', false], ['canceled', false],
		];
		assert.deepEqual(table.map(([s]) => s), [...taskStatuses], 'every status is in the table');
		for (const [status, review] of table) {
			assert.deepEqual(row({ status }).slice(0, 2), [review, review], status);
		}
	});

	it('nothing to decide on superseded history, nor on a closed issue', () => {
		assert.deepEqual(row({ superseded: true }), [false, false, false]);
		assert.deepEqual(row({ issueClosed: true }), [false, false, true], 'its changes can still be opened');
	});

	it('Open changes for an active task whose Run recorded the commit it started from, whatever its status', () => {
		for (const status of taskStatuses) {
			assert.equal(row({ status }).at(2), true, status);
			assert.equal(row({ status, hasRecordedBase: false }).at(2), false, status);
		}
	});

	it('Retry for a failed or canceled task of a manual issue that is live; a managed issue\'s failures are its source agent\'s', () => {
		const retry = (facts: Partial<TaskControlFacts>): boolean => taskControls({ ...open, ...facts }).retry;
		const table: [typeof taskStatuses[number], boolean][] = [
			['not_started', false], ['running', false], ['pending_acceptance', false], ['completed', false], ['failed', true], ['canceled', true],
		];
		assert.deepEqual(table.map(([s]) => s), [...taskStatuses], 'every status is in the table');
		for (const [status, expected] of table) {
			assert.equal(retry({ status }), expected, status);
			assert.equal(retry({ status, planningSource: 'tutti' }), false, `${status} on a managed issue`);
		}
		assert.deepEqual([retry({ status: 'failed', superseded: true }), retry({ status: 'failed', issueArchived: true }), retry({ status: 'failed', issueClosed: true })],
			[false, false, true], 'history and an archived issue never; a completed issue still can run its failed task again');
	});

	it('Update from base for an accepted task with its own commit: manual, or managed once its execution completed', () => {
		const update = (facts: Partial<TaskControlFacts>): boolean => taskControls({ ...open, status: 'completed', hasAcceptedCommit: true, ...facts }).updateFromBase;
		for (const status of taskStatuses) { assert.equal(update({ status }), status === 'completed', status); }
		assert.deepEqual(
			[update({ hasAcceptedCommit: false }), update({ superseded: true }), update({ issueArchived: true }),
				update({ planningSource: 'tutti' }), update({ planningSource: 'tutti', executionCompleted: true })],
			[false, false, false, false, true],
		);
	});

	it('Edit on a not-started active task of an editable issue; Delete too unless an active task depends on it', () => {
		const editable: TaskControlFacts = { ...open, status: 'not_started', tasksEditable: true, hasRecordedBase: false };
		const both = (facts: Partial<TaskControlFacts>): [boolean, boolean] => {
			const c = taskControls({ ...editable, ...facts });
			return [c.edit, c.delete];
		};
		for (const status of taskStatuses) {
			assert.deepEqual(both({ status }), status === 'not_started' ? [true, true] : [false, false], status);
		}
		assert.deepEqual(both({ hasActiveDependents: true }), [true, false], 'a task others depend on is edited, not deleted');
		assert.deepEqual(both({ hasRun: true }), [true, false], 'a task waiting for its next attempt is edited, not deleted: its Runs are history');
		assert.deepEqual(both({ tasksEditable: false }), [false, false], 'a managed plan is its source agent\'s');
		assert.deepEqual(both({ tasksEditable: undefined }), [false, false], 'absent: not editable');
		assert.deepEqual(both({ superseded: true }), [false, false], 'superseded history');
		assert.deepEqual(both({ issueClosed: true }), [false, false], 'a closed issue');
	});

	it('closed is completed or archived (or archiving): a gone source session leaves its tasks to the developer', () => {
		const closed = executionStatuses.filter((s) => isIssueClosed('in_progress', s));
		assert.deepEqual(closed, ['completed', 'archiving', 'archived']);
		assert.deepEqual([isIssueClosed('completed', null), isIssueClosed('archived', null), isIssueClosed('open', null), isIssueClosed('in_progress', null)],
			[true, true, false, false]);
	});
});
