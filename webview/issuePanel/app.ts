// The Issue panel's DOM glue (thin on purpose: everything it draws comes from pure functions).
// Handshake: post `ready`, then draw the complete snapshot and each delta applied to the one drawn (a delta this page
// cannot apply asks for a complete snapshot with `ready` again); UI state goes to vscode.setState so a reload restores it.
// One delegated listener per event type on the root; no inline handlers (CSP).
import { editedApprovalInput } from '../../src/protocol/approvalInput.js';
import {
	type PanelPersistedState, type PanelSnapshot, parsePersistedState, parseToWebview, type TaskFormState, type ToHost, toHost,
	webviewProtocolVersion,
} from '../../src/protocol/webview.js';
import { applySnapshotDelta } from '../../src/protocol/webviewDelta.js';
import { toDom } from '../shared/dom.js';
import { setUiValue, uiDisabled, uiValue } from '../shared/ui.js';
import { renderToString, type VNode } from '../shared/vnode.js';
import type { VsCodeApi } from '../shared/vscodeApi.js';
import { isNavKey, nextNodeId } from './graphNavigation.js';
import { defaultGraphView, type DisplayState, type GraphViewOptions, type ListSort, toggleStatus } from './graphOptions.js';
import { GraphView } from './graphView.js';
import type { GraphLayout } from './layout.js';
import { LayoutCache, type RegionName, renderPanel } from './renderPanel.js';
import type { PanelModel, PanelUi } from './panelModel.js';
import { chosenValues, taskFormKey, type TaskFormValues, untouchedForm } from './taskFormModel.js';

const zoomSteps = [0.1, 0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4];

interface Regions {
	readonly header: HTMLElement;
	readonly toolbar: HTMLElement;
	readonly graphStatus: HTMLElement;
	readonly graph: HTMLElement;
	readonly detail: HTMLElement;
	readonly error: HTMLElement;
	readonly live: HTMLElement;
	readonly scroller: HTMLElement;
}

function sameForm(a: TaskFormState, b: TaskFormState): boolean {
	return a === null || b === null ? a === b : taskFormKey(a) === taskFormKey(b);
}

function byId(doc: Document, id: string): HTMLElement {
	const el = doc.getElementById(id);
	if (!el) { throw new Error(`the panel page has no #${id}`); }
	return el;
}

export class IssuePanelApp {
	readonly #doc: Document;
	readonly #api: VsCodeApi;
	readonly #regions: Regions;
	readonly #cache = new LayoutCache();
	readonly #rendered = new Map<RegionName, string>();
	readonly #drafts = new Map<string, string>();
	readonly #graph: GraphView;
	#issueId: string;
	#ui: PanelUi;
	#graphView: GraphViewOptions;
	#zoom: number;
	#scroll: { left: number; top: number };
	#restoreScroll = true;
	#snapshot: PanelSnapshot | null = null;
	#layout: GraphLayout | null = null;
	#lastSeq = 0;
	/** A delta did not apply and a complete snapshot was asked for (once, until it comes). */
	#resyncAsked = false;
	/** Task ids passing the chips and the search, in plan order (Enter in the search box walks them). */
	#matches: string[] = [];
	#scrollFrame = 0;
	/** The model last drawn (the task form's fields, the list's rows). */
	#model: PanelModel | null = null;
	/** The list view's rows checked for Accept selected. */
	#checked = new Set<string>();
	/** What was picked in each task form so far (its dependencies and agent), by form key. */
	readonly #formValues = new Map<string, TaskFormValues>();
	#confirmDeleteTaskId: string | null = null;
	#detailCollapsed: boolean;
	/** An element to focus once the next render is on screen (by id). */
	#focusAfterRender: string | null = null;
	/** The form last opened or closed here, until a snapshot echoes it (one built before the Host heard of it would undo it). */
	#formSent: { readonly form: TaskFormState } | null = null;

