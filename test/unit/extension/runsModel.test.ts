// The Runs view's model (src/extension/views/runsModel.ts): the Host's list of Runs needing attention, drawn.
import { strict as assert } from 'node:assert';
import { runsNeedingAttention } from '../../../src/extension/views/runsModel.js';
import type { IssueDto } from '../../../src/protocol/dto.js';
import { issue } from './dtoBuilders.js';

function withRuns(issueId: string, title: string, runs: IssueDto['attention']['runs'], state: IssueDto['attention']['state'] = 'needs_you'): IssueDto {
	const base = issue(issueId, { title });
	return { ...base, attention: { ...base.attention, state, runs } };
}

describe('extension/runsModel', () => {
	it('lists the Runs the Host says need attention, those that need the developer first, failed before stalled before waiting before stopped', () => {
		const items = runsNeedingAttention([
			withRuns('A', 'Alpha', [
				{ runId: 'r1', taskId: 't1', taskTitle: 'Stopped one', kind: 'stopped', label: 'Stopped', needsYou: false },
				{ runId: 'r2', taskId: 't2', taskTitle: 'Review me', kind: 'waiting', label: 'Waiting for your review', needsYou: true },
				{ runId: 'r6', taskId: 't6', taskTitle: 'Quiet', kind: 'stalled', label: 'Stalled: no activity for 12 min', needsYou: true },
			]),
			withRuns('B', 'Beta', [
				{ runId: 'r3', taskId: 't3', taskTitle: 'Broken', kind: 'failed', label: 'Failed: nobody is acting on it', needsYou: true },
				{ runId: 'r4', taskId: 't4', taskTitle: 'Owned', kind: 'failed', label: 'Failed: the source agent decides what next', needsYou: false },
			]),
			withRuns('C', 'Over', [{ runId: 'r5', taskId: 't5', taskTitle: 'Old', kind: 'failed', label: 'x', needsYou: true }], 'done'),
		]);
		assert.deepEqual(items.map((i) => [i.runId, i.contextValue]), [
			['r3', 'run:failed:needsYou'], ['r6', 'run:stalled:needsYou'], ['r2', 'run:waiting:needsYou'], ['r4', 'run:failed'], ['r1', 'run:stopped'],
		]);
		assert.deepEqual([items[0]!.issueTitle, items[0]!.taskTitle, items[0]!.label], ['Beta', 'Broken', 'Failed: nobody is acting on it']);
	});
});
