// The selected task's detail pane (pure VNodes). It leads with what the developer decides on — the latest Run's
// outcome, times, usage, summary and changed files with Open Diff; a failed Run's cause (the Host's words, the last
// lines of its stderr) — then Accept / Request changes, the live transcript, the Runs with Stop notes; content,
// dependencies and launch settings follow, collapsed. Edit and Delete on a task that has not started.
import { button, iconButton, linkButton, textArea } from '../shared/components.js';
import { type ElementNode, h } from '../shared/vnode.js';
import { noteMaxLength } from './renderHeader.js';
import { deleteConfirmation } from './renderTaskForm.js';
import type { DetailModel, FailureModel, RelatedTask, VerificationModel } from './detailModel.js';
import type { MessagesModel, TranscriptModel } from './liveRunModel.js';
import type { ReviewChangesModel } from './reviewChangesModel.js';
import type { LatestRunModel, RunModel } from './runModel.js';
import type { ApprovalBody, ApprovalModel } from './approvalModel.js';

/** The detail pane's UI state that is not the snapshot's: a Delete being confirmed. */
export interface DetailUi {
	readonly confirmDeleteTaskId?: string | null;
}

function approvalBody(b: ApprovalBody): ElementNode {
	switch (b.kind) {
		case 'command': return h('pre', { class: 'approval-command' }, h('code', {}, `$ ${b.command}`));
		case 'file': return h('div', { class: 'approval-file' },
			h('p', {}, h('code', { class: 'approval-path' }, b.path)),
			h('pre', { class: 'approval-diff', 'aria-label': `Proposed change to ${b.path}` }, ...b.diff.map((l) => h('span', { class: l.sign === '+' ? 'diff-add' : 'diff-del' }, `${l.sign} ${l.text}\n`))));
		case 'json': return h('pre', { class: 'approval-json' }, b.text);
		case 'question': return h('div', { class: 'approval-questions' }, ...b.questions.map((q) => h('div', { class: 'approval-question' },
			h('p', {}, q.header !== '' ? h('strong', {}, `${q.header}: `) : null, q.question),
			q.options.length > 0 ? h('ul', { class: 'question-options' }, ...q.options.map((o) => h('li', {}, o.label, o.description !== '' ? h('span', { class: 'muted' }, ` — ${o.description}`) : null))) : null)));
	}
}

/** Allow once with an edited input: the command line for Bash, the input as JSON otherwise. */
function approvalEditor(a: ApprovalModel): ElementNode {
	const key = `approval-input:${a.approvalId}`;
	const allowId = `approval-allow-edited-${a.approvalId}`;
	const what = a.editor.kind === 'command' ? 'command line' : 'input (JSON)';
	return h('details', { class: 'approval-edit', 'data-details-key': key },
		h('summary', {}, `Edit the ${what}…`),
		textArea({
			id: `approval-input-${a.approvalId}`, label: `The ${what} ${a.tool} runs with instead`, maxLength: 100_000, draftKey: key,
			rows: a.editor.kind === 'command' ? 2 : 8, initialValue: a.editor.text, submitButtonId: allowId,
		}),
		button({
			label: 'Allow with this input', action: 'approval/allowEdited', appearance: 'primary', id: allowId,
			ariaLabel: `Allow this ${a.tool} call once with the ${what} above`, data: { 'approval-id': a.approvalId }, title: 'Allow once with this input (Ctrl+Enter)',
		}),
		h('p', { class: 'form-error', role: 'alert', 'data-error-for': key }));
}

