import assert from 'node:assert/strict';
import { exportAsJson, exportAsMarkdown, exportFileName, formatDuration, type IssueExport } from '../../../src/extension/export/issueExport.js';
import { issue, plan, planTask, run } from './dtoBuilders.js';

function manualExport(): IssueExport {
	return {
		exportedAtUnixMs: Date.UTC(2025, 0, 2, 3, 4, 5),
		issue: {
			...issue('I1', { title: 'Fix | login', content: 'Users are logged out.', counts: { completed: 1, failed: 1 } }),
			tasks: [
				planTask('a', { title: 'Find | cause', status: 'completed', blockerReason: 'task_not_started' }),
				planTask('b', { title: 'Patch\nit', status: 'failed', dependencyTaskIds: ['a'], blockerReason: 'task_not_started' }),
			],
		},
		plan: null,
		runs: [
			run('R1', { taskId: 'a', status: 'completed', outcome: 'success', outcomeLabel: 'Completed in 2m 03s', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 } }),
			run('R2', { taskId: 'b', status: 'canceled', outcome: 'cancellation', outcomeLabel: 'Interrupted after 5s — you stopped this', stopNotes: [{ eventId: 'e1', reason: 'person', answer: 'took', requestedAtUnixMs: 1, answeredAtUnixMs: 2 }] }),
		],
	};
}

describe('extension/issueExport', () => {
	it('JSON: a versioned document that parses back to the same issue, plan and runs', () => {
		const data = manualExport();
		const parsed = JSON.parse(exportAsJson(data)) as Record<string, unknown>;
		assert.equal(parsed['format'], 'tutti-issue-export');
		assert.equal(parsed['version'], 1);
		assert.deepEqual(parsed['issue'], data.issue);
		assert.deepEqual(parsed['runs'], data.runs);
		assert.equal(parsed['plan'], null);
	});

	it('Markdown: a paused issue says who paused it', () => {
		const data = manualExport();
		assert.match(exportAsMarkdown({ ...data, issue: { ...data.issue, dispatchPaused: true, pausedBy: 'developer' } }), /- Status: open \(paused by the developer\)\n/);
		assert.match(exportAsMarkdown({ ...data, issue: { ...data.issue, dispatchPaused: true, pausedBy: 'source' } }), /\(paused by its source agent\)/);
		assert.match(exportAsMarkdown({ ...data, issue: { ...data.issue, dispatchPaused: true } }), /- Status: open \(paused\)\n/);
	});

	it('Markdown: title, status, progress, goal, a task table with escaped cells, and each Run with its outcome and Stop notes', () => {
		const md = exportAsMarkdown(manualExport());
		assert.match(md, /^# Fix \| login\n/);
		assert.match(md, /- Issue: `I1` \(manual\)/);
		assert.match(md, /- Progress: 1\/2 tasks completed/);
		assert.match(md, /- Exported: 2025-01-02T03:04:05.000Z/);
		assert.match(md, /## Goal\n\nUsers are logged out\./);
		assert.match(md, /\| `b` \| Patch it \| failed \| a \| sh \|/);
		assert.ok(md.includes('| `a` | Find \\| cause | completed |'), 'a pipe in a cell is escaped');
		assert.match(md, /### Run `R2` — task `b`\n\n- Outcome: Interrupted after 5s — you stopped this/);
		assert.match(md, /- Stop \(person\) at 1970-01-01T00:00:00.001Z: took/);
		assert.match(md, /- Usage: 10 input, 5 output/);
		assert.ok(md.endsWith('\n') && !md.endsWith('\n\n'));
	});

	it('Markdown of a managed issue: the execution, its checkpoint, and superseded tasks with their replacement', () => {
		const data: IssueExport = {
			...manualExport(),
			issue: { ...manualExport().issue, planningSource: 'tutti' },
			plan: plan('I1', { tasks: [planTask('a2', { title: 'New A' }), planTask('a', { title: 'Old A', supersededAtUnixMs: 9, supersededByTaskId: 'a2' })] }),
			runs: [],
		};
		const md = exportAsMarkdown(data);
		assert.match(md, /- Execution: awaiting main, graph revision 2/);
		assert.match(md, /- Active checkpoint: task settled #2 \(revision 2\)/);
		assert.match(md, /## Tasks\n\n\| Task .*\n\|---.*\n\| `a2` \| New A /);
		assert.match(md, /## Superseded tasks\n\n.*\n.*\n\| `a` \| Old A \| `a2` \|/);
		assert.match(md, /## Runs\n\n_No runs\._/);
	});

	it('formats durations and file names', () => {
		assert.equal(formatDuration(45_000), '45s');
		assert.equal(formatDuration(123_000), '2m 03s');
		assert.equal(formatDuration(3_720_000), '1h 02m');
		assert.equal(exportFileName({ issueId: 'I1', title: 'Fix | the Login!' }, 'markdown'), 'fix-the-login.md');
		assert.equal(exportFileName({ issueId: 'I1', title: '***' }, 'json'), 'I1.json');
	});
});
