// The panel draws the Host's start and completion controls: Start / Add task in the header, Add task (and Start) in
// an empty graph, Finish / Follow up once complete, Stop source session and Switch to self review — and nothing the
// Host did not send.
import { strict as assert } from 'node:assert';
import type { IssueControlsDto } from '../../../src/protocol/dto.js';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { findAll, textContent, type VNode } from '../../../webview/shared/vnode.js';
import { aSnapshot, aTask, anIssue } from './builders.js';

function render(s: PanelSnapshot): VNode {
	return panelTree(renderPanel(s, { selectedTaskId: null, showHistory: false }, 1, new LayoutCache()));
}

function actionsIn(tree: VNode, rootId: string): string[] {
	const root = findAll(tree, (n) => n.attrs['id'] === rootId)[0];
	return root ? findAll(root, (n) => typeof n.attrs['data-action'] === 'string').map((n) => String(n.attrs['data-action'])) : [];
}

function withControls(s: PanelSnapshot, controls: Partial<IssueControlsDto>): PanelSnapshot {
	return { ...s, issue: { ...s.issue, controls: { ...s.issue.controls, ...controls } } };
}

describe('panel: start and completion controls (the Host\'s, drawn)', () => {
	it('a manual issue created paused with no task: Start and Add task in the header, Add task and Start in the empty graph', () => {
		const tree = render(aSnapshot(anIssue([], { status: 'open', dispatchPaused: true })));
		assert.deepEqual(actionsIn(tree, 'issue-controls'), ['issue/start', 'task/add']);
		assert.deepEqual(actionsIn(tree, 'graph-empty'), ['task/add', 'issue/start']);
		assert.match(textContent(findAll(tree, (n) => n.attrs['id'] === 'graph-empty')[0]!), /Add the tasks, then Start/);
		assert.match(textContent(findAll(tree, (n) => n.attrs['id'] === 'paused-note')[0]!), /^Not started: add the tasks, then Start/);
	});

	it('a running manual issue with no task left: Add task only, and an empty graph offers Add task without Start', () => {
		const tree = render(aSnapshot(anIssue([])));
		assert.deepEqual(actionsIn(tree, 'issue-controls'), ['issue/pause', 'task/add']);
		assert.deepEqual(actionsIn(tree, 'graph-empty'), ['task/add']);
	});

	it('a managed issue\'s empty graph offers nothing (its source agent plans it)', () => {
		const s = aSnapshot(anIssue([], { planningSource: 'tutti', sourceSessionId: 's1', executionStatus: 'awaiting_schedule' }));
		assert.deepEqual(actionsIn(render(s), 'graph-empty'), []);
		assert.deepEqual(actionsIn(render(s), 'issue-controls'), ['issue/pause', 'issue/stop', 'source/stop']);
	});

	it('draws Finish, Follow up, Switch to self review and Stop source session exactly when sent', () => {
		const base = aSnapshot(anIssue([aTask('t1', { status: 'completed' })]));
		const none = withControls(base, { pause: false, stop: false, addTask: false, finish: false });
		assert.deepEqual(actionsIn(render(none), 'issue-controls'), []);
		assert.equal(findAll(render(none), (n) => n.attrs['id'] === 'completion').length, 0);
		const complete = withControls(none, { finish: true, followUp: true });
		assert.deepEqual(actionsIn(render(complete), 'completion'), ['issue/finish', 'issue/followUp']);
		// Accepted work not integrated: Integrate is the one primary action; Finish is secondary and says what it skips.
		const ready = withControls(none, { finish: true, integrate: true });
		const unintegrated = render({ ...ready, issue: { ...ready.issue, delivery: 'ready_to_integrate' } });
		const primaries = findAll(unintegrated, (n) => n.attrs['appearance'] === 'primary' || String(n.attrs['class'] ?? '').includes('primary'));
		assert.deepEqual(primaries.map((n) => n.attrs['data-action']), ['issue/integrate']);
		assert.equal(textContent(findAll(unintegrated, (n) => n.attrs['id'] === 'finish-issue')[0]!), 'Finish without integrating');
		assert.equal(textContent(findAll(render(complete), (n) => n.attrs['id'] === 'finish-issue')[0]!), 'Finish');
		const review = withControls(none, { switchReviewToSelf: true, stopSource: true });
		assert.deepEqual(actionsIn(render(review), 'issue-controls'), ['goalReview/switchToSelf', 'source/stop']);
	});
});
