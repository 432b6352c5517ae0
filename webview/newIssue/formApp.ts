// The New Issue form's DOM glue: the page's markup is static (src/extension/panels/newIssueFormHtml.ts); this fills
// the planner choices from `init`, validates with the shared schema before sending, shows each field's error beside
// it (focused, announced) and keeps the draft in the webview state so hiding the tab loses nothing.
import {
	type NewIssueFieldErrors, newIssueFormProtocolVersion, type NewIssueToHost, newIssueToHost, parseNewIssueToWebview,
	validateNewIssueForm,
} from '../../src/protocol/newIssueForm.js';
import type { VsCodeApi } from '../shared/vscodeApi.js';
import { defaultPlanner, plannerOf, plannerOptions } from './plannerChoice.js';

interface Draft {
	title: string;
	goal: string;
	planner: string | null;
	autoAccept: boolean | null;
}

function isDraft(x: unknown): x is Draft {
	if (typeof x !== 'object' || x === null) { return false; }
	const d = x as Record<string, unknown>;
	return typeof d['title'] === 'string' && typeof d['goal'] === 'string';
}

const fields = ['title', 'goal', 'planner', 'autoAccept'] as const;

export class NewIssueFormApp {
	readonly #doc: Document;
	readonly #api: VsCodeApi;
	readonly #form: HTMLFormElement;
	readonly #title: HTMLInputElement;
	readonly #goal: HTMLTextAreaElement;
	readonly #autoAccept: HTMLInputElement;
	readonly #options: HTMLElement;
	readonly #formError: HTMLElement;
	#draft: Draft;
	#initialised = false;

	constructor(doc: Document, api: VsCodeApi) {
		this.#doc = doc;
		this.#api = api;
		this.#form = this.#byId('new-issue-form') as HTMLFormElement;
		this.#title = this.#byId('issue-title') as HTMLInputElement;
		this.#goal = this.#byId('issue-goal') as HTMLTextAreaElement;
		this.#autoAccept = this.#byId('issue-auto-accept') as HTMLInputElement;
		this.#options = this.#byId('planner-options');
		this.#formError = this.#byId('form-error');
		const saved = api.getState();
		this.#draft = isDraft(saved) ? saved : { title: '', goal: '', planner: null, autoAccept: null };
		this.#title.value = this.#draft.title;
		this.#goal.value = this.#draft.goal;
	}

