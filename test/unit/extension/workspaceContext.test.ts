// The `when` clause context keys aggregate the Host's per-issue controls: a command shows in the palette when some
// issue offers it, and none does before the first read.
import { strict as assert } from 'node:assert';
import type { WorkspaceState } from '../../../src/extension/changes/workspaceState.js';
import { workspaceContext, workspaceContextKeys as k } from '../../../src/extension/workspaceContext.js';
import { issue, managedIssue } from './dtoBuilders.js';

function state(issues: WorkspaceState['issues'], runningRuns: WorkspaceState['runningRuns'] = []): WorkspaceState {
	return { version: 1, issues, executions: new Map(), runningRuns, agentTurns: [] };
}

function on(ctx: Record<string, boolean>): string[] {
	return Object.entries(ctx).filter(([, v]) => v).map(([key]) => key).sort();
}

describe('extension/workspaceContext', () => {
	it('is all false before the first read and with no issues', () => {
		assert.deepEqual(on(workspaceContext(undefined)), []);
		assert.deepEqual(on(workspaceContext(state([]))), []);
	});

	it('a draft manual issue offers Start and Add Task; a completed managed one Finish and Follow Up', () => {
		assert.deepEqual(on(workspaceContext(state([issue('A', { dispatchPaused: true })]))), [k.canAddTask, k.canStart, k.hasIssues].sort());
		assert.deepEqual(on(workspaceContext(state([managedIssue('B', 'completed', { status: 'completed' })]))), [k.canFinish, k.canFollowUp, k.hasIssues].sort());
	});

	it('a managed issue at Goal Review with a task to accept offers review, Pause and Stop Source', () => {
		const review = managedIssue('C', 'pending_goal_review', { counts: { pendingAcceptance: 1 } });
		assert.deepEqual(on(workspaceContext(state([review]))), [k.canPause, k.canStopSource, k.hasGoalReview, k.hasIssues, k.hasPendingAcceptance, k.needsYou].sort(),
			'it needs the developer: Next Task Needing You has somewhere to go');
	});

	it('Accept Task shows while the Host offers a task\'s review: not for a task left pending on an archived issue', () => {
		const archived = managedIssue('D', 'archived', { status: 'archived', counts: { pendingAcceptance: 1 } });
		assert.equal(workspaceContext(state([archived]))[k.hasPendingAcceptance], false);
		const orphaned = managedIssue('E', 'orphaned_source', { counts: { pendingAcceptance: 1 } });
		assert.equal(workspaceContext(state([orphaned]))[k.hasPendingAcceptance], true);
	});
});