/** A pending question: a button per option of a lone question, a typed answer per question, and Decline with a message. */
function questionActions(a: ApprovalModel, questions: Extract<ApprovalBody, { kind: 'question' }>['questions']): ElementNode {
	const data = { 'approval-id': a.approvalId };
	const only = questions.length === 1 ? questions[0] : undefined;
	const answerId = `question-answer-${a.approvalId}`;
	const declineId = `question-decline-${a.approvalId}`;
	return h('div', { class: 'approval-actions' },
		...(only !== undefined ? only.options.map((o, i) => button({
			label: o.label, action: 'question/option', appearance: i === 0 ? 'primary' : 'secondary', ariaLabel: `Answer ${o.label}`, data: { ...data, answer: `${only.id}=${o.label}` },
		})) : []),
		...questions.filter((q) => only === undefined || q.isOther || q.options.length === 0).map((q) => textArea({
			id: `question-${a.approvalId}-${q.id}`, label: questions.length === 1 ? (q.options.length > 0 ? 'Another answer' : 'Your answer') : `Answer: ${q.question}`,
			maxLength: noteMaxLength, draftKey: `question:${a.approvalId}:${q.id}`, submitButtonId: answerId,
		})),
		button({ label: 'Answer', action: 'question/answer', ariaLabel: 'Send the answers written above', data: { ...data, questions: JSON.stringify(questions.map((q) => q.id)) }, id: answerId }),
		textArea({ id: `approval-note-${a.approvalId}`, label: 'Message for the agent (with Decline)', maxLength: noteMaxLength, draftKey: `approval:${a.approvalId}`, submitButtonId: declineId }),
		button({ label: 'Decline', action: 'approval/deny', ariaLabel: 'Decline to answer, with the message above', data, id: declineId }));
}

/** One request: what the agent asks, and for a pending one Allow once / Allow for task / an edited input / Deny with a message (a question: its answers). */
function approval(a: ApprovalModel): ElementNode {
	const data = { 'approval-id': a.approvalId };
	if (a.body.kind === 'question') {
		return h('li', { class: `approval question${a.pending ? ' pending' : ''}`, 'data-approval-id': a.approvalId },
			h('p', { class: 'approval-head' }, h('strong', {}, 'Question'), h('span', { class: 'muted' }, ` · ${a.answerLabel}`)),
			approvalBody(a.body),
			a.pending ? questionActions(a, a.body.questions) : null);
	}
	const denyId = `approval-deny-${a.approvalId}`;
	return h('li', { class: `approval${a.pending ? ' pending' : ''}`, 'data-approval-id': a.approvalId },
		h('p', { class: 'approval-head' }, h('strong', {}, a.tool), h('span', { class: 'muted' }, ` · ${a.answerLabel}`)),
		approvalBody(a.body),
		a.pending ? h('div', { class: 'approval-actions' },
			button({ label: 'Allow once', action: 'approval/allow', appearance: 'primary', ariaLabel: `Allow this ${a.tool} call once`, data }),
			button({ label: 'Allow for task', action: 'approval/allowForTask', ariaLabel: `Allow ${a.tool} for the rest of this task`, data }),
			textArea({ id: `approval-note-${a.approvalId}`, label: 'Message for the agent (with Deny)', maxLength: noteMaxLength, draftKey: `approval:${a.approvalId}`, submitButtonId: denyId }),
			button({ label: 'Deny', action: 'approval/deny', ariaLabel: `Deny this ${a.tool} call with the message above`, data, id: denyId })) : null,
		a.pending ? approvalEditor(a) : null);
}

function approvals(list: readonly ApprovalModel[]): ElementNode {
	const waiting = list.filter((a) => a.pending).length;
	return h('section', { id: 'approvals', class: waiting > 0 ? 'callout' : '', 'aria-label': 'Approvals' },
		h('h3', {}, waiting > 0 ? `The agent asks you (${waiting})` : `Approvals (${list.length})`),
		h('ol', { class: 'approvals' }, ...list.map(approval)));
}

function relatedList(items: readonly RelatedTask[], why: string): ElementNode {
	return h('ul', { class: 'related' }, ...items.map((t) => h('li', {},
		linkButton(t.title, 'task/select', { 'task-id': t.taskId }, `${why} ${t.title} (${t.statusLabel})`),
		h('span', { class: 'muted' }, ` · ${t.statusLabel}`))));
}

