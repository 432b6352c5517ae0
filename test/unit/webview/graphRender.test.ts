import { strict as assert } from 'node:assert';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import { defaultGraphView, type GraphViewOptions } from '../../../webview/issuePanel/graphOptions.js';
import { graphNodeVNodes } from '../../../webview/issuePanel/renderGraph.js';
import { LayoutCache, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { type ElementNode, findAll, h, textContent, type VNode } from '../../../webview/shared/vnode.js';
import { aSnapshot, aTask, anIssue } from './builders.js';

const tasks = [
	aTask('a', { title: 'Design schema', status: 'completed', sortIndex: 0 }),
	aTask('b', { title: 'Build parser', status: 'running', dependencyTaskIds: ['a'], sortIndex: 1 }),
	aTask('c', { title: 'Write docs', status: 'pending_acceptance', sortIndex: 2 }),
	aTask('d', { title: 'Wire parser in', status: 'not_started', dependencyTaskIds: ['b', 'c'], sortIndex: 3 }),
];
const snapshot = aSnapshot(anIssue(tasks));

function panel(o: Partial<GraphViewOptions> = {}, zoom = 1, cache = new LayoutCache(), s: PanelSnapshot = snapshot, selectedTaskId: string | null = null) {
	return renderPanel(s, { selectedTaskId, showHistory: false, graphView: { ...defaultGraphView, ...o } }, zoom, cache);
}
const byId = (tree: VNode, id: string): ElementNode | undefined =>
	findAll(tree, (n) => n.attrs['id'] === id)[0] as ElementNode | undefined;
const classOf = (n: VNode): string => (n.kind === 'text' ? '' : String(n.attrs['class'] ?? ''));

describe('graph rendering at scale (level of detail, highlighting, list, toolbar)', () => {
	it('draws titles and status lines at a readable zoom', () => {
		const graph = panel({}, 1).regions.graph;
		assert.equal(graph.attrs['data-detail'], 'full');
		const [, b] = graphNodeVNodes(graph)[1]!;
		assert.equal(findAll(b, (n) => n.kind === 'element' && n.tag === 'text').length, 2);
	});

	it('draws status-coloured blocks with the title on hover below it, in the same places', () => {
		const full = panel({}, 1).regions.graph;
		const blocks = panel({}, 0.25).regions.graph;
		assert.equal(blocks.attrs['data-detail'], 'blocks');
		const nodes = graphNodeVNodes(blocks);
		for (const [id, n] of nodes) {
			assert.match(classOf(n), /\bblock\b/);
			assert.equal(findAll(n, (c) => c.kind === 'element' && c.tag === 'text').length, 0, `${id} has no text`);
			const title = findAll(n, (c) => c.kind === 'element' && c.tag === 'title')[0]!;
			assert.equal(textContent(title), `${tasks.find((t) => t.taskId === id)!.title} (${{ a: 'Completed', b: 'Running', c: 'Awaiting acceptance', d: 'Not started' }[id]})`);
			assert.ok(n.kind === 'element' && String(n.attrs['aria-label']).startsWith('Task '), 'still named for screen readers');
		}
		assert.deepEqual(nodes.map(([, n]) => n.kind === 'element' && n.attrs['transform']), graphNodeVNodes(full).map(([, n]) => n.kind === 'element' && n.attrs['transform']));
		assert.match(classOf(nodes[1]![1]), /status-running/);
	});

	it('rings the matches and fades the rest while a chip or the search is on, and leaves nodes plain otherwise', () => {
		const classes = (o: Partial<GraphViewOptions>): string[] => graphNodeVNodes(panel(o).regions.graph).map(([, n]) => classOf(n));
		const searched = classes({ search: 'parser' });
		assert.deepEqual(searched.map((c) => (/\bmatch\b/.test(c) ? 'match' : /\bdim\b/.test(c) ? 'dim' : '')), ['dim', 'match', 'dim', 'match']);
		const chip = classes({ statusFilter: ['pending_acceptance'] });
		assert.deepEqual(chip.map((c) => (/\bmatch\b/.test(c) ? 'match' : /\bdim\b/.test(c) ? 'dim' : '')), ['dim', 'dim', 'match', 'dim']);
		assert.ok(classes({}).every((c) => !/\b(match|dim)\b/.test(c)));
	});

	it('keeps the layout for status changes, chips and search, and lays out anew for focus', () => {
		const cache = new LayoutCache();
		const first = panel({}, 1, cache).layout;
		const moved = aSnapshot(anIssue(tasks.map((t) => (t.taskId === 'd' ? { ...t, status: 'running' as const } : t))));
		assert.equal(panel({}, 1, cache, moved).layout, first, 'a status change reuses the layout object');
		assert.equal(panel({ search: 'x', statusFilter: ['failed'] }, 1, cache).layout, first);
		const focused = panel({ focusTaskId: 'a' }, 1, cache).layout;
		assert.notEqual(focused, first);
		assert.deepEqual(focused.nodes.map((n) => n.id), ['a', 'b', 'd']);
	});

	it('shows the list instead of the graph, sorted by status, filtered by chips and search', () => {
		const list = panel({ mode: 'list' }).regions.graph;
		assert.equal(findAll(list, (n) => n.attrs['id'] === 'task-list').length, 1);
		const rows = findAll(list, (n) => n.kind === 'element' && n.tag === 'tr' && n.attrs['data-task-id'] !== undefined);
		assert.deepEqual(rows.map((r) => r.attrs['data-task-id']), ['c', 'b', 'd', 'a']);
		const byTitle = findAll(panel({ mode: 'list', listSort: 'title' }).regions.graph, (n) => n.attrs['data-task-id'] !== undefined && n.kind === 'element' && n.tag === 'tr');
		assert.deepEqual(byTitle.map((r) => r.attrs['data-task-id']), ['b', 'a', 'd', 'c']);
		const sorted = findAll(list, (n) => n.kind === 'element' && n.tag === 'th' && n.attrs['aria-sort'] === 'ascending');
		assert.equal(textContent(sorted[0]!), 'Status');
		const filtered = findAll(panel({ mode: 'list', search: 'parser' }).regions.graph, (n) => n.kind === 'element' && n.tag === 'tr' && n.attrs['data-task-id'] !== undefined);
		assert.deepEqual(filtered.map((r) => r.attrs['data-task-id']), ['b', 'd']);
		assert.match(textContent(panel({ mode: 'list', search: 'zzz' }).regions.graph), /No task matches/);
	});

	it('names every toolbar control, shows toggle states, and draws codicons as decoration only', () => {
		const regions = panel({ hideCompleted: true, mode: 'graph' }, 1, new LayoutCache(), snapshot, 'b').regions;
		const toolbar = h('div', {}, regions.toolbar, regions.graphStatus);
		const buttons = findAll(toolbar, (n) => (n.kind === 'ui' && n.component === 'button') || (n.kind === 'element' && n.tag === 'button'));
		assert.ok(buttons.length >= 12);
		for (const b of buttons) { assert.ok(String(b.attrs['aria-label'] ?? '').length > 0, `${String(b.attrs['data-action'])} is named`); }
		const icons = findAll(toolbar, (n) => /\bcodicon\b/.test(String(n.attrs['class'] ?? '')));
		assert.ok(icons.length >= 8);
		for (const i of icons) { assert.equal(i.attrs['aria-hidden'], 'true'); }
		const pressed = (action: string): unknown => buttons.find((b) => b.attrs['data-action'] === action)?.attrs['aria-pressed'];
		assert.equal(pressed('completed/toggle'), 'true');
		assert.equal(pressed('history/toggle'), 'false');
		const focus = buttons.find((b) => b.attrs['data-action'] === 'focus/set')!;
		assert.equal(focus.attrs['data-task-id'], 'b');
		assert.equal(focus.attrs['disabled'], false);
		const chips = buttons.filter((b) => b.attrs['data-action'] === 'filter/status');
		assert.deepEqual(chips.map((c) => c.attrs['aria-label']), ['Awaiting acceptance, 1 task', 'Running, 1 task', 'Not started, 1 task']);
		assert.equal(byId(toolbar, 'graph-search')?.attrs['aria-label'], 'Search tasks by title or id (Enter: next match)');
	});

	it('offers no focus without a selection, and a way back once focused', () => {
		const none = findAll(panel().regions.toolbar, (n) => n.attrs['data-action'] === 'focus/set')[0]!;
		assert.equal(none.attrs['disabled'], true);
		const focused = panel({ focusTaskId: 'b' }).regions;
		assert.equal(findAll(focused.toolbar, (n) => n.attrs['data-action'] === 'focus/clear').length, 1);
		assert.match(textContent(focused.graphStatus), /Focused on Build parser/);
	});
});
