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

	it('closed is completed or archived (or archiving): a gone source session leaves its tasks to the developer', () => {
		const closed = executionStatuses.filter((s) => isIssueClosed('in_progress', s));
		assert.deepEqual(closed, ['completed', 'archiving', 'archived']);
		assert.deepEqual([isIssueClosed('completed', null), isIssueClosed('archived', null), isIssueClosed('open', null), isIssueClosed('in_progress', null)],
			[true, true, false, false]);
	});
});