/** A Run of the list; the latest one's output button is in its card above, so it has none here. */
function run(r: RunModel, latest: boolean): ElementNode {
	return h('li', { class: `run status-${r.status}${r.stopping ? ' stopping' : ''}`, 'data-run-id': r.runId },
		h('div', { class: 'run-head' },
			h('span', { class: 'run-outcome' }, r.outcomeLabel),
			h('span', { class: 'muted' }, ` · ${r.runId} · ${r.agentTargetId || 'no agent target'} · ${r.durationLabel}`)),
		r.summary ? h('p', { class: 'run-summary' }, r.summary) : null,
		r.errorMessage ? h('p', { class: 'run-error' }, r.errorMessage) : null,
		h('p', { class: 'muted run-usage' }, r.usageLabel),
		r.stopNotes.length ? h('ul', { class: 'stop-notes', 'aria-label': 'Stop notes' }, ...r.stopNotes.map((n) => h('li', { 'data-stop-event-id': n.eventId }, n.text))) : null,
		r.canStop || !latest ? h('div', { class: 'run-actions' },
			r.canStop ? button({ label: r.stopping ? 'Stop again' : 'Stop run', action: 'run/stop', ariaLabel: `Stop run ${r.runId}`, data: { 'run-id': r.runId } }) : null,
			latest ? null : button({ label: 'Open output', action: 'run/openOutput', ariaLabel: `Open the output of run ${r.runId}`, data: { 'run-id': r.runId } })) : null);
}

/** The files the latest Run changed, above Accept / Request changes, with the button that opens their diff. */
function reviewChanges(c: ReviewChangesModel, title: string, canOpen: boolean, data: Readonly<Record<string, string>>): ElementNode {
	return h('div', { id: 'review-changes' },
		c.kind === 'files'
			? h('ul', { class: 'changed-files', 'aria-label': `Files changed by task ${title}` }, ...c.files.map((f) => h('li', {},
				h('code', { class: 'changed-path' }, f.path),
				h('span', { class: 'changed-counts', 'aria-hidden': 'true' }, f.countsLabel),
				h('span', { class: 'visually-hidden' }, `, ${f.countsSpoken}`))))
			: h('p', { class: `muted review-${c.kind}` }, c.message),
		!canOpen || c.kind === 'noChanges' || c.kind === 'notRecorded' ? null
			: button({ label: 'Open Diff', action: 'task/openChanges', ariaLabel: `Open the diff of task ${title}`, data }));
}

/**
 * The ways forward the Host offers on the task: Retry and Edit and retry (a failed or canceled task, run again as a new
 * attempt in its tree, edited first in the task form) and Update from base (an accepted task, its base branch merged
 * into its tree in a new Run). Drawn from the Host's controls only.
 */
function wayForwardControls(d: DetailModel): ElementNode | null {
	const data = { 'task-id': d.taskId };
	if (!d.controls.retry && !d.controls.updateFromBase) { return null; }
	return h('div', { id: 'way-forward', class: 'form-actions', role: 'group', 'aria-label': 'Ways forward' },
		d.controls.retry ? button({ label: 'Retry', action: 'task/retry', appearance: 'primary', ariaLabel: `Retry task ${d.title} as a new attempt in its tree`, data, id: 'retry-task' }) : null,
		d.controls.retry ? button({ label: 'Edit and retry…', action: 'taskForm/retry', ariaLabel: `Edit task ${d.title}, then retry it`, data, id: 'edit-retry-task' }) : null,
		d.controls.updateFromBase ? button({
			label: 'Update from base', action: 'task/updateFromBase', ariaLabel: `Merge the base branch into task ${d.title} in a new Run`, data, id: 'update-from-base',
			title: 'A new Run merges the base branch into the task\u2019s tree; its result is reviewed again',
		}) : null);
}

