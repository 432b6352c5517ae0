// The task form (pure VNodes), in the detail pane: title, content, the tasks it waits for, the agent that runs it, then
// Add task / Save, Cancel and (editing a task the Host lets go) Delete. Ctrl+Enter in any field sends it.
import { button, textArea } from '../shared/components.js';
import { type ElementNode, h } from '../shared/vnode.js';
import type { TaskFormModel } from './taskFormModel.js';
import { taskFormLimits } from '../../src/protocol/webview.js';

export const taskFormSubmitId = 'task-form-submit';

/** Delete, asked once more in place: the task never ran, and nothing brings it back. */
export function deleteConfirmation(taskId: string, title: string): ElementNode {
	return h('div', { id: 'delete-confirm', class: 'callout', role: 'alertdialog', 'aria-labelledby': 'delete-confirm-text' },
		h('p', { id: 'delete-confirm-text' }, `Delete task ${title}? It has never run; this cannot be undone.`),
		h('div', { class: 'form-actions' },
			button({ label: 'Delete task', action: 'task/delete', ariaLabel: `Delete task ${title} now`, data: { 'task-id': taskId }, id: 'delete-confirm-yes' }),
			button({ label: 'Keep it', action: 'task/deleteCancel', appearance: 'primary', data: { 'task-id': taskId }, id: 'delete-confirm-no' })));
}

export function renderTaskForm(m: TaskFormModel, confirmingDelete: boolean): ElementNode {
	const errorKey = 'task-form';
	return h('section', { id: 'task-form', 'aria-labelledby': 'task-form-heading', 'data-mode': m.mode, 'data-task-id': m.taskId },
		h('h2', { id: 'task-form-heading' }, m.heading),
		h('label', { for: 'task-form-title', class: 'field-label' }, 'Title'),
		h('input', {
			id: 'task-form-title', type: 'text', class: 'text-input', maxlength: taskFormLimits.titleChars, required: true, 'aria-required': 'true',
			placeholder: 'Write the session timeout test', 'data-draft-key': m.titleKey, 'data-focus-key': `draft:${m.titleKey}`,
			'data-initial': m.titleInitial, 'data-submit': taskFormSubmitId, 'aria-keyshortcuts': 'Control+Enter', spellcheck: 'true',
		}),
		textArea({
			id: 'task-form-content', label: 'What the agent should do (Markdown)', maxLength: taskFormLimits.contentChars, draftKey: m.contentKey,
			rows: 8, initialValue: m.contentInitial, submitButtonId: taskFormSubmitId, placeholder: 'Cover expiry after 5 minutes and renewal on activity',
		}),
		h('fieldset', { id: 'task-form-dependencies', class: 'checklist' },
			h('legend', {}, `Waits for (${m.candidates.filter((c) => c.checked).length} of ${m.candidates.length})`),
			m.candidates.length === 0
				? h('p', { class: 'muted' }, 'No other task: it can start as soon as the issue runs.')
				: h('ul', {}, ...m.candidates.map((c) => h('li', {},
					h('input', {
						type: 'checkbox', id: `dep-${c.taskId}`, 'data-field': 'dependency', 'data-task-id': c.taskId, checked: c.checked,
						'data-focus-key': `dep:${c.taskId}`, 'data-submit': taskFormSubmitId,
					}),
					h('label', { for: `dep-${c.taskId}` }, c.title, h('span', { class: 'muted' }, ` · ${c.statusLabel}`)))))),
		h('label', { for: 'task-form-agent', class: 'field-label' }, 'Agent'),
		m.noAgents
			? h('p', { id: 'task-form-no-agent', class: 'notice' }, 'No agent is set up to run tasks. ',
				button({ label: 'Add Agent', action: 'agent/add', ariaLabel: 'Add an agent to run tasks' }))
			: h('select', { id: 'task-form-agent', class: 'select', 'data-field': 'agent', 'data-focus-key': 'form:agent', 'data-submit': taskFormSubmitId },
				...m.agents.map((a) => h('option', { value: a.id, selected: a.selected }, a.label))),
		h('div', { class: 'form-actions' },
			button({ label: m.submitLabel, action: 'taskForm/submit', appearance: 'primary', id: taskFormSubmitId, title: `${m.submitLabel} (Ctrl+Enter)` }),
			button({ label: 'Cancel', action: 'taskForm/cancel' }),
			m.canDelete && m.taskId !== null && !confirmingDelete
				? button({ label: 'Delete…', action: 'task/deleteAsk', ariaLabel: 'Delete this task', data: { 'task-id': m.taskId } }) : null),
		confirmingDelete && m.taskId !== null ? deleteConfirmation(m.taskId, m.titleInitial) : null,
		h('p', { class: 'form-error', role: 'alert', 'data-error-for': errorKey }));
}
