// The List side of the Graph | List switch (pure VNodes): the tasks in scope that pass the chips and the search, as a
// table sortable by status, title or plan order, with each task's agent, its latest Run's duration and its Runs' cost.
// Rows the Host offers Accept on can be checked, and Accept selected accepts them all. Redrawn from every snapshot, so
// it follows status changes live.
import { button } from '../shared/components.js';
import { h, type ElementNode } from '../shared/vnode.js';
import { displayStateClass, type ListSort } from './graphOptions.js';
import type { GraphModel } from './graphModel.js';

const columns: readonly { readonly sort: ListSort; readonly label: string }[] = [
	{ sort: 'plan', label: '#' },
	{ sort: 'title', label: 'Title' },
	{ sort: 'status', label: 'Status' },
];

/** Accept selected, and how many are checked; the header checkbox checks every row the Host offers Accept on. */
function acceptBar(model: GraphModel): ElementNode | null {
	const acceptable = model.list.filter((r) => r.acceptable);
	if (acceptable.length === 0) { return null; }
	const checked = model.list.filter((r) => r.checked).length;
	return h('div', { id: 'list-actions', class: 'list-actions', role: 'group', 'aria-label': 'Accept several tasks' },
		button({
			label: checked > 0 ? `Accept selected (${checked})` : 'Accept selected', action: 'list/acceptChecked', appearance: 'primary',
			disabled: checked === 0, id: 'accept-selected', ariaLabel: `Accept the ${checked} checked ${checked === 1 ? 'task' : 'tasks'}`,
		}),
		h('span', { class: 'muted', id: 'list-checked-summary', 'aria-live': 'polite' },
			`${checked} of ${acceptable.length} ${acceptable.length === 1 ? 'task' : 'tasks'} awaiting your acceptance checked`));
}

export function renderTaskList(model: GraphModel): ElementNode {
	const sort = model.options.listSort;
	if (model.list.length === 0) {
		return h('p', { id: 'task-list-empty', class: 'empty' }, model.nodes.length === 0
			? 'No tasks to list.'
			: 'No task matches the status chips and the search.');
	}
	const order = new Map(model.nodes.map((n, i) => [n.taskId, i + 1]));
	const acceptable = model.list.filter((r) => r.acceptable);
	const allChecked = acceptable.length > 0 && acceptable.every((r) => r.checked);
	const head = h('tr', {},
		h('th', { scope: 'col', class: 'check' }, acceptable.length > 0 ? h('input', {
			type: 'checkbox', id: 'list-check-all', 'data-field': 'list/checkAll', checked: allChecked, 'data-focus-key': 'list-check-all',
			'aria-label': allChecked ? 'Uncheck every task awaiting your acceptance' : 'Check every task awaiting your acceptance',
		}) : null),
		...columns.map((c) => h('th', { scope: 'col', 'aria-sort': c.sort === sort ? 'ascending' : null },
			h('button', {
				type: 'button', class: 'sort', 'data-action': 'list/sort', 'data-sort': c.sort, 'data-focus-key': `sort:${c.sort}`,
				'aria-label': c.sort === 'plan' ? 'Sort by plan order' : `Sort by ${c.label.toLowerCase()}`,
			}, c.label, c.sort === sort ? h('span', { class: 'codicon codicon-arrow-small-down', 'aria-hidden': 'true' }) : null))),
		h('th', { scope: 'col' }, 'Agent'),
		h('th', { scope: 'col', class: 'num' }, 'Duration'),
		h('th', { scope: 'col', class: 'num' }, 'Cost'),
		h('th', { scope: 'col' }, 'Id'));
	const rows = model.list.map((r) => h('tr', {
		class: `task-row status-${displayStateClass(r.displayState)}${r.selected ? ' selected' : ''}${r.checked ? ' checked' : ''}`, 'data-task-id': r.taskId, 'aria-selected': String(r.selected),
	},
	h('td', { class: 'check' }, r.acceptable ? h('input', {
		type: 'checkbox', 'data-field': 'list/check', 'data-task-id': r.taskId, checked: r.checked, 'data-focus-key': `check:${r.taskId}`,
		'aria-label': `Check task ${r.title} for Accept selected`,
	}) : null),
	h('td', { class: 'num' }, String(order.get(r.taskId) ?? '')),
	h('td', { class: 'title-cell' }, h('button', {
		type: 'button', class: 'link row-title', 'data-action': 'task/select', 'data-task-id': r.taskId,
		'data-focus-key': `row:${r.taskId}`, 'aria-current': r.selected ? 'true' : null,
	}, r.title)),
	h('td', {}, h('span', { class: `status-chip status-${displayStateClass(r.displayState)}` }, r.statusLabel), r.ready ? h('span', { class: 'muted' }, ' · ready') : null),
	h('td', {}, r.agent !== '' ? r.agent : h('span', { class: 'muted' }, 'none')),
	h('td', { class: 'num' }, r.durationLabel),
	h('td', { class: 'num' }, r.costLabel),
	h('td', {}, h('code', {}, r.taskId))));
	return h('div', { id: 'task-list-region' },
		acceptBar(model),
		h('table', { id: 'task-list', class: 'task-list', 'aria-label': 'Tasks', 'aria-describedby': 'graph-summary', 'data-row-count': model.list.length },
			h('thead', {}, head), h('tbody', {}, ...rows)));
}