	#byId(id: string): HTMLElement {
		const el = this.#doc.getElementById(id);
		if (!el) { throw new Error(`the form page has no #${id}`); }
		return el;
	}

	start(win: Window): void {
		win.addEventListener('message', (e: MessageEvent) => this.#onMessage(e.data));
		this.#form.addEventListener('submit', (e) => { e.preventDefault(); this.#submit(); });
		this.#form.addEventListener('input', (e) => { this.#clearErrorOf(e.target); this.#saveDraft(); });
		this.#form.addEventListener('change', (e) => { this.#clearErrorOf(e.target); this.#saveDraft(); });
		this.#goal.addEventListener('keydown', (e) => {
			if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.#submit(); }
		});
		this.#byId('cancel').addEventListener('click', () => this.#post({ type: 'cancel' }));
		this.#byId('add-agent').addEventListener('click', () => this.#post({ type: 'addAgent' }));
		this.#post({ type: 'ready', protocol: newIssueFormProtocolVersion });
		this.#title.focus();
	}

	#post(message: NewIssueToHost): boolean {
		const checked = newIssueToHost.safeParse(message);
		if (!checked.success) { return false; }
		this.#api.postMessage(checked.data);
		return true;
	}

	#selectedPlanner(): string | null {
		return this.#form.querySelector<HTMLInputElement>('input[name="planner"]:checked')?.value ?? null;
	}

	#saveDraft(): void {
		this.#draft = { title: this.#title.value, goal: this.#goal.value, planner: this.#selectedPlanner(), autoAccept: this.#autoAccept.checked };
		this.#api.setState(this.#draft);
	}

	#onMessage(raw: unknown): void {
		const parsed = parseNewIssueToWebview(raw);
		if (!parsed.ok) {
			this.#showFormError(`Ignored a malformed message from the extension:\n${parsed.error}`);
			return;
		}
		const msg = parsed.value;
		switch (msg.type) {
			case 'init': {
				const options = plannerOptions(msg.agentTargets);
				const selected = defaultPlanner(options, this.#selectedPlanner() ?? this.#draft.planner);
				this.#options.replaceChildren(...options.map((o, i) => {
					const id = `planner-${i}`;
					const row = this.#doc.createElement('div');
					row.className = `planner-option${o.runsTasks ? ' runs-tasks' : o.disabled ? ' disabled' : ''}`;
					const input = this.#doc.createElement('input');
					Object.assign(input, { type: 'radio', name: 'planner', id, value: o.value, disabled: o.disabled, checked: o.value === selected });
					input.setAttribute('aria-describedby', `${id}-description`);
					const label = this.#doc.createElement('label');
					label.htmlFor = id;
					label.textContent = o.label;
					const description = this.#doc.createElement('div');
					description.id = `${id}-description`;
					description.className = 'description';
					description.textContent = o.description;
					row.append(input, label, description);
					return row;
				}));
				if (!this.#initialised) {
					this.#autoAccept.checked = this.#draft.autoAccept ?? msg.autoAcceptDefault;
					this.#initialised = true;
				}
				this.#setBusy(false);
				this.#saveDraft();
				return;
			}
			case 'busy':
				this.#setBusy(true);
				this.#showFormError(null);
				return;
			case 'failed':
				this.#setBusy(false);
				this.#showErrors(msg.errors ?? {});
				this.#showFormError(msg.message);
				return;
		}
	}

	#submit(): void {
		const planner = plannerOf(this.#selectedPlanner());
		const checked = validateNewIssueForm({ title: this.#title.value, goal: this.#goal.value, planner, autoAccept: this.#autoAccept.checked });
		if (!checked.ok) {
			this.#showErrors(checked.errors);
			this.#showFormError(null);
			return;
		}
		this.#showErrors({});
		this.#post({ type: 'submit', values: { ...checked.values, title: checked.values.title.trim() } });
	}

	#showErrors(errors: NewIssueFieldErrors): void {
		let first: HTMLElement | null = null;
		for (const field of fields) {
			const el = this.#doc.getElementById(`${field}-error`);
			const message = errors[field] ?? '';
			if (el) { el.textContent = message; el.hidden = message === ''; }
			const control = field === 'planner'
				? this.#form.querySelector<HTMLElement>('input[name="planner"]:checked') ?? this.#form.querySelector<HTMLElement>('input[name="planner"]:not([disabled])')
				: this.#doc.getElementById(field === 'title' ? 'issue-title' : field === 'goal' ? 'issue-goal' : 'issue-auto-accept');
			control?.setAttribute('aria-invalid', message === '' ? 'false' : 'true');
			if (message !== '' && first === null) { first = control; }
		}
		first?.focus();
	}

	/** The developer changed a field: its old error no longer applies. */
	#clearErrorOf(target: EventTarget | null): void {
		const el = target as HTMLInputElement | null;
		const field = el?.name === 'title' || el?.name === 'goal' || el?.name === 'planner' || el?.name === 'autoAccept' ? el.name : null;
		if (field === null) { return; }
		const error = this.#doc.getElementById(`${field}-error`);
		if (error) { error.textContent = ''; error.hidden = true; }
		for (const control of field === 'planner' ? this.#form.querySelectorAll('input[name="planner"]') : [el]) { control?.setAttribute('aria-invalid', 'false'); }
	}

	#showFormError(message: string | null): void {
		this.#formError.textContent = message ?? '';
		this.#formError.hidden = message === null || message === '';
	}

	#setBusy(busy: boolean): void {
		for (const el of this.#form.querySelectorAll<HTMLInputElement | HTMLButtonElement | HTMLTextAreaElement>('input, textarea, button')) {
			if (busy) { el.dataset['wasDisabled'] = String(el.disabled); el.disabled = true; } else if (el.dataset['wasDisabled'] !== undefined) { el.disabled = el.dataset['wasDisabled'] === 'true'; delete el.dataset['wasDisabled']; }
		}
		this.#form.setAttribute('aria-busy', String(busy));
	}
}