/** Why the latest Run failed: the Host's words for what the developer decides, and the last lines of its stderr. */
function failureCause(f: FailureModel, runId: string): ElementNode {
	return h('div', { id: 'failure-cause' },
		f.decision !== '' ? h('p', { id: 'failure-decision', class: 'failure-decision' }, f.decision) : null,
		f.stderrTail.length > 0
			? h('div', { id: 'stderr-tail' },
				h('p', { class: 'muted' }, `Last ${f.stderrTail.length === 1 ? 'line' : `${f.stderrTail.length} lines`} on stderr:`),
				h('pre', { class: 'stderr-tail', 'aria-label': `The last lines run ${runId} wrote to stderr` }, f.stderrTail.join('\n')))
			: null);
}

function latestRun(d: DetailModel, r: LatestRunModel, data: Readonly<Record<string, string>>): ElementNode {
	return h('section', { id: 'latest-run', class: `status-${r.status}`, 'aria-label': 'Latest run', 'data-run-id': r.runId },
		h('p', { class: 'latest-outcome' }, h('span', { class: 'run-outcome' }, r.outcomeLabel)),
		h('p', { class: 'muted latest-facts' }, `${r.timesLabel} · ${r.usageLabel}`),
		r.summary ? h('p', { class: 'run-summary' }, r.summary) : null,
		r.errorMessage ? h('p', { class: 'run-error' }, r.errorMessage) : null,
		d.failure ? failureCause(d.failure, r.runId) : null,
		wayForwardControls(d),
		d.changes ? reviewChanges(d.changes, d.title, d.controls.openChanges, data) : null,
		h('div', { class: 'run-actions' },
			!d.changes && d.controls.openChanges ? button({ label: 'Open changes', action: 'task/openChanges', ariaLabel: `Open the changes of task ${d.title} in the diff view`, data }) : null,
			button({ label: 'Open output', action: 'run/openOutput', ariaLabel: `Open the raw output of run ${r.runId}`, data: { 'run-id': r.runId }, id: 'latest-run-output' })));
}

function transcript(t: TranscriptModel): ElementNode {
	return h('section', { id: 'transcript', 'aria-label': 'Transcript', 'data-run-id': t.runId },
		h('div', { class: 'transcript-head' },
			h('h3', {}, 'Transcript'),
			t.live ? h('span', { class: 'live-badge' }, 'live') : null),
		t.omittedLabel ? h('p', { class: 'muted' }, t.omittedLabel) : null,
		t.entries.length
			? h('ol', { class: 'transcript', role: 'log', 'aria-label': `Transcript of run ${t.runId}` }, ...t.entries.map((e) => h('li', { class: `t-entry t-${e.kind}${e.showLabel ? ' t-first' : ''}` },
				e.showLabel ? h('span', { class: 't-label' }, e.label) : null,
				h('span', { class: 't-text' }, e.text))))
			: h('p', { class: 'muted' }, t.live ? 'Waiting for the agent\u2019s first output…' : 'The Run wrote nothing readable.'));
}

function collapsed(key: string, summary: string, ...body: (ElementNode | null)[]): ElementNode {
	return h('details', { class: 'detail-section', 'data-details-key': key }, h('summary', {}, summary), ...body);
}

/** A running agent's message box: what was sent (queued / sent / delivered) and a field to send more. */
function messages(m: MessagesModel): ElementNode {
	const draftKey = `message:${m.runId}`;
	return h('section', { id: 'run-messages', 'aria-label': 'Message to the running agent' },
		h('h3', {}, 'Message the agent'),
		m.sent.length ? h('ol', { class: 'run-messages' }, ...m.sent.map((x) => h('li', { 'data-message-id': x.messageId }, x.text, h('span', { class: 'muted' }, ` · ${x.stateLabel}`)))) : null,
		textArea({ id: 'run-message', label: m.hint, maxLength: 100_000, draftKey, submitButtonId: 'run-message-send' }),
		button({ label: 'Send', action: 'run/send', ariaLabel: 'Send the message above to the running agent', data: { 'run-id': m.runId }, id: 'run-message-send', title: 'Send (Ctrl+Enter)' }),
		h('p', { class: 'form-error', role: 'alert', 'data-error-for': draftKey }));
}

