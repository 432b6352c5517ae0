import { strict as assert } from 'node:assert';
import type { Attention, NeedsYouReason } from '../../../src/core/attention/attention.js';
import { needingYou, nextNeedingYou } from '../../../src/extension/commands/nextNeedingYou.js';
import { issue } from './dtoBuilders.js';

function needs(...reasons: NeedsYouReason[]): Attention {
	return {
		state: 'needs_you', label: `Needs you: ${reasons.map((r) => r.label).join(' · ')}`, reasons, activity: '', sinceUnixMs: 0,
		stalled: false, handBackCommand: '', sourceAgent: null, runs: [],
	};
}
const reason = (kind: NeedsYouReason['kind'], label: string, taskIds: string[]): NeedsYouReason => ({ kind, label, taskIds, failure: false });

describe('extension/nextNeedingYou', () => {
	const issues = [
		issue('A', { attention: needs(reason('task_awaiting_acceptance', '2 tasks to accept', ['a1', 'a2']), reason('failed_run', '1 failed', ['a3', 'a1'])) }),
		issue('B'),
		issue('C', { attention: needs(reason('goal_review', 'goal review', [])) }),
		issue('D', { attention: needs(reason('approval_asked', '1 approval asked', ['d1'])) }),
	];

	it('lists what the Host says needs the developer, in board order: each issue\'s tasks by reason, then the issue itself', () => {
		assert.deepEqual(needingYou(issues).map((n) => `${n.issueId}:${n.taskId ?? '-'} ${n.why}`), [
			'A:a1 2 tasks to accept', 'A:a2 2 tasks to accept', 'A:a3 1 failed', 'C:- goal review', 'D:d1 1 approval asked',
		]);
	});

	it('goes to the one after what the developer looks at, wrapping; from anywhere else, to the first', () => {
		const next = (issueId: string, selectedTaskId: string | null): string => {
			const n = nextNeedingYou(issues, { issueId, selectedTaskId })!;
			return `${n.issueId}:${n.taskId ?? '-'}`;
		};
		assert.equal(next('A', 'a1'), 'A:a2');
		assert.equal(next('A', 'a3'), 'C:-');
		assert.equal(next('C', null), 'D:d1');
		assert.equal(next('D', 'd1'), 'A:a1', 'wraps');
		assert.equal(next('B', null), 'A:a1', 'an issue that needs nothing');
		assert.equal(next('A', null), 'A:a1', 'an issue open with no task selected: its first');
		assert.equal(`${nextNeedingYou(issues, undefined)!.taskId}`, 'a1', 'no panel: the first');
	});

	it('nothing needs the developer: nowhere to go', () => {
		assert.equal(nextNeedingYou([issue('B')], undefined), undefined);
	});
});