	constructor(doc: Document, api: VsCodeApi) {
		this.#doc = doc;
		this.#api = api;
		this.#regions = {
			header: byId(doc, 'header-region'),
			toolbar: byId(doc, 'toolbar-region'),
			graphStatus: byId(doc, 'graph-status-region'),
			graph: byId(doc, 'graph-canvas'),
			detail: byId(doc, 'detail-region'),
			error: byId(doc, 'panel-error'),
			live: byId(doc, 'live'),
			scroller: byId(doc, 'graph-scroll'),
		};
		this.#graph = new GraphView(doc, this.#regions.graph);
		this.#issueId = byId(doc, 'app').dataset['issueId'] ?? '';
		const restored = parsePersistedState(api.getState());
		const state: PanelPersistedState | null = restored.ok && restored.value.issueId === this.#issueId ? restored.value : null;
		this.#ui = { selectedTaskId: state?.selectedTaskId ?? null, showHistory: state?.showHistory ?? false };
		this.#detailCollapsed = state?.detailCollapsed ?? false;
		this.#graphView = state?.graphView ?? defaultGraphView;
		this.#zoom = state?.zoom ?? 1;
		this.#scroll = state?.scroll ?? { left: 0, top: 0 };
		for (const [k, v] of Object.entries(state?.drafts ?? {})) { this.#drafts.set(k, v); }
	}

