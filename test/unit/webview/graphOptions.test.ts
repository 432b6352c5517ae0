import { strict as assert } from 'node:assert';
import {
	defaultGraphView, detailLevel, type GraphViewOptions, lineage, matchesFilter, scopeTaskIds, sortForList, statusChips, toggleStatus,
} from '../../../webview/issuePanel/graphOptions.js';
import type { TaskAttemptsDto } from '../../../src/protocol/dto.js';
import { panelPersistedState } from '../../../src/protocol/webview.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { findAll, textContent } from '../../../webview/shared/vnode.js';
import { aSnapshot, aTask, anIssue } from './builders.js';

//   a ─► b ─► d ─► f
//   c ──────► d
//   e (alone)      g ─► h
const edges = [
	{ from: 'a', to: 'b' }, { from: 'b', to: 'd' }, { from: 'c', to: 'd' }, { from: 'd', to: 'f' }, { from: 'g', to: 'h' },
];
const sorted = (s: Set<string>): string[] => [...s].sort();

describe('graph options (focus, chips, search, hide completed, level of detail, list order)', () => {
	describe('focus', () => {
		it('keeps the task, all its ancestors and all its descendants', () => {
			assert.deepEqual(sorted(lineage(edges, 'b')), ['a', 'b', 'd', 'f']);
			assert.deepEqual(sorted(lineage(edges, 'd')), ['a', 'b', 'c', 'd', 'f']);
		});

		it('does not take siblings: a parent\'s other children are not ancestors or descendants', () => {
			// c is d's parent, b is d's other parent: focusing b must not bring c in.
			assert.ok(!lineage(edges, 'b').has('c'));
			assert.deepEqual(sorted(lineage(edges, 'e')), ['e']);
		});

		it('survives a cycle in malformed data', () => {
			assert.deepEqual(sorted(lineage([{ from: 'x', to: 'y' }, { from: 'y', to: 'x' }], 'x')), ['x', 'y']);
		});

		it('scopes the graph to the lineage, and ignores a focus on a task that is not there', () => {
			const tasks = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((taskId) => ({ taskId, status: 'not_started' as const }));
			assert.deepEqual(sorted(scopeTaskIds(tasks, edges, { focusTaskId: 'f', hideCompleted: false })), ['a', 'b', 'c', 'd', 'f']);
			assert.equal(scopeTaskIds(tasks, edges, { focusTaskId: 'gone', hideCompleted: false }).size, 8);
		});
	});

	describe('hide completed', () => {
		const tasks = [
			{ taskId: 'a', status: 'completed' as const }, { taskId: 'b', status: 'completed' as const },
			{ taskId: 'd', status: 'running' as const }, { taskId: 'f', status: 'not_started' as const },
		];
		it('drops completed tasks and keeps the rest', () => {
			assert.deepEqual(sorted(scopeTaskIds(tasks, edges, { focusTaskId: null, hideCompleted: true })), ['d', 'f']);
		});
		it('keeps the focused task even when it is completed', () => {
			assert.deepEqual(sorted(scopeTaskIds(tasks, edges, { focusTaskId: 'b', hideCompleted: true })), ['b', 'd', 'f']);
		});
	});

	describe('chips and search', () => {
		const t = { taskId: 'task-42', title: 'Write the Parser tests', status: 'running' as const };
		it('matches the title or the id, case-insensitively, ignoring surrounding blanks', () => {
			assert.ok(matchesFilter(t, { statusFilter: [], search: '  parser ' }));
			assert.ok(matchesFilter(t, { statusFilter: [], search: 'TASK-4' }));
			assert.ok(!matchesFilter(t, { statusFilter: [], search: 'lexer' }));
		});
		it('needs both the status chips and the search to hold', () => {
			assert.ok(matchesFilter(t, { statusFilter: ['failed', 'running'], search: 'parser' }));
			assert.ok(!matchesFilter(t, { statusFilter: ['failed'], search: 'parser' }));
			assert.ok(!matchesFilter(t, { statusFilter: ['running'], search: 'lexer' }));
		});
		it('counts each status once per task, what needs you first, and keeps an active chip with no tasks', () => {
			const chips = statusChips([
				{ taskId: '1', status: 'completed' }, { taskId: '2', status: 'pending_acceptance' }, { taskId: '3', status: 'completed' },
			], ['failed']);
			assert.deepEqual(chips.map((c) => [c.status, c.count, c.active]), [
				['pending_acceptance', 1, false], ['failed', 0, true], ['completed', 2, false],
			]);
		});
		it('toggles a chip on and off', () => {
			assert.deepEqual(toggleStatus(['completed'], 'failed'), ['failed', 'completed']);
			assert.deepEqual(toggleStatus(['failed', 'completed'], 'failed'), ['completed']);
		});
	});

	describe('level of detail', () => {
		it('draws text at readable zooms and coloured blocks below', () => {
			assert.equal(detailLevel(1), 'full');
			assert.equal(detailLevel(0.5), 'full');
			assert.equal(detailLevel(0.33), 'blocks');
			assert.equal(detailLevel(0.1), 'blocks');
		});
	});

	describe('list order', () => {
		const rows = [
			{ taskId: 'p', title: 'task 10', status: 'completed' as const, order: 0 },
			{ taskId: 'q', title: 'Task 9', status: 'pending_acceptance' as const, order: 1 },
			{ taskId: 'r', title: 'task 2', status: 'running' as const, order: 2 },
			{ taskId: 's', title: 'task 1', status: 'pending_acceptance' as const, order: 3 },
			{ taskId: 'u', title: 'task 3', status: 'failed' as const, order: 4 },
		];
		it('sorts by status, what needs you first, ties in plan order', () => {
			assert.deepEqual(sortForList(rows, 'status').map((r) => r.taskId), ['q', 's', 'u', 'r', 'p']);
		});
		it('sorts by title, numbers as numbers, ignoring case', () => {
			assert.deepEqual(sortForList(rows, 'title').map((r) => r.title), ['task 1', 'task 2', 'task 3', 'Task 9', 'task 10']);
		});
		it('keeps plan order', () => {
			assert.deepEqual(sortForList(rows, 'plan').map((r) => r.taskId), ['p', 'q', 'r', 's', 'u']);
		});
	});

	describe('in the panel model', () => {
		const tasks = [
			aTask('a', { title: 'Design schema', status: 'completed', sortIndex: 0 }),
			aTask('b', { title: 'Build parser', status: 'completed', dependencyTaskIds: ['a'], sortIndex: 1 }),
			aTask('c', { title: 'Write docs', status: 'pending_acceptance', sortIndex: 2 }),
			aTask('d', { title: 'Wire parser in', status: 'running', dependencyTaskIds: ['b', 'c'], sortIndex: 3 }),
			aTask('e', { title: 'Unrelated cleanup', status: 'failed', sortIndex: 4 }),
		];
		const snapshot = aSnapshot(anIssue(tasks));
		const model = (o: Partial<GraphViewOptions>, selectedTaskId: string | null = null) =>
			derivePanelModel(snapshot, { selectedTaskId, showHistory: false, graphView: { ...defaultGraphView, ...o } }).graph;

		it('focus draws only the lineage and names it in the summary', () => {
			const g = model({ focusTaskId: 'b' });
			assert.deepEqual(g.nodes.map((n) => n.taskId), ['a', 'b', 'd']);
			assert.deepEqual(g.edges.map((e) => `${e.from}>${e.to}`), ['a>b', 'b>d']);
			assert.deepEqual(g.focus, { taskId: 'b', title: 'Build parser' });
			assert.match(g.summary, /focused on Build parser/);
		});

		it('hide completed draws the rest and counts what it hid', () => {
			const g = model({ hideCompleted: true });
			assert.deepEqual(g.nodes.map((n) => n.taskId), ['c', 'd', 'e']);
			assert.equal(g.hiddenCompletedCount, 2);
			assert.match(g.summary, /2 completed hidden/);
		});

		it('chips and search highlight in the graph (every node stays) and filter the list', () => {
			const g = model({ statusFilter: ['running', 'failed'], search: 'parser' });
			assert.equal(g.nodes.length, 5);
			assert.deepEqual(g.nodes.filter((n) => n.match).map((n) => n.taskId), ['d']);
			assert.equal(g.matchCount, 1);
			assert.deepEqual(g.list.map((r) => r.taskId), ['d']);
			assert.deepEqual(g.chips.map((c) => [c.status, c.count, c.active]), [
				['pending_acceptance', 1, false], ['failed', 1, true], ['running', 1, true], ['completed', 2, false],
			]);
		});

		it('marks no node as a match when nothing highlights', () => {
			const g = model({});
			assert.equal(g.highlighting, false);
			assert.ok(g.nodes.every((n) => !n.match));
			assert.equal(g.matchCount, 5);
		});

		it('lists by status by default, and follows a status change on the next snapshot', () => {
			assert.deepEqual(model({}).list.map((r) => r.taskId), ['c', 'e', 'd', 'a', 'b']);
			const later = aSnapshot(anIssue(tasks.map((t) => (t.taskId === 'a' ? { ...t, status: 'failed' as const } : t))));
			const rows = derivePanelModel(later, { selectedTaskId: 'a', showHistory: false }).graph.list;
			assert.deepEqual(rows.map((r) => r.taskId), ['c', 'a', 'e', 'd', 'b']);
			assert.equal(rows.find((r) => r.taskId === 'a')?.selected, true);
		});
	});

	describe('a task waiting for the new attempt asked of it counts by the Host\'s rework state', () => {
		const waiting = (stateLabel: string): TaskAttemptsDto => ({ number: 2, of: 2, label: 'Attempt 2 of 2', earlier: [], stateLabel, line: '' });
		// The Host's attempts per task (a manual task waits not started, a managed one is failed by the change request).
		const stateLabels: Record<string, string> = { m: 'Changes requested', g: 'Changes requested', r: 'Retry asked' };
		const plain = aSnapshot(anIssue([
			aTask('m', { title: 'Manual notes', status: 'not_started', sortIndex: 0 }),
			aTask('g', { title: 'Managed notes', status: 'failed', sortIndex: 1 }),
			aTask('x', { title: 'Broken build', status: 'failed', sortIndex: 2 }),
			aTask('n', { title: 'Not begun', status: 'not_started', sortIndex: 3 }),
			aTask('r', { title: 'Retried', status: 'not_started', sortIndex: 4 }),
			aTask('c', { title: 'Done', status: 'completed', sortIndex: 5 }),
		]));
		const snapshot = { ...plain, issue: { ...plain.issue, tasks: plain.issue.tasks.map((t) => (stateLabels[t.taskId] ? { ...t, attempts: waiting(stateLabels[t.taskId]!) } : t)) } };
		const model = (o: Partial<GraphViewOptions>) =>
			derivePanelModel(snapshot, { selectedTaskId: null, showHistory: false, graphView: { ...defaultGraphView, ...o } }).graph;

		it('a manual (not started) and a managed (failed) changes-requested task make one "Changes requested" chip in the rework colour', () => {
			assert.deepEqual(model({}).chips.map((c) => [c.status, c.label, c.colour, c.count]), [
				['failed', 'Failed', 'failed', 1],
				['rework:Changes requested', 'Changes requested', 'rework', 2],
				['rework:Retry asked', 'Retry asked', 'rework', 1],
				['not_started', 'Not started', 'not_started', 1],
				['completed', 'Completed', 'completed', 1],
			]);
			const tree = panelTree(renderPanel(snapshot, { selectedTaskId: null, showHistory: false }, 1, new LayoutCache()));
			const chips = findAll(tree, (n) => n.attrs['data-action'] === 'filter/status');
			const reworkChip = chips.find((c) => c.attrs['data-status'] === 'rework:Changes requested');
			assert.ok(reworkChip && String(reworkChip.attrs['class']).split(' ').includes('status-rework'));
			assert.equal(textContent(reworkChip), 'Changes requested 2');
			assert.deepEqual(chips.map((c) => textContent(c)), ['Failed 1', 'Changes requested 2', 'Retry asked 1', 'Not started 1', 'Completed 1']);
		});

		it('the "Changes requested" chip keeps exactly those tasks in the list, and toggles in chip order', () => {
			const g = model({ mode: 'list', statusFilter: ['rework:Changes requested'] });
			assert.deepEqual(g.list.map((r) => r.taskId), ['m', 'g']);
			assert.deepEqual(g.nodes.filter((n) => n.match).map((n) => n.taskId), ['m', 'g']);
			assert.deepEqual(model({ mode: 'list', statusFilter: ['failed'] }).list.map((r) => r.taskId), ['x']);
			assert.deepEqual(model({ mode: 'list', statusFilter: ['not_started'] }).list.map((r) => r.taskId), ['n']);
			assert.deepEqual(toggleStatus(['completed', 'failed'], 'rework:Changes requested'), ['failed', 'rework:Changes requested', 'completed']);
		});

		it('the list sorts a changes-requested task after failed and before not started, with the Host\'s word and colour in its status column', () => {
			const rows = model({ mode: 'list' }).list;
			assert.deepEqual(rows.map((r) => r.taskId), ['x', 'm', 'g', 'r', 'n', 'c']);
			assert.deepEqual(rows.slice(1, 3).map((r) => [r.statusLabel, r.displayState]), [
				['Changes requested', 'rework:Changes requested'], ['Changes requested', 'rework:Changes requested'],
			]);
			const tree = panelTree(renderPanel(snapshot, { selectedTaskId: null, showHistory: false, graphView: { ...defaultGraphView, mode: 'list' } }, 1, new LayoutCache()));
			const row = findAll(tree, (n) => n.attrs['data-task-id'] === 'g' && n.kind === 'element' && n.tag === 'tr')[0];
			assert.ok(row && String(row.attrs['class']).split(' ').includes('status-rework'));
			assert.equal(findAll(row, (n) => String(n.attrs['class'] ?? '').includes('status-chip status-rework')).length, 1);
		});

		it('a persisted rework chip filter survives a reload, and junk is refused', () => {
			const state = (statusFilter: unknown) => panelPersistedState.safeParse({
				issueId: 'i', selectedTaskId: null, showHistory: false, scroll: { left: 0, top: 0 }, zoom: 1,
				graphView: { ...defaultGraphView, statusFilter },
			});
			assert.ok(state(['failed', 'rework:Changes requested']).success);
			assert.ok(!state(['reworked']).success);
			assert.ok(!state([`rework:${'x'.repeat(200)}`]).success);
		});
	});
});