/** Verified, above Accept: the checks' one line, and a failed check's output one click away. */
function verification(v: VerificationModel): ElementNode {
	return h('div', { id: 'verification', class: `verification verification-${v.status}` },
		h('p', { class: v.status === 'failed' ? 'notice' : 'muted' }, v.label),
		v.failing ? collapsed('verification-output', `Output of ${v.failing.name}`,
			v.failing.outputTail.trim() !== '' ? h('pre', { class: 'content' }, v.failing.outputTail) : h('p', { class: 'muted' }, 'It printed nothing.')) : null);
}

/** The button that hides the detail pane (the graph takes the width). */
export function detailToggle(expanded: boolean): ElementNode {
	return h('div', { class: 'detail-bar' },
		iconButton({
			icon: expanded ? 'chevron-right' : 'chevron-left', label: expanded ? 'Hide the task detail' : 'Show the task detail',
			action: 'detail/toggle', id: 'detail-toggle',
		}));
}

/** Edit and Delete on a task the Host lets the developer change (not started, on a manual issue). */
function taskActions(d: DetailModel, ui: DetailUi): ElementNode | null {
	if (!d.controls.edit && !d.controls.delete) { return null; }
	const confirming = ui.confirmDeleteTaskId === d.taskId;
	return h('div', { id: 'task-actions', class: 'form-actions' },
		d.controls.edit ? button({ label: 'Edit', action: 'taskForm/edit', ariaLabel: `Edit task ${d.title}`, data: { 'task-id': d.taskId } }) : null,
		d.controls.delete && !confirming ? button({ label: 'Delete…', action: 'task/deleteAsk', ariaLabel: `Delete task ${d.title}`, data: { 'task-id': d.taskId } }) : null,
		d.controls.delete && confirming ? deleteConfirmation(d.taskId, d.title) : null);
}

/** The task's Runs; superseded history keeps them collapsed under its one line. */
function runsSection(d: DetailModel, history: boolean): ElementNode[] {
	const list = d.runs.length ? h('ol', { class: 'runs' }, ...d.runs.map((r, i) => run(r, i === 0))) : h('p', { class: 'muted' }, 'No runs yet.');
	return history ? [collapsed('runs', `Runs (${d.runs.length})`, list)] : [h('h3', {}, `Runs (${d.runs.length})`), list];
}

/** Which attempt the task is, and one line for each earlier one (what ended it, with the developer's note). */
function attempts(d: DetailModel): ElementNode | null {
	const a = d.attempts;
	if (a.label === '' && a.earlier.length === 0) { return null; }
	return h('div', { id: 'attempts' },
		a.label !== '' ? h('p', { id: 'attempt-label' }, h('strong', {}, a.label)) : null,
		a.earlier.length > 0 ? h('ul', { class: 'earlier-attempts muted', 'aria-label': 'Earlier attempts' }, ...a.earlier.map((l) => h('li', {}, l))) : null);
}

/** Superseded history reads as one line — how that attempt ended — and where its work went on, instead of its status. */
function supersededAttempt(d: DetailModel): ElementNode {
	return h('p', { id: 'attempt-line', class: 'muted' }, d.attempts.line,
		d.replacedBy ? h('span', {}, ' · ', linkButton(`Go to the next attempt (${d.replacedBy.title})`, 'task/select', { 'task-id': d.replacedBy.taskId }, `Go to the next attempt, task ${d.replacedBy.title}`)) : null);
}

