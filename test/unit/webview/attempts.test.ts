// A review decision is not a failure: the panel draws the Host's attempts — "Changes requested" (not the failure
// colour) while the new attempt waits, "Attempt 2 of 2" with one line per earlier attempt, superseded history as one
// line — and its selection follows a task's line of work when the task shown is superseded by a rework.
import { strict as assert } from 'node:assert';
import type { TaskAttemptsDto } from '../../../src/protocol/dto.js';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import { followNewAttempt } from '../../../src/extension/panels/followAttempt.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { findAll, textContent, type VNode } from '../../../webview/shared/vnode.js';
import { aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, anIssue } from './builders.js';

const note = 'Close, but not yet.';
const one = (over: Partial<TaskAttemptsDto>): TaskAttemptsDto => ({ number: 1, of: 1, label: '', earlier: [], stateLabel: '', line: '', ...over });

/** A managed issue after a change request on `notes` and its source agent's rework `notes-fixed`. */
function reworked(view: Partial<PanelSnapshot['view']> = {}): PanelSnapshot {
	const s = aManagedSnapshot([
		aPlanTask('notes', {
			title: 'Write the notes', status: 'failed', latestRunId: 'r1', supersededAtUnixMs: 9, supersededByTaskId: 'notes-fixed', blockerReason: 'task_superseded',
			attempts: one({ of: 2, label: 'Attempt 1 of 2', line: `Attempt 1 — changes requested: ${note}` }),
		}),
		aPlanTask('notes-fixed', { title: 'Write the notes', status: 'running', latestRunId: 'r2', sortIndex: 1, attempts: one({ number: 2, of: 2, label: 'Attempt 2 of 2', earlier: [`Attempt 1 — changes requested: ${note}`] }) }),
	], {}, { runs: [aRun('r1', 'notes', { status: 'completed', outcome: 'success' }), aRun('r2', 'notes-fixed', { status: 'running' })] });
	return { ...s, view: { ...s.view, ...view } };
}

function drawn(s: PanelSnapshot, selectedTaskId: string | null, showHistory = false): VNode {
	return panelTree(renderPanel(s, { selectedTaskId, showHistory }, 1, new LayoutCache()));
}

const byId = (t: VNode, id: string): VNode | undefined => findAll(t, (n) => n.attrs['id'] === id)[0];

describe('issue panel: attempts', () => {
	it('superseded history is one line — how that attempt ended, and the way to the next — not its status, blocker and result', () => {
		const t = drawn(reworked({ selectedTaskId: 'notes', showHistory: true }), 'notes', true);
		// What reads at a glance: everything but the collapsed sections (its Runs, content, dependencies, launch settings).
		const shown = (n: VNode): string => (n.kind === 'element' && n.tag === 'details' ? '' : n.kind === 'text' ? n.text : n.children.map(shown).join(''));
		const detail = shown(byId(t, 'task-detail')!);
		assert.equal(textContent(byId(t, 'attempt-line')!).startsWith(`Attempt 1 — changes requested: ${note}`), true);
		for (const gone of ['Failed', 'Not accepted', 'Superseded. Replaced by', 'Blocked', 'Completed in']) {
			assert.ok(!detail.includes(gone), `"${gone}" is not drawn: ${detail}`);
		}
		assert.equal(byId(t, 'latest-run'), undefined);
		const node = findAll(t, (n) => n.attrs['data-task-id'] === 'notes' && String(n.attrs['class'] ?? '').includes('node'))[0]!;
		assert.match(String(node.attrs['class']), /status-rework/);
		assert.doesNotMatch(String(node.attrs['class']), /status-failed/, 'never the failure colour');
	});

	it('the new attempt reads "Attempt 2 of 2" with the earlier attempt in one line, in the detail and on its node', () => {
		const t = drawn(reworked({ selectedTaskId: 'notes-fixed' }), 'notes-fixed');
		assert.equal(textContent(byId(t, 'attempt-label')!), 'Attempt 2 of 2');
		assert.ok(textContent(byId(t, 'attempts')!).includes(`Attempt 1 — changes requested: ${note}`));
		const g = derivePanelModel(reworked(), { selectedTaskId: null, showHistory: false }).graph;
		assert.equal(g.nodes.find((n) => n.taskId === 'notes-fixed')?.attemptLabel, 'attempt 2 of 2');
	});

	it('a manual task waiting for its new attempt reads "Changes requested" in the rework colour, never "Not started" or failed', () => {
		const s = aSnapshot(anIssue([aTask('greet', {
			title: 'Greet Bob', status: 'not_started', latestRunId: 'r1', attempt: 1,
			rework: { reworkId: 'w1', kind: 'changes_requested', note: 'In French too.', attempt: 2, fromRunId: 'r1', runId: '', requestedAtUnixMs: 5, mergeInto: '' },
		})]), { runs: [aRun('r1', 'greet', { status: 'completed', outcome: 'success' })] });
		const task = s.issue.tasks[0]!;
		const withAttempts: PanelSnapshot = { ...s, issue: { ...s.issue, tasks: [{ ...task, attempts: one({ number: 2, of: 2, label: 'Attempt 2 of 2', earlier: ['Attempt 1 — changes requested: In French too.'], stateLabel: 'Changes requested' }) }] } };
		const t = drawn(withAttempts, 'greet');
		const chip = findAll(byId(t, 'task-detail')!, (n) => String(n.attrs['class'] ?? '').includes('status-chip'))[0]!;
		assert.deepEqual([textContent(chip), chip.attrs['class']], ['Changes requested', 'status-chip status-rework']);
		const g = derivePanelModel(withAttempts, { selectedTaskId: 'greet', showHistory: false }).graph;
		assert.deepEqual([g.nodes[0]?.statusLabel, g.nodes[0]?.rework], ['Changes requested', true]);
	});

	it('the selection follows the next attempt when the task shown is superseded while selected, not history selected on purpose', () => {
		const before = aManagedSnapshot([aPlanTask('notes', { status: 'failed', latestRunId: 'r1' })]);
		const selected = (s: PanelSnapshot, id: string | null): PanelSnapshot => ({ ...s, view: { ...s.view, selectedTaskId: id } });
		assert.equal(followNewAttempt(selected(before, 'notes'), selected(reworked(), 'notes')), 'notes-fixed');
		assert.equal(followNewAttempt(selected(reworked(), 'notes'), selected(reworked(), 'notes')), null, 'already history when selected');
		assert.equal(followNewAttempt(selected(before, null), selected(reworked(), null)), null);
		assert.equal(followNewAttempt(null, selected(reworked(), 'notes')), null, 'a panel opened on history keeps it');
	});
});