	start(win: Window): void {
		win.addEventListener('message', (e: MessageEvent) => this.#onMessage(e.data));
		const root = byId(this.#doc, 'app');
		root.addEventListener('click', (e) => this.#onClick(e));
		root.addEventListener('keydown', (e) => this.#onKeyDown(e));
		root.addEventListener('input', (e) => this.#onInput(e));
		root.addEventListener('change', (e) => this.#onChange(e));
		root.addEventListener('focusin', (e) => {
			const node = (e.target as Element | null)?.closest('g.node[data-task-id]');
			if (node) { this.#graph.moveRoving(node); }
		});
		this.#regions.scroller.addEventListener('scroll', () => this.#onScroll(win), { passive: true });
		this.#persist();
		this.#post({ type: 'ready', protocol: webviewProtocolVersion });
	}

	#post(message: ToHost): boolean {
		const checked = toHost.safeParse(message);
		if (!checked.success) { return false; }
		this.#api.postMessage(checked.data);
		return true;
	}

	#persist(): void {
		if (this.#issueId === '') { return; }
		const drafts: Record<string, string> = {};
		for (const [k, v] of this.#drafts) { if (v !== '') { drafts[k] = v; } }
		const state: PanelPersistedState = {
			issueId: this.#issueId, selectedTaskId: this.#ui.selectedTaskId, showHistory: this.#ui.showHistory,
			scroll: this.#scroll, zoom: this.#zoom, drafts, graphView: { ...this.#graphView, statusFilter: [...this.#graphView.statusFilter] },
			detailCollapsed: this.#detailCollapsed,
		};
		this.#api.setState(state);
	}

	#onMessage(raw: unknown): void {
		const parsed = parseToWebview(raw);
		if (!parsed.ok) {
			this.#showError(`Ignored a malformed message from the extension:\n${parsed.error}`);
			return;
		}
		const msg = parsed.value;
		if (msg.type === 'error') {
			this.#showError(msg.message);
			return;
		}
		if (msg.seq <= this.#lastSeq) { return; }
		let snapshot: PanelSnapshot;
		if (msg.type === 'delta') {
			// No snapshot yet: the complete one follows this page's `ready`.
			if (this.#snapshot === null) { return; }
			const applied = applySnapshotDelta(this.#snapshot, msg);
			if (applied === null) {
				if (!this.#resyncAsked) { this.#resyncAsked = this.#post({ type: 'ready', protocol: webviewProtocolVersion }); }
				return;
			}
			snapshot = applied;
		} else {
			snapshot = msg;
			this.#resyncAsked = false;
		}
		this.#lastSeq = snapshot.seq;
		this.#snapshot = snapshot;
		this.#issueId = snapshot.issue.issueId;
		let form = snapshot.view.taskForm ?? null;
		if (this.#formSent !== null) {
			if (sameForm(form, this.#formSent.form)) { this.#formSent = null; } else { form = this.#formSent.form; }
		}
		const before = this.#ui.taskForm ?? null;
		// The Host closed a form that was sent and taken: what was typed into it is spent.
		if (before !== null && (form === null || taskFormKey(form) !== taskFormKey(before))) { this.#forgetForm(before); }
		this.#ui = { selectedTaskId: snapshot.view.selectedTaskId, showHistory: snapshot.view.showHistory, taskForm: form };
		this.#showError(null);
		this.#render();
		this.#persist();
	}

	#showError(message: string | null): void {
		const el = this.#regions.error;
		el.textContent = message ?? '';
		el.hidden = message === null;
	}

	#render(): void {
		if (!this.#snapshot) { return; }
		// "panel-render" measures (layout + VNodes + DOM) are what a browser benchmark reads.
		const started = performance.now();
		const form = this.#ui.taskForm ?? null;
		const out = renderPanel(this.#snapshot, {
			...this.#ui, graphView: this.#graphView, checked: this.#checked, detailCollapsed: this.#detailCollapsed,
			taskFormValues: form !== null ? this.#formValues.get(taskFormKey(form)) ?? untouchedForm : untouchedForm,
			confirmDeleteTaskId: this.#confirmDeleteTaskId,
		}, this.#zoom, this.#cache);
		this.#model = out.model;
		// Checked rows the Host no longer offers Accept on (accepted meanwhile, or gone) leave the selection.
		const acceptable = new Set(out.model.graph.options.mode === 'list' ? out.model.graph.list.filter((r) => r.acceptable).map((r) => r.taskId) : this.#checked);
		for (const id of this.#checked) { if (!acceptable.has(id)) { this.#checked.delete(id); } }
		this.#matches = out.model.graph.nodes.filter((n) => n.match).map((n) => n.taskId);
		this.#layout = out.layout;
		this.#regions.detail.dataset['pane'] = out.detailPane;
		this.#replace('header', this.#regions.header, out.regions.header);
		this.#replace('toolbar', this.#regions.toolbar, out.regions.toolbar);
		this.#replace('graphStatus', this.#regions.graphStatus, out.regions.graphStatus);
		if (this.#graphView.mode === 'graph' && out.model.graph.nodes.length > 0) {
			this.#graph.renderGraph(out.model.graph, out.layout, this.#zoom);
		} else {
			this.#graph.renderOther(out.regions.graph);
		}
		this.#replace('detail', this.#regions.detail, out.regions.detail);
		if (this.#focusAfterRender !== null) {
			const target = this.#doc.getElementById(this.#focusAfterRender);
			this.#focusAfterRender = null;
			target?.focus();
			target?.scrollIntoView({ block: 'nearest' });
		}
		if (this.#restoreScroll && out.layout.nodes.length > 0) {
			this.#restoreScroll = false;
			this.#regions.scroller.scrollTo(this.#scroll.left, this.#scroll.top);
		}
		if (performance.getEntriesByName('panel-render').length >= 500) { performance.clearMeasures('panel-render'); }
		performance.measure('panel-render', { start: started, detail: { tasks: out.model.graph.nodes.length } });
	}

	/** Replaces a region only when its markup changed, keeping focus, open <details> and unsent drafts. */
	#replace(name: RegionName, container: HTMLElement, node: VNode): void {
		const markup = renderToString(node);
		if (this.#rendered.get(name) === markup) { return; }
		this.#rendered.set(name, markup);
		const active = this.#doc.activeElement;
		const focusKey = active && container.contains(active) ? active.closest('[data-focus-key]')?.getAttribute('data-focus-key') ?? null : null;
		const open = new Set<string>();
		for (const d of container.querySelectorAll('details[open][data-details-key]')) { open.add(d.getAttribute('data-details-key') ?? ''); }
		// A live transcript follows its newest line while the reader is at the bottom, and stays put otherwise.
		const log = container.querySelector<HTMLElement>('ol.transcript');
		const logScroll = log ? { runId: log.closest('[data-run-id]')?.getAttribute('data-run-id') ?? '', top: log.scrollTop, atBottom: log.scrollTop + log.clientHeight >= log.scrollHeight - 4 } : null;
		container.replaceChildren(toDom(node, this.#doc));
		const newLog = container.querySelector<HTMLElement>('ol.transcript');
		if (newLog) {
			const sameRun = logScroll !== null && logScroll.runId === (newLog.closest('[data-run-id]')?.getAttribute('data-run-id') ?? '');
			newLog.scrollTop = sameRun && !logScroll.atBottom ? logScroll.top : newLog.scrollHeight;
		}
		for (const d of container.querySelectorAll<HTMLDetailsElement>('details[data-details-key]')) {
			if (open.has(d.getAttribute('data-details-key') ?? '')) { d.open = true; }
		}
		for (const el of container.querySelectorAll('[data-draft-key]')) {
			setUiValue(el, this.#drafts.get(el.getAttribute('data-draft-key') ?? '') ?? el.getAttribute('data-initial') ?? '');
		}
		if (focusKey !== null) {
			const target = container.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
			target?.focus({ preventScroll: true });
			if (target instanceof HTMLInputElement) { target.setSelectionRange(target.value.length, target.value.length); }
		}
	}

	#onClick(e: MouseEvent): void {
		const el = (e.target as Element | null)?.closest<HTMLElement>('[data-action]');
		if (!el || uiDisabled(el)) { return; }
		e.preventDefault();
		this.#act(el);
	}

	#act(el: HTMLElement): void {
		const action = el.dataset['action'] ?? '';
		const taskId = el.dataset['taskId'] ?? '';
		const runId = el.dataset['runId'] ?? '';
		switch (action) {
			case 'task/select': return this.#select(taskId);
			case 'history/toggle': {
				this.#ui = { ...this.#ui, showHistory: el.dataset['show'] === 'true' };
				this.#post({ type: 'history/toggle', show: this.#ui.showHistory });
				this.#render();
				this.#persist();
				return;
			}
			case 'mode/set': return this.#setGraphView({ mode: el.dataset['mode'] === 'list' ? 'list' : 'graph' });
			case 'filter/status': return this.#setGraphView({ statusFilter: toggleStatus(this.#graphView.statusFilter, (el.dataset['status'] ?? '') as DisplayState) });
			case 'focus/set': {
				this.#setGraphView({ focusTaskId: taskId || this.#ui.selectedTaskId });
				// The lineage drawn alone is fitted to the view (it may be far from where the whole graph was scrolled).
				return this.#fit();
			}
			case 'focus/clear': return this.#setGraphView({ focusTaskId: null });
			case 'completed/toggle': return this.#setGraphView({ hideCompleted: !this.#graphView.hideCompleted });
			case 'list/sort': return this.#setGraphView({ listSort: (el.dataset['sort'] ?? 'status') as ListSort });
			case 'zoom/in': return this.#setZoom(zoomSteps.find((z) => z > this.#zoom + 1e-6) ?? this.#zoom);
			case 'zoom/out': return this.#setZoom([...zoomSteps].reverse().find((z) => z < this.#zoom - 1e-6) ?? this.#zoom);
			case 'zoom/reset': return this.#setZoom(1);
			case 'zoom/fit': return this.#fit();
			case 'issue/integrate':
				this.#post((document.getElementById('integrate-push') as HTMLInputElement | null)?.checked === true ? { type: action, push: true } : { type: action });
				return;
			case 'issue/pause': case 'issue/resume': case 'issue/stop': case 'goal/confirm': case 'agent/showTerminal':
			case 'issue/start': case 'issue/finish': case 'issue/followUp': case 'source/stop': case 'goalReview/switchToSelf': case 'agent/add':
			case 'issue/openChanges': case 'conflict/openTree':
				this.#post({ type: action });
				return;
			case 'task/add': return this.#openForm({ mode: 'add' });
			case 'taskForm/edit': return this.#openForm({ mode: 'edit', taskId });
			case 'taskForm/retry': return this.#openForm({ mode: 'retry', taskId });
			case 'task/retry': case 'task/updateFromBase':
				if (this.#post({ type: action, taskId })) { this.#announce(action === 'task/retry' ? 'Retrying the task.' : 'Updating the task from its base branch.'); }
				return;
			case 'taskForm/cancel': {
				const open = this.#ui.taskForm ?? null;
				if (open !== null) { this.#forgetForm(open); }
				return this.#openForm(null);
			}
			case 'taskForm/submit': return this.#submitForm();
			case 'task/deleteAsk':
				this.#confirmDeleteTaskId = taskId;
				// The safe choice has the focus: Enter keeps the task.
				this.#focusAfterRender = 'delete-confirm-no';
				this.#render();
				return;
			case 'task/deleteCancel':
				this.#confirmDeleteTaskId = null;
				this.#render();
				return;
			case 'task/delete': {
				this.#confirmDeleteTaskId = null;
				if (this.#post({ type: 'task/delete', taskId })) { this.#announce('Deleting the task.'); }
				const open = this.#ui.taskForm ?? null;
				if (open?.mode === 'edit' && open.taskId === taskId) { this.#forgetForm(open); this.#openForm(null); } else { this.#render(); }
				return;
			}
			case 'list/acceptChecked': {
				// The rows the model says are checked: only tasks the Host offers Accept on can be.
				const ids = (this.#model?.graph.list ?? []).filter((r) => r.checked).map((r) => r.taskId);
				if (ids.length === 0) { return; }
				if (this.#post({ type: 'tasks/accept', taskIds: ids })) {
					this.#checked.clear();
					this.#announce(`Accepting ${ids.length} ${ids.length === 1 ? 'task' : 'tasks'}.`);
					this.#render();
				}
				return;
			}
			case 'approval/allowEdited': return this.#allowEdited(el.dataset['approvalId'] ?? '');
			case 'detail/toggle':
				this.#detailCollapsed = !this.#detailCollapsed;
				this.#focusAfterRender = 'detail-toggle';
				this.#render();
				this.#persist();
				return;
			case 'review/jump':
				this.#focusAfterRender = 'accept-task';
				if (this.#detailCollapsed) { this.#detailCollapsed = false; this.#persist(); }
				if (this.#ui.selectedTaskId === taskId) { this.#render(); return; }
				return this.#select(taskId);
			case 'run/stop': case 'run/openOutput':
				this.#post({ type: action, runId });
				return;
			case 'task/accept': case 'task/openChanges':
				this.#post({ type: action, taskId });
				return;
			case 'task/requestChanges': return this.#sendNote(`task:${taskId}`, (note) => ({ type: 'task/requestChanges', taskId, note }));
			case 'goal/requestChanges': return this.#sendNote('goal', (note) => ({ type: 'goal/requestChanges', note }));
			case 'run/send': {
				const runId = el.dataset['runId'] ?? '';
				const draftKey = `message:${runId}`;
				const text = this.#drafts.get(draftKey) ?? '';
				const errorEl = this.#doc.querySelector(`[data-error-for="${CSS.escape(draftKey)}"]`);
				if (!this.#post({ type: 'run/send', runId, text })) {
					if (errorEl) { errorEl.textContent = text.trim() === '' ? 'Write a message first.' : 'The message is too long (at most 100,000 characters).'; }
					return;
				}
				this.#drafts.delete(draftKey);
				for (const d of this.#doc.querySelectorAll(`[data-draft-key="${CSS.escape(draftKey)}"]`)) { setUiValue(d, ''); }
				if (errorEl) { errorEl.textContent = ''; }
				this.#announce('Message sent.');
				this.#persist();
				return;
			}
			case 'approval/allow': case 'approval/allowForTask': case 'approval/deny': {
				const approvalId = el.dataset['approvalId'] ?? '';
				const choice = action === 'approval/allow' ? 'allow' : action === 'approval/allowForTask' ? 'allowForTask' : 'deny';
				const message = choice === 'deny' ? (this.#drafts.get(`approval:${approvalId}`) ?? '') : undefined;
				this.#post({ type: 'approval/answer', approvalId, choice, ...(message !== undefined ? { message } : {}) });
				return;
			}
			case 'question/option': {
				this.#post({ type: 'question/answer', approvalId: el.dataset['approvalId'] ?? '', answers: [el.dataset['answer'] ?? ''] });
				return;
			}
			case 'question/answer': {
				const approvalId = el.dataset['approvalId'] ?? '';
				const ids: unknown = JSON.parse(el.dataset['questions'] ?? '[]');
				const answers = (Array.isArray(ids) ? ids.map(String) : []).flatMap((q) => {
					const text = (this.#drafts.get(`question:${approvalId}:${q}`) ?? '').trim();
					return text === '' ? [] : [`${q}=${text}`];
				});
				if (answers.length === 0 || !this.#post({ type: 'question/answer', approvalId, answers })) { this.#announce('Write an answer first.'); }
				return;
			}
			case 'command/copy': {
				if (this.#post({ type: 'command/copy', text: el.dataset['text'] ?? '' })) { this.#announce('Command copied to the clipboard.'); }
				return;
			}
			default: return;
		}
	}

	/** Opens (or, with null, closes) the task form in the detail pane and tells the Host, which keeps it open across snapshots. */
	#openForm(form: TaskFormState): void {
		this.#ui = { ...this.#ui, taskForm: form };
		this.#confirmDeleteTaskId = null;
		if (form !== null && this.#detailCollapsed) { this.#detailCollapsed = false; this.#persist(); }
		this.#focusAfterRender = form !== null ? 'task-form-title' : null;
		if (this.#post({ type: 'taskForm/set', form })) { this.#formSent = { form }; }
		this.#render();
	}

	/** Drops what was typed and picked in a form (sent and taken, or canceled). */
	#forgetForm(form: NonNullable<TaskFormState>): void {
		const key = taskFormKey(form);
		this.#formValues.delete(key);
		this.#drafts.delete(`form:${key}:title`);
		this.#drafts.delete(`form:${key}:content`);
		this.#persist();
	}

	/** Sends the open form as the Host's task/add or task/update; the Host closes the form once it took it. */
	#submitForm(): void {
		const m = this.#model?.form;
		const form = this.#ui.taskForm ?? null;
		const errorEl = this.#doc.querySelector('[data-error-for="task-form"]');
		if (!m || form === null) { return; }
		const title = this.#drafts.get(m.titleKey) ?? m.titleInitial;
		const content = this.#drafts.get(m.contentKey) ?? m.contentInitial;
		const { dependencyTaskIds, agentTargetId } = chosenValues(m);
		const problem = title.trim() === '' ? 'Write a title first.' : agentTargetId === '' ? 'Choose the agent that runs the task (Add Agent if there is none).' : '';
		const fields = { title: title.trim(), content, dependencyTaskIds, agentTargetId };
		const sent = problem === '' && this.#post(m.taskId === null ? { type: 'task/create', ...fields }
			: m.mode === 'retry' ? { type: 'task/retry', taskId: m.taskId, fields } : { type: 'task/update', taskId: m.taskId, ...fields });
		if (!sent) {
			if (errorEl) { errorEl.textContent = problem !== '' ? problem : 'The task is too long to send (title at most 500 characters, content at most 100,000).'; }
			this.#doc.getElementById(title.trim() === '' ? 'task-form-title' : 'task-form-agent')?.focus();
			return;
		}
		if (errorEl) { errorEl.textContent = ''; }
		this.#announce(m.taskId === null ? 'Adding the task.' : m.mode === 'retry' ? 'Retrying the task.' : 'Saving the task.');
	}

	/** Allow once with the edited input: the text read back into the input the tool runs with (checked here and by the Host). */
	#allowEdited(approvalId: string): void {
		const key = `approval-input:${approvalId}`;
		const approval = this.#snapshot?.runs.flatMap((r) => r.approvals ?? []).find((a) => a.approvalId === approvalId);
		const errorEl = this.#doc.querySelector(`[data-error-for="${CSS.escape(key)}"]`);
		if (!approval) { return; }
		const text = this.#drafts.get(key) ?? this.#doc.querySelector(`[data-draft-key="${CSS.escape(key)}"]`)?.getAttribute('data-initial') ?? '';
		const edited = editedApprovalInput(approval.tool, approval.input, text);
		if (!edited.ok) {
			if (errorEl) { errorEl.textContent = edited.error; }
			return;
		}
		if (this.#post({ type: 'approval/answer', approvalId, choice: 'allow', updatedInput: edited.value })) {
			this.#drafts.delete(key);
			if (errorEl) { errorEl.textContent = ''; }
			this.#announce('Allowed once with your input.');
			this.#persist();
		}
	}

	#setGraphView(change: Partial<GraphViewOptions>): void {
		this.#graphView = { ...this.#graphView, ...change };
		this.#render();
		this.#persist();
	}

	/** Enter in the search box: select the next match after the selection (wrapping), and scroll to it. */
	#nextMatch(backwards: boolean): void {
		const m = this.#matches;
		if (m.length === 0) { return; }
		const at = this.#ui.selectedTaskId !== null ? m.indexOf(this.#ui.selectedTaskId) : -1;
		const next = at === -1 ? (backwards ? m.length - 1 : 0) : (at + (backwards ? m.length - 1 : 1)) % m.length;
		this.#select(m[next]!);
		this.#reveal(m[next]!);
		this.#announce(`Match ${next + 1} of ${m.length}.`);
	}

	/** Scrolls a node that is not wholly in view to the middle of the view (a search match far off, after a zoom to fit). */
	#reveal(taskId: string): void {
		const el = this.#graph.elementFor(taskId);
		if (!el) { return; }
		const s = this.#regions.scroller;
		const view = s.getBoundingClientRect();
		const box = el.getBoundingClientRect();
		if (box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom) { return; }
		s.scrollTo(s.scrollLeft + box.left - view.left - (view.width - box.width) / 2, s.scrollTop + box.top - view.top - (view.height - box.height) / 2);
	}

	#select(taskId: string): void {
		if (taskId === '') { return; }
		this.#ui = { ...this.#ui, selectedTaskId: taskId };
		this.#post({ type: 'task/select', taskId });
		this.#render();
		this.#persist();
		this.#graph.elementFor(taskId)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
	}

	#sendNote(draftKey: string, message: (note: string) => ToHost): void {
		const note = this.#drafts.get(draftKey) ?? '';
		const errorEl = this.#doc.querySelector(`[data-error-for="${CSS.escape(draftKey)}"]`);
		if (!this.#post(message(note))) {
			if (errorEl) { errorEl.textContent = note.trim() === '' ? 'Write a note first: say what needs to change.' : 'The note is too long (at most 10,000 characters).'; }
			this.#doc.querySelector<HTMLElement>(`[data-draft-key="${CSS.escape(draftKey)}"]`)?.focus();
			return;
		}
		this.#drafts.delete(draftKey);
		for (const el of this.#doc.querySelectorAll(`[data-draft-key="${CSS.escape(draftKey)}"]`)) { setUiValue(el, ''); }
		if (errorEl) { errorEl.textContent = ''; }
		this.#announce('Sent.');
		this.#persist();
	}

	#announce(text: string): void {
		this.#regions.live.textContent = '';
		this.#regions.live.textContent = text;
	}

	#setZoom(zoom: number): void {
		const scroller = this.#regions.scroller;
		const ratio = zoom / this.#zoom;
		const cx = scroller.scrollLeft + scroller.clientWidth / 2;
		const cy = scroller.scrollTop + scroller.clientHeight / 2;
		this.#zoom = zoom;
		this.#render();
		scroller.scrollTo(cx * ratio - scroller.clientWidth / 2, cy * ratio - scroller.clientHeight / 2);
		this.#persist();
	}

	#fit(): void {
		const l = this.#layout;
		if (!l || l.width === 0 || l.height === 0) { return; }
		const s = this.#regions.scroller;
		this.#setZoom(Math.max(0.1, Math.min(1, s.clientWidth / l.width, s.clientHeight / l.height)));
	}

	#onKeyDown(e: KeyboardEvent): void {
		const target = e.target as Element | null;
		// Ctrl+Enter (Cmd+Enter) in a field presses its form's button: the note's Request changes, the message's Send, …
		const field = target?.closest<HTMLElement>('[data-submit]');
		if (field && e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey) {
			const submit = this.#doc.getElementById(field.dataset['submit'] ?? '');
			if (submit && submit.dataset['action'] !== undefined && !uiDisabled(submit)) {
				e.preventDefault();
				// A text area's last keystrokes reach the draft first (its input event may not have fired yet).
				const key = field.getAttribute('data-draft-key');
				if (key !== null) { this.#drafts.set(key, uiValue(field)); }
				this.#act(submit);
			}
			return;
		}
		if (target?.id === 'graph-search') {
			if (e.key === 'Enter') { e.preventDefault(); this.#nextMatch(e.shiftKey); }
			if (e.key === 'Escape' && this.#graphView.search !== '') { e.preventDefault(); this.#setGraphView({ search: '' }); }
			return;
		}
		const row = target?.closest<HTMLElement>('#task-list tr[data-task-id]');
		if (row && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
			e.preventDefault();
			const sibling = e.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
			sibling?.querySelector<HTMLElement>('button.row-title')?.focus();
			return;
		}
		const node = target?.closest<SVGGElement>('g.node[data-task-id]');
		if (!node) { return; }
		const taskId = node.getAttribute('data-task-id') ?? '';
		if (e.key === 'Enter' || e.key === ' ') {
			e.preventDefault();
			this.#select(taskId);
			return;
		}
		if (e.key === '.' && !e.ctrlKey && !e.metaKey && !e.altKey) {
			e.preventDefault();
			const focusing = this.#graphView.focusTaskId !== taskId;
			this.#setGraphView({ focusTaskId: focusing ? taskId : null });
			if (focusing) { this.#fit(); }
			return;
		}
		if (isNavKey(e.key) && this.#layout) {
			e.preventDefault();
			const next = nextNodeId(this.#layout.nodes, taskId, e.key);
			const target = next ? this.#graph.elementFor(next) as SVGGElement | undefined : undefined;
			if (target) {
				this.#graph.moveRoving(target);
				target.focus({ preventScroll: true });
				target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
			}
			return;
		}
		const zoomKeys: Record<string, string> = { '+': 'zoom/in', '=': 'zoom/in', '-': 'zoom/out', '0': 'zoom/reset', 'f': 'zoom/fit' };
		const zoomAction = zoomKeys[e.key];
		if (zoomAction && !e.ctrlKey && !e.metaKey && !e.altKey) {
			e.preventDefault();
			const fake = this.#doc.createElement('span');
			fake.dataset['action'] = zoomAction;
			this.#act(fake);
		}
	}

	#onInput(e: Event): void {
		const target = e.target as HTMLInputElement | null;
		if (target?.id === 'graph-search') {
			this.#setGraphView({ search: target.value.slice(0, 200) });
			return;
		}
		const el = target?.closest('[data-draft-key]');
		if (!el) { return; }
		const key = el.getAttribute('data-draft-key') ?? '';
		this.#drafts.set(key, uiValue(el));
		const errorEl = this.#doc.querySelector(`[data-error-for="${CSS.escape(key)}"]`);
		if (errorEl) { errorEl.textContent = ''; }
		this.#persist();
	}

	/** Checkboxes and the agent choice: the form's picks and the list's checked rows (kept here; drawn from the model). */
	#onChange(e: Event): void {
		const el = (e.target as Element | null)?.closest<HTMLInputElement | HTMLSelectElement>('[data-field]');
		if (!el) { return; }
		const form = this.#ui.taskForm ?? null;
		const m = this.#model?.form;
		switch (el.dataset['field']) {
			case 'dependency': case 'agent': {
				if (form === null || !m) { return; }
				const key = taskFormKey(form);
				const now = chosenValues(m);
				const taskId = el.dataset['taskId'] ?? '';
				const checked = el instanceof HTMLInputElement && el.checked;
				const deps = el.dataset['field'] === 'dependency'
					? (checked ? [...now.dependencyTaskIds, taskId] : now.dependencyTaskIds.filter((d) => d !== taskId))
					: now.dependencyTaskIds;
				this.#formValues.set(key, { dependencyTaskIds: deps, agentTargetId: el.dataset['field'] === 'agent' ? el.value : now.agentTargetId });
				this.#render();
				return;
			}
			case 'list/check': {
				const taskId = el.dataset['taskId'] ?? '';
				if (el instanceof HTMLInputElement && el.checked) { this.#checked.add(taskId); } else { this.#checked.delete(taskId); }
				this.#render();
				return;
			}
			case 'list/checkAll': {
				const rows = this.#model?.graph.list.filter((r) => r.acceptable) ?? [];
				if (el instanceof HTMLInputElement && el.checked) { for (const r of rows) { this.#checked.add(r.taskId); } } else { this.#checked.clear(); }
				this.#render();
				return;
			}
			default: return;
		}
	}

	#onScroll(win: Window): void {
		if (this.#scrollFrame !== 0) { return; }
		this.#scrollFrame = win.requestAnimationFrame(() => {
			this.#scrollFrame = 0;
			this.#scroll = { left: Math.max(0, this.#regions.scroller.scrollLeft), top: Math.max(0, this.#regions.scroller.scrollTop) };
			this.#persist();
		});
	}
}
