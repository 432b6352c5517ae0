// "One state, everywhere": for the same snapshot, the board (group, icon state, line), the status bar and
// the panel's chip say the same thing, because each draws the Host's attention state and derives nothing. The
// stalled issue of the UX review — a source agent idle in its terminal with a checkpoint it never saw — read
// "Running" on the board, "Tutti: idle" in the status bar and "Waiting for the source agent" in the panel.
import { strict as assert } from 'node:assert';
import type { AttentionFixture } from '../attentionFixture.js';
import { attentionFor } from '../attentionFixture.js';
import { boardGroupLabels, buildBoard, statusSummary } from '../../../src/extension/views/boardModel.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import { aManagedSnapshot, aPlanTask, aSnapshot, anIssue, aTask } from '../webview/builders.js';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';

const now = 10_000_000;

interface Row {
	name: string;
	snapshot: PanelSnapshot;
	group: string;
	status: string;
	label: string;
}

function managed(fixture: Omit<AttentionFixture, 'issueStatus' | 'dispatchPaused' | 'tasks'>, tasks: ReturnType<typeof aPlanTask>[], dispatchPaused = false): PanelSnapshot {
	const snapshot = aManagedSnapshot(tasks, { dispatchPaused, execution: { ...aManagedSnapshot([]).plan!.execution, status: fixture.executionStatus ?? 'awaiting_main' } });
	const attention = attentionFor({ ...fixture, issueStatus: 'in_progress', dispatchPaused, tasks: tasks.map((t) => ({ taskId: t.taskId, title: t.title, status: t.status })), nowUnixMs: now });
	return { ...snapshot, issue: { ...snapshot.issue, attention: toDto(attention) } };
}

function toDto(a: ReturnType<typeof attentionFor>): PanelSnapshot['issue']['attention'] {
	return { ...a, reasons: a.reasons.map((r) => ({ ...r, taskIds: [...r.taskIds] })), sourceAgent: a.sourceAgent ? { ...a.sourceAgent } : null, runs: a.runs.map((r) => ({ ...r })) };
}

const rows: Row[] = [
	{
		name: 'the stalled issue: source agent idle with a checkpoint it never saw',
		snapshot: managed({ executionStatus: 'awaiting_main', activeCheckpoint: { kind: 'task_settled', createdAtUnixMs: now - 60_000 }, source: { lastContactUnixMs: now - 600_000 } },
			[aPlanTask('t1', { status: 'completed' }), aPlanTask('t2', { status: 'not_started' })]),
		group: 'needsYou', status: '1 needs you', label: 'Needs you: source agent idle',
	},
	{
		name: 'a Run in progress',
		snapshot: managed({ executionStatus: 'running', source: { waitingIn: 'plan issue await', waitingSinceUnixMs: now - 1_000 } },
			[aPlanTask('t1', { status: 'running', title: 'Build it' })]),
		group: 'agentWorking', status: '1 agent working', label: 'Agent working: Working on Build it',
	},
	{
		name: 'a wake delivered that the source agent has not answered',
		snapshot: managed({ executionStatus: 'awaiting_main', activeCheckpoint: { kind: 'task_settled', createdAtUnixMs: now - 60_000 }, source: { wakesDelivered: true, activeWake: { status: 'turn_settled', sinceUnixMs: now - 60_000 } } },
			[aPlanTask('t1', { status: 'completed' })]),
		group: 'waitingOnAgent', status: '1 waiting on agent', label: 'Waiting on the source agent',
	},
	{
		name: 'a task awaiting acceptance in a manual issue',
		snapshot: aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance' })])),
		group: 'needsYou', status: '1 needs you', label: 'Needs you: 1 task to accept',
	},
	{
		name: 'paused',
		snapshot: aSnapshot(anIssue([aTask('t1', { status: 'not_started' })], { dispatchPaused: true })),
		group: 'paused', status: '1 paused', label: 'Paused',
	},
	{
		name: 'planned',
		snapshot: aSnapshot(anIssue([aTask('t1', { status: 'not_started' })])),
		group: 'planned', status: 'nothing needs you', label: 'Planned',
	},
];

describe('board, status bar and panel agree on the attention state', () => {
	for (const row of rows) {
		it(row.name, () => {
			const issue = row.snapshot.issue;
			assert.equal(issue.attention.label, row.label, 'the Host\'s state (fixture check)');
			const board = buildBoard([issue], new Map());
			const item = board.groups.flatMap((g) => g.issues)[0]!;
			assert.equal(item.group, row.group, 'board group');
			assert.equal(item.stateLabel, row.label, 'board line');
			assert.equal(statusSummary(board), row.status, 'status bar');
			const panel = derivePanelModel(row.snapshot, { selectedTaskId: null, showHistory: false });
			assert.equal(panel.header.attention.label, row.label, 'panel chip');
			assert.equal(panel.header.attention.state, issue.attention.state, 'panel chip state');
			assert.equal(boardGroupLabels[item.group as keyof typeof boardGroupLabels] !== undefined, true);
		});
	}

	it('the status bar and the panel chip never read idle or running while the issue needs the developer', () => {
		const snapshot = rows[0]!.snapshot;
		const board = buildBoard([snapshot.issue], new Map());
		assert.doesNotMatch(statusSummary(board), /idle|running/i);
		const header = derivePanelModel(snapshot, { selectedTaskId: null, showHistory: false }).header;
		assert.doesNotMatch(header.attention.label, /waiting for the source agent|running/i);
	});
});