export function renderDetail(d: DetailModel | null, ui: DetailUi = {}): ElementNode {
	if (!d) {
		return h('div', { id: 'task-detail', class: 'empty' }, h('p', {}, 'Select a task in the graph (click, or Enter / Space) to see its content, runs and controls.'));
	}
	const data = { 'task-id': d.taskId };
	// Superseded history with its one line: how that attempt ended stands for its status, blocker and result.
	const history = d.superseded && d.attempts.line !== '';
	return h('div', { id: 'task-detail', 'data-task-id': d.taskId, 'aria-busy': String(d.busy) },
		h('h2', { id: 'detail-title' }, d.title),
		history ? supersededAttempt(d) : h('p', { class: 'detail-meta' },
			h('span', { class: `status-chip status-${d.rework ? 'rework' : d.status}` }, d.statusLabel),
			h('span', { class: 'muted' }, ` · ${d.acceptanceLabel}${d.ready ? ' · ready' : ''} · `),
			h('code', {}, d.taskId)),
		history ? null : attempts(d),
		d.replacedBy && !history ? h('p', { id: 'replaced-by', class: 'notice' }, 'Superseded. Replaced by ',
			linkButton(d.replacedBy.title, 'task/select', { 'task-id': d.replacedBy.taskId }, `Go to the replacement task ${d.replacedBy.title}`)) : null,
		d.superseded && !d.replacedBy && !history ? h('p', { class: 'notice' }, 'Superseded (no replacement).') : null,
		d.replaces.length ? h('div', { id: 'replaces' }, h('p', {}, 'Replaces:'), relatedList(d.replaces, 'Go to the superseded task')) : null,
		d.blocker && !history ? h('p', { id: 'blocker', class: 'notice' }, `Blocked: ${d.blocker}`) : null,
		taskActions(d, ui),
		d.approvals.some((a) => a.pending) ? approvals(d.approvals) : null,
		d.latest && !history ? latestRun(d, d.latest, data) : null,
		d.messages ? messages(d.messages) : null,
		d.controls.accept || d.controls.requestChanges ? h('section', { id: 'acceptance', class: 'callout', 'aria-label': 'Acceptance' },
			h('p', {}, 'This task is waiting for you to accept its result or request changes.'),
			d.reopenedReason !== '' ? h('p', { id: 'reopened-reason', class: 'notice' },
				`Pending acceptance again: ${d.reopenedReason}. Its branch moved after it was accepted; its result is now the branch's new commit.`) : null,
			d.verification ? verification(d.verification) : null,
			d.controls.accept ? button({ label: 'Accept', action: 'task/accept', appearance: 'primary', ariaLabel: `Accept task ${d.title}`, data, id: 'accept-task', title: 'Accept (Ctrl+Alt+A)' }) : null,
			d.controls.requestChanges ? h('div', { class: 'note-form' },
				textArea({ id: 'task-note', label: 'What needs to change', maxLength: noteMaxLength, draftKey: `task:${d.taskId}`, submitButtonId: 'request-changes' }),
				d.reviewComments.length
					? h('div', { id: 'review-comments' },
						h('p', {}, `Your ${d.reviewComments.length === 1 ? 'comment' : `${d.reviewComments.length} comments`} on the diff, sent with the note:`),
						h('ul', { class: 'review-comments' }, ...d.reviewComments.map((c) => h('li', {}, h('code', {}, c.where), ` — ${c.text}`))))
					: d.changes?.kind === 'files' ? h('p', { class: 'muted' }, 'Tip: comment lines in the diff (Open Diff); your comments are sent with the note.') : null,
				button({ label: 'Request changes', action: 'task/requestChanges', ariaLabel: `Request changes to task ${d.title} with the note above`, data, id: 'request-changes', title: 'Request changes (Ctrl+Enter in the note)' }),
				h('p', { class: 'form-error', role: 'alert', 'data-error-for': `task:${d.taskId}` })) : null) : null,
		d.transcript ? transcript(d.transcript) : null,
		d.approvals.length > 0 && !d.approvals.some((a) => a.pending) ? approvals(d.approvals) : null,
		...runsSection(d, history),
		h('p', { id: 'task-usage', class: 'muted' }, `All runs: ${d.usageLabel}`),
		collapsed('content', 'Content', d.content ? h('pre', { class: 'content' }, d.content) : h('p', { class: 'muted' }, 'No content.')),
		collapsed('dependencies', `Dependencies (${d.dependencies.length})`,
			d.dependencies.length ? relatedList(d.dependencies, 'Go to dependency') : h('p', { class: 'muted' }, 'None.')),
		collapsed('launch', 'Launch settings', h('dl', { class: 'facts' }, ...d.launch.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]))));
}
