// A delta drawn incrementally draws exactly what a fresh panel draws from the whole snapshot: the panel's model and
// every region, after the model's per-task reuse (warm from the snapshot before), and the DOM a node patch leaves.
import { strict as assert } from 'node:assert';
import type { PanelSnapshot, PanelSnapshotDelta } from '../../../src/protocol/webview.js';
import { parseToWebview } from '../../../src/protocol/webview.js';
import { applySnapshotDelta, snapshotDelta } from '../../../src/protocol/webviewDelta.js';
import { defaultGraphView, type GraphViewOptions } from '../../../webview/issuePanel/graphOptions.js';
import { graphNode } from '../../../webview/issuePanel/renderGraph.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import type { GraphNodeModel } from '../../../webview/issuePanel/graphModel.js';
import type { PanelUi } from '../../../webview/issuePanel/panelModel.js';
import { buildDom, type DomNode, patchDom as patchWith } from '../../../webview/shared/domPatch.js';
import type { VNode } from '../../../webview/shared/vnode.js';
import { renderToString } from '../../../webview/shared/vnode.js';
import { aLayeredGraph, aRun, aSnapshot, anIssue } from './builders.js';
import { FakeElement, fakeDoc } from './fakeDom.js';

const tasks = aLayeredGraph(60);
const running = tasks.filter((t) => t.status === 'running').map((t) => t.taskId);
const runs = running.map((taskId, i) => aRun(`r${i}`, taskId, { status: 'running', outcome: null, outcomeLabel: null, activity: { kind: 'tool', text: `npm test ${i}`, tool: 'Bash' } }));
const base = aSnapshot(anIssue(tasks), { seq: 1, runs, view: { selectedTaskId: 't5', showHistory: false, nowUnixMs: 10_000, agentWaiting: null } });

/** The snapshot the Host builds next: new objects throughout, as `buildPanelSnapshot` makes them. */
function hostNext(change: (t: PanelSnapshot) => PanelSnapshot): PanelSnapshot {
	return change(JSON.parse(JSON.stringify(base)) as PanelSnapshot);
}

function setStatus(s: PanelSnapshot, taskId: string, status: PanelSnapshot['issue']['tasks'][number]['status']): PanelSnapshot {
	return { ...s, seq: s.seq + 1, issue: { ...s.issue, tasks: s.issue.tasks.map((t) => (t.taskId === taskId ? { ...t, status } : t)) } };
}

/** What the webview holds after the delta: `base`'s own objects where nothing changed. */
function applied(next: PanelSnapshot): PanelSnapshot {
	const delta = snapshotDelta(base, next);
	assert.ok(delta);
	const parsed = parseToWebview(JSON.parse(JSON.stringify(delta)));
	assert.ok(parsed.ok);
	const out = applySnapshotDelta(base, parsed.value as PanelSnapshotDelta);
	assert.ok(out);
	return out;
}

function ui(s: PanelSnapshot, graphView: Partial<GraphViewOptions> = {}): PanelUi {
	return { selectedTaskId: s.view.selectedTaskId, showHistory: s.view.showHistory, graphView: { ...defaultGraphView, ...graphView } };
}

/** The incremental render (caches warm from `base`, then the delta) equals a fresh render of the Host's snapshot. */
function assertSameAsFresh(next: PanelSnapshot, graphView: Partial<GraphViewOptions> = {}, baseView: Partial<GraphViewOptions> = graphView): void {
	const cache = new LayoutCache();
	renderPanel(base, ui(base, baseView), 1, cache);
	const patched = applied(next);
	const incremental = renderPanel(patched, ui(patched, graphView), 1, cache);
	const fresh = renderPanel(next, ui(next, graphView), 1, new LayoutCache());
	assert.deepEqual(incremental.model, fresh.model);
	assert.equal(renderToString(panelTree(incremental)), renderToString(panelTree(fresh)));
}

describe('incremental panel render (a delta drawn on the snapshot before)', () => {
	it('a status change draws the same model and regions as a fresh render', () => {
		assertSameAsFresh(hostNext((s) => setStatus(s, 't9', 'failed')));
		assertSameAsFresh(hostNext((s) => setStatus(s, running[0]!, 'pending_acceptance')));
	});

	it('a new selection, a new activity line and a search change re-derive the nodes they touch', () => {
		assertSameAsFresh(hostNext((s) => ({ ...s, seq: 2, view: { ...s.view, selectedTaskId: 't7' } })));
		assertSameAsFresh(hostNext((s) => ({ ...s, seq: 2, runs: s.runs.map((r, i) => (i === 0 ? { ...r, activity: { kind: 'edit' as const, text: 'src/a.ts', tool: 'Edit' } } : r)) })));
		assertSameAsFresh(hostNext((s) => ({ ...s, seq: 2 })), { search: 'number 1' }, {});
		assertSameAsFresh(hostNext((s) => ({ ...s, seq: 2 })), { statusFilter: ['failed'] }, { statusFilter: ['running'] });
	});

	it('the list view sorts the same rows after a delta', () => {
		assertSameAsFresh(hostNext((s) => setStatus(s, 't3', 'completed')), { mode: 'list' });
	});
});

/** Graph nodes hold no UI-kit components. */
const noKit = (): never => { throw new Error('no UI component expected'); };
const toDom = (v: VNode): FakeElement => buildDom(v, fakeDoc, noKit) as unknown as FakeElement;
const patchDom = (el: FakeElement, from: VNode, to: VNode): FakeElement => patchWith(el as unknown as DomNode, from, to, fakeDoc, noKit) as unknown as FakeElement;

describe('patching a drawn node', () => {
	const place = { x: 10, y: 20, width: 200, height: 40 };
	const node: GraphNodeModel = {
		taskId: 't1', title: 'Build the parser', label: 'Build the parser', status: 'running', statusLabel: 'Running', superseded: false, rework: false, attemptLabel: '',
		ready: false, selected: false, match: false, ariaLabel: 'Task Build the parser, Running', activity: 'Ran: npm test',
	};

	it('leaves the DOM a fresh node would have, writing only what changed', () => {
		const before = graphNode({ ...node, selected: true }, place, 'full', false, false);
		const after = graphNode({ ...node, status: 'failed', statusLabel: 'Failed', ariaLabel: 'Task Build the parser, Failed', activity: '' }, place, 'full', true, false);
		const el = toDom(before);
		const parent = new FakeElement('g', null);
		parent.appendChild(el);
		const box = el.childNodes[1]!;
		const boxWrites = box.writes;
		const out = patchDom(el, before, after);
		assert.equal(out, el, 'the same element, patched in place');
		assert.equal(out.markup(), toDom(after).markup());
		assert.equal(box.writes, boxWrites, 'the unchanged box was not written again');
		assert.equal(out.childNodes[1], box);
		assert.equal(out.getAttribute('aria-current'), null, 'an attribute the new node lacks is removed');
	});

	it('rebuilds a child whose element changes, and children whose count changes', () => {
		const full = graphNode(node, place, 'full', false, false);
		const blocks = graphNode(node, place, 'blocks', false, true);
		const el = toDom(full);
		const parent = new FakeElement('g', null);
		parent.appendChild(el);
		const out = patchDom(el, full, blocks);
		assert.equal(out.markup(), toDom(blocks).markup());
		const back = patchDom(out, blocks, full);
		assert.equal(back.markup(), toDom(full).markup());
	});
});
