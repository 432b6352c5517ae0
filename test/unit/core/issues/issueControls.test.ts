import { strict as assert } from 'node:assert';
import { describe, it } from 'mocha';
import { type IssueControlFacts, type IssueControls, isIssueTerminal, issueControls } from '../../../../src/core/issues/issueControls.js';
import { executionStatuses } from '../../../../src/core/model.js';

const open: IssueControlFacts = { issueStatus: 'in_progress', executionStatus: null, dispatchPaused: false, hasRunningRun: false, hasOpenTask: true, hasTaskAwaitingReview: false, hasUnintegratedAcceptance: false };

/** [pause, resume, stop, confirmGoal, requestGoalChanges] */
function row(facts: Partial<IssueControlFacts>): [boolean, boolean, boolean, boolean, boolean] {
	const c = issueControls({ ...open, ...facts });
	return [c.pause, c.resume, c.stop, c.confirmGoal, c.requestGoalChanges];
}

describe('core/issues/issueControls', () => {
	it('is terminal for a completed or archived issue, and for these execution statuses only', () => {
		assert.equal(isIssueTerminal('completed', null), true);
		assert.equal(isIssueTerminal('archived', null), true);
		assert.equal(isIssueTerminal('in_progress', null), false);
		const terminal = executionStatuses.filter((s) => isIssueTerminal('in_progress', s));
		assert.deepEqual(terminal, ['orphaned_source', 'completed', 'archiving', 'archived']);
	});

	it('manual issues: Pause xor Resume; Stop for unpaused open work or a running Run', () => {
		assert.deepEqual(row({}), [true, false, true, false, false]);
		assert.deepEqual(row({ dispatchPaused: true }), [false, true, false, false, false]);
		assert.deepEqual(row({ dispatchPaused: true, hasRunningRun: true }), [false, true, true, false, false]);
		assert.deepEqual(row({ hasOpenTask: false }), [true, false, false, false, false]);
		assert.deepEqual(row({ hasOpenTask: false, hasRunningRun: true }), [true, false, true, false, false]);
	});

	it('managed issues: Stop while the execution works, whatever the tasks; Confirm goal and Request changes at Goal Review', () => {
		for (const status of ['awaiting_schedule', 'running', 'awaiting_main'] as const) {
			assert.deepEqual(row({ executionStatus: status, hasOpenTask: false }), [true, false, true, false, false], status);
		}
		assert.deepEqual(row({ executionStatus: 'pending_goal_review', hasOpenTask: false }), [true, false, false, true, true]);
		assert.deepEqual(row({ executionStatus: 'pending_goal_review', dispatchPaused: true }), [false, true, false, true, true]);
		// pending_goal_review while the source agent still owes `complete` (its all_tasks_terminal checkpoint active):
		// nothing to confirm yet, and its work can be stopped.
		assert.deepEqual(row({ executionStatus: 'pending_goal_review', hasOpenTask: false, goalReviewAwaited: false }), [true, false, true, false, false]);
		assert.deepEqual(row({ executionStatus: 'pending_goal_review', hasOpenTask: false, goalReviewAwaited: true }), [true, false, false, true, true]);
	});

	it('offers nothing once the issue is terminal — an orphaned execution included, even with a Run still running', () => {
		const none = [false, false, false, false, false];
		for (const executionStatus of ['orphaned_source', 'completed', 'archiving', 'archived'] as const) {
			assert.deepEqual(row({ executionStatus, hasRunningRun: true }), none, executionStatus);
			assert.deepEqual(row({ executionStatus, dispatchPaused: true }), none, `${executionStatus}, paused`);
		}
		assert.deepEqual(row({ issueStatus: 'completed', hasRunningRun: true }), none);
		assert.deepEqual(row({ issueStatus: 'archived', executionStatus: 'awaiting_main' }), none);
	});

	it('Open Run Output once any Run exists; Open Combined Diff where accepted commits exist, at Goal Review or before Integrate', () => {
		const c = (facts: Partial<IssueControlFacts>): [boolean, boolean] => { const x = issueControls({ ...open, ...facts }); return [x.runOutput, x.combinedChanges]; };
		assert.deepEqual(c({}), [false, false]);
		assert.deepEqual(c({ hasRun: true }), [true, false]);
		assert.deepEqual(c({ hasRun: true, issueStatus: 'archived' }), [true, false], 'an archived issue\'s Runs can still be read');
		assert.deepEqual(c({ hasAcceptedCommit: true }), [false, false], 'accepted work mid-issue: neither Goal Review nor Integrate yet');
		assert.deepEqual(c({ hasAcceptedCommit: true, hasUnintegratedAcceptance: true }), [false, true], 'before Integrate');
		assert.deepEqual(c({ hasUnintegratedAcceptance: true }), [false, false], 'nothing accepted with a commit (shared folder)');
		assert.deepEqual(c({ hasAcceptedCommit: true, executionStatus: 'pending_goal_review' }), [false, true], 'at Goal Review');
		assert.deepEqual(c({ hasAcceptedCommit: true, executionStatus: 'pending_goal_review', goalReviewAwaited: false }), [false, false], 'the source agent still owes complete');
		assert.deepEqual(c({ hasAcceptedCommit: true, hasUnintegratedAcceptance: true, executionStatus: 'completed' }), [false, true], 'a completed issue before Integrate');
		assert.deepEqual(c({ hasAcceptedCommit: true, hasUnintegratedAcceptance: true, executionStatus: 'archived' }), [false, false]);
	});

	it('Start, not Resume, for a manual issue held back before its first Run (status still open)', () => {
		const c = (facts: Partial<IssueControlFacts>): [boolean, boolean] => { const x = issueControls({ ...open, ...facts }); return [x.start, x.resume]; };
		assert.deepEqual(c({ issueStatus: 'open', dispatchPaused: true }), [true, false]);
		assert.deepEqual(c({ issueStatus: 'in_progress', dispatchPaused: true }), [false, true]);
		assert.deepEqual(c({ issueStatus: 'open', dispatchPaused: true, executionStatus: 'awaiting_schedule' }), [false, true], 'a managed issue is resumed');
	});

	it('Integrate while accepted work is not integrated: on an open or a completed issue, never an archived one', () => {
		const integrate = (facts: Partial<IssueControlFacts>): boolean => issueControls({ ...open, ...facts }).integrate;
		assert.equal(integrate({}), false, 'nothing accepted since the last integration');
		assert.equal(integrate({ hasUnintegratedAcceptance: true }), true);
		assert.equal(integrate({ hasUnintegratedAcceptance: true, issueStatus: 'completed' }), true, 'a completed issue is what one integrates');
		assert.equal(integrate({ hasUnintegratedAcceptance: true, executionStatus: 'completed' }), true);
		assert.equal(integrate({ hasUnintegratedAcceptance: true, issueStatus: 'archived' }), false);
		for (const executionStatus of ['archiving', 'archived'] as const) {
			assert.equal(integrate({ hasUnintegratedAcceptance: true, executionStatus }), false, executionStatus);
		}
	});

	it('manual issues: Add Task while open; Start instead of Resume when paused before its first Run', () => {
		const c = (facts: Partial<IssueControlFacts>): IssueControls => issueControls({ ...open, ...facts });
		assert.equal(c({}).addTask, true);
		assert.equal(c({ issueStatus: 'open', hasOpenTask: false }).addTask, true);
		const draft = c({ issueStatus: 'open', dispatchPaused: true, hasOpenTask: true });
		assert.deepEqual([draft.start, draft.resume, draft.pause], [true, false, false]);
		const empty = c({ issueStatus: 'open', dispatchPaused: true, hasOpenTask: false });
		assert.deepEqual([empty.start, empty.resume, empty.addTask], [true, false, true], 'an empty draft offers Add Task and Start');
		const ranBefore = c({ issueStatus: 'in_progress', dispatchPaused: true, hasOpenTask: true });
		assert.deepEqual([ranBefore.start, ranBefore.resume], [false, true]);
		assert.equal(c({ issueStatus: 'open', dispatchPaused: false }).start, false);
		for (const issueStatus of ['completed', 'archived'] as const) {
			assert.deepEqual([c({ issueStatus }).addTask, c({ issueStatus, dispatchPaused: true }).start], [false, false], issueStatus);
		}
	});

	it('managed issues: no Add Task or Start; Stop source session until the execution is over; Switch to self under independent review only', () => {
		const c = (facts: Partial<IssueControlFacts>): IssueControls => issueControls({ ...open, ...facts });
		for (const executionStatus of ['awaiting_schedule', 'running', 'awaiting_main', 'pending_goal_review'] as const) {
			const controls = c({ executionStatus, issueStatus: 'open', dispatchPaused: true });
			assert.deepEqual([controls.addTask, controls.start, controls.stopSource], [false, false, true], executionStatus);
			assert.equal(c({ executionStatus, reviewMode: 'independent' }).switchReviewToSelf, true, executionStatus);
			assert.equal(c({ executionStatus, reviewMode: 'self' }).switchReviewToSelf, false, executionStatus);
		}
		for (const executionStatus of ['orphaned_source', 'completed', 'archiving', 'archived'] as const) {
			const controls = c({ executionStatus, reviewMode: 'independent' });
			assert.deepEqual([controls.stopSource, controls.switchReviewToSelf], [false, false], executionStatus);
		}
		assert.equal(c({ reviewMode: 'independent' }).switchReviewToSelf, false, 'a manual issue has no Goal Review');
	});

	it('Finish and Follow Up once a managed execution completed, until Finish is recorded; never otherwise', () => {
		const c = (facts: Partial<IssueControlFacts>): IssueControls => issueControls({ ...open, ...facts });
		const completed = c({ executionStatus: 'completed', issueStatus: 'completed' });
		assert.deepEqual([completed.finish, completed.followUp], [true, true]);
		const finished = c({ executionStatus: 'completed', issueStatus: 'completed', finished: true });
		assert.deepEqual([finished.finish, finished.followUp], [false, false]);
		for (const executionStatus of ['running', 'pending_goal_review', 'orphaned_source', 'archived'] as const) {
			assert.deepEqual([c({ executionStatus }).finish, c({ executionStatus }).followUp], [false, false], executionStatus);
		}
		assert.deepEqual([c({ issueStatus: 'completed' }).finish, c({ issueStatus: 'completed' }).followUp], [false, false], 'a manual issue whose work is not over');
	});
	it('Finish on a manual issue once its work is over (each task completed or canceled), until Finish is recorded; never a Follow Up', () => {
		const c = (facts: Partial<IssueControlFacts>): IssueControls => issueControls({ ...open, hasOpenTask: false, ...facts });
		assert.deepEqual([c({ issueStatus: 'completed', manualWorkOver: true }).finish, c({ issueStatus: 'completed', manualWorkOver: true }).followUp], [true, false]);
		assert.equal(c({ issueStatus: 'in_progress', manualWorkOver: true }).finish, true, 'completed and canceled tasks: in progress, but over');
		assert.equal(c({ issueStatus: 'completed', manualWorkOver: true, finished: true }).finish, false);
		assert.equal(c({ issueStatus: 'archived', manualWorkOver: true }).finish, false, 'a stopped issue is over already');
		assert.equal(c({ issueStatus: 'in_progress', manualWorkOver: false }).finish, false);
	});
	it('Accept / Request changes on a task while one awaits the developer, on a gone source session\'s issue too, never once it is closed', () => {
		const reviewTask = (facts: Partial<IssueControlFacts>): boolean => issueControls({ ...open, ...facts }).reviewTask;
		assert.equal(reviewTask({}), false, 'nothing pending acceptance');
		assert.equal(reviewTask({ hasTaskAwaitingReview: true }), true);
		assert.equal(reviewTask({ hasTaskAwaitingReview: true, executionStatus: 'orphaned_source' }), true, 'its results are the developer\'s to decide');
		for (const executionStatus of ['completed', 'archiving', 'archived'] as const) {
			assert.equal(reviewTask({ hasTaskAwaitingReview: true, executionStatus }), false, executionStatus);
		}
		for (const issueStatus of ['completed', 'archived'] as const) {
			assert.equal(reviewTask({ hasTaskAwaitingReview: true, issueStatus }), false, issueStatus);
		}
	});
});
