// The selected task's detail pane (pure VNodes): content, launch settings, blocker, acceptance controls, runs
// with outcome labels, durations, usage and Stop notes with their answers, and the replacement link.
import { button, linkButton, textArea } from '../shared/components.js';
import { type ElementNode, h } from '../shared/vnode.js';
import { noteMaxLength } from './renderHeader.js';
import type { DetailModel, RelatedTask, ReviewChangesModel, RunModel } from './viewModel.js';

function relatedList(items: readonly RelatedTask[], why: string): ElementNode {
	return h('ul', { class: 'related' }, ...items.map((t) => h('li', {},
		linkButton(t.title, 'task/select', { 'task-id': t.taskId }, `${why} ${t.title} (${t.statusLabel})`),
		h('span', { class: 'muted' }, ` · ${t.statusLabel}`))));
}

function run(r: RunModel): ElementNode {
	return h('li', { class: `run status-${r.status}${r.stopping ? ' stopping' : ''}`, 'data-run-id': r.runId },
		h('div', { class: 'run-head' },
			h('span', { class: 'run-outcome' }, r.outcomeLabel),
			h('span', { class: 'muted' }, ` · ${r.runId} · ${r.agentTargetId || 'no agent target'} · ${r.durationLabel}`)),
		r.summary ? h('p', { class: 'run-summary' }, r.summary) : null,
		r.errorMessage ? h('p', { class: 'run-error' }, r.errorMessage) : null,
		h('p', { class: 'muted run-usage' }, r.usageLabel),
		r.stopNotes.length ? h('ul', { class: 'stop-notes', 'aria-label': 'Stop notes' }, ...r.stopNotes.map((n) => h('li', { 'data-stop-event-id': n.eventId }, n.text))) : null,
		h('div', { class: 'run-actions' },
			r.nonterminal ? button({ label: r.stopping ? 'Stop again' : 'Stop run', action: 'run/stop', ariaLabel: `Stop run ${r.runId}`, data: { 'run-id': r.runId } }) : null,
			button({ label: 'Open output', action: 'run/openOutput', ariaLabel: `Open the output of run ${r.runId}`, data: { 'run-id': r.runId } })));
}

/** The files the latest Run changed, above Accept / Request changes, with the button that opens their diff. */
function reviewChanges(c: ReviewChangesModel, title: string, data: Readonly<Record<string, string>>): ElementNode {
	return h('div', { id: 'review-changes' },
		c.kind === 'files'
			? h('ul', { class: 'changed-files', 'aria-label': `Files changed by task ${title}` }, ...c.files.map((f) => h('li', {},
				h('code', { class: 'changed-path' }, f.path),
				h('span', { class: 'changed-counts', 'aria-hidden': 'true' }, f.countsLabel),
				h('span', { class: 'visually-hidden' }, `, ${f.countsSpoken}`))))
			: h('p', { class: `muted review-${c.kind}` }, c.message),
		c.kind === 'noChanges' || c.kind === 'notRecorded' ? null
			: button({ label: 'Open Diff', action: 'task/openChanges', ariaLabel: `Open the diff of task ${title}`, data }));
}

export function renderDetail(d: DetailModel | null): ElementNode {
	if (!d) {
		return h('div', { id: 'task-detail', class: 'empty' }, h('p', {}, 'Select a task in the graph (click, or Enter / Space) to see its content, runs and controls.'));
	}
	const data = { 'task-id': d.taskId };
	return h('div', { id: 'task-detail', 'data-task-id': d.taskId },
		h('h2', { id: 'detail-title' }, d.title),
		h('p', { class: 'detail-meta' },
			h('span', { class: `status-chip status-${d.status}` }, d.statusLabel),
			h('span', { class: 'muted' }, ` · ${d.acceptanceLabel}${d.ready ? ' · ready' : ''} · `),
			h('code', {}, d.taskId)),
		d.replacedBy ? h('p', { id: 'replaced-by', class: 'notice' }, 'Superseded. Replaced by ',
			linkButton(d.replacedBy.title, 'task/select', { 'task-id': d.replacedBy.taskId }, `Go to the replacement task ${d.replacedBy.title}`)) : null,
		d.superseded && !d.replacedBy ? h('p', { class: 'notice' }, 'Superseded (no replacement).') : null,
		d.replaces.length ? h('div', { id: 'replaces' }, h('p', {}, 'Replaces:'), relatedList(d.replaces, 'Go to the superseded task')) : null,
		d.blocker ? h('p', { id: 'blocker', class: 'notice' }, `Blocked: ${d.blocker}`) : null,
		d.canAccept || d.canRequestChanges ? h('section', { id: 'acceptance', class: 'callout', 'aria-label': 'Acceptance' },
			h('p', {}, 'This task is waiting for you to accept its result or request changes.'),
			d.changes ? reviewChanges(d.changes, d.title, data) : null,
			d.canAccept ? button({ label: 'Accept', action: 'task/accept', appearance: 'primary', ariaLabel: `Accept task ${d.title}`, data }) : null,
			d.canRequestChanges ? h('div', { class: 'note-form' },
				textArea({ id: 'task-note', label: 'What needs to change', maxLength: noteMaxLength, draftKey: `task:${d.taskId}` }),
				button({ label: 'Request changes', action: 'task/requestChanges', ariaLabel: `Request changes to task ${d.title} with the note above`, data }),
				h('p', { class: 'form-error', role: 'alert', 'data-error-for': `task:${d.taskId}` })) : null) : null,
		h('h3', {}, 'Content'),
		d.content ? h('pre', { class: 'content' }, d.content) : h('p', { class: 'muted' }, 'No content.'),
		h('h3', {}, 'Launch settings'),
		h('dl', { class: 'facts' }, ...d.launch.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
		h('h3', {}, `Dependencies (${d.dependencies.length})`),
		d.dependencies.length ? relatedList(d.dependencies, 'Go to dependency') : h('p', { class: 'muted' }, 'None.'),
		h('h3', {}, `Runs (${d.runs.length})`),
		d.runs.length ? h('ol', { class: 'runs' }, ...d.runs.map(run)) : h('p', { class: 'muted' }, 'No runs yet.'),
		h('h3', {}, 'Usage'),
		h('p', { id: 'task-usage' }, d.usageLabel),
		d.canOpenChanges ? button({ label: 'Open changes', action: 'task/openChanges', ariaLabel: `Open the changes of task ${d.title} in the diff view`, data }) : null);
}
