// The List side of the Graph | List switch (pure VNodes): the tasks in scope that pass the chips and the search, as a
// table sortable by status, title or plan order. Redrawn from every snapshot, so it follows status changes live.
import { h, type ElementNode } from '../shared/vnode.js';
import type { ListSort } from './graphOptions.js';
import type { GraphModel } from './graphModel.js';

const columns: readonly { readonly sort: ListSort; readonly label: string }[] = [
	{ sort: 'plan', label: '#' },
	{ sort: 'title', label: 'Title' },
	{ sort: 'status', label: 'Status' },
];

export function renderTaskList(model: GraphModel): ElementNode {
	const sort = model.options.listSort;
	if (model.list.length === 0) {
		return h('p', { id: 'task-list-empty', class: 'empty' }, model.nodes.length === 0
			? 'No tasks to list.'
			: 'No task matches the status chips and the search.');
	}
	const order = new Map(model.nodes.map((n, i) => [n.taskId, i + 1]));
	const head = h('tr', {}, ...columns.map((c) => h('th', { scope: 'col', 'aria-sort': c.sort === sort ? 'ascending' : null },
		h('button', {
			type: 'button', class: 'sort', 'data-action': 'list/sort', 'data-sort': c.sort, 'data-focus-key': `sort:${c.sort}`,
			'aria-label': c.sort === 'plan' ? 'Sort by plan order' : `Sort by ${c.label.toLowerCase()}`,
		}, c.label, c.sort === sort ? h('span', { class: 'codicon codicon-arrow-small-down', 'aria-hidden': 'true' }) : null))),
	h('th', { scope: 'col' }, 'Id'));
	const rows = model.list.map((r) => h('tr', {
		class: `task-row status-${r.status}${r.selected ? ' selected' : ''}`, 'data-task-id': r.taskId, 'aria-selected': String(r.selected),
	},
	h('td', { class: 'num' }, String(order.get(r.taskId) ?? '')),
	h('td', {}, h('button', {
		type: 'button', class: 'link row-title', 'data-action': 'task/select', 'data-task-id': r.taskId,
		'data-focus-key': `row:${r.taskId}`, 'aria-current': r.selected ? 'true' : null,
	}, r.title)),
	h('td', {}, h('span', { class: `status-chip status-${r.status}` }, r.statusLabel), r.ready ? h('span', { class: 'muted' }, ' · ready') : null),
	h('td', {}, h('code', {}, r.taskId))));
	return h('table', { id: 'task-list', class: 'task-list', 'aria-label': 'Tasks', 'aria-describedby': 'graph-summary', 'data-row-count': model.list.length },
		h('thead', {}, head), h('tbody', {}, ...rows));
}
