// The New Issue form's Host-side logic without 'vscode' (NewIssueForm adapts it): `ready` → `init` with the agent
// targets, every message validated on receipt, a chosen target checked against the Host's list, then one create
// through the same command the palette runs. Failures go back to the form, which stays filled in.
import { type FormAgentTarget, type NewIssueField, type NewIssueFieldErrors, type NewIssueFormValues, type NewIssueToWebview, parseNewIssueToHost } from '../../protocol/newIssueForm.js';

export interface NewIssueFormPort {
	postMessage(message: NewIssueToWebview): PromiseLike<boolean>;
	/** Closes the form (after the issue was created, or on Cancel). */
	close(): void;
}

export interface NewIssueFormEffects {
	/** The agent targets the Host knows (`agent/list`). */
	agentTargets(): Promise<readonly FormAgentTarget[]>;
	autoAcceptDefault(): boolean;
	/** Creates the issue; resolves with its id, or undefined when the command reported a failure itself. Rejects with the reason otherwise. */
	create(values: NewIssueFormValues): Promise<string | undefined>;
	/** Runs Tutti: Add Agent; the form is re-initialised afterwards. */
	addAgent(): PromiseLike<unknown>;
	warn(message: string): void;
}

export class NewIssueFormController {
	readonly #port: NewIssueFormPort;
	readonly #effects: NewIssueFormEffects;
	#busy = false;
	#created: string | undefined;

	constructor(port: NewIssueFormPort, effects: NewIssueFormEffects) {
		this.#port = port;
		this.#effects = effects;
	}

	/** The id of the issue this form created (undefined until then). */
	get createdIssueId(): string | undefined { return this.#created; }

	/** Handles one raw message from the webview. Never throws. */
	async receive(raw: unknown): Promise<void> {
		const parsed = parseNewIssueToHost(raw);
		if (!parsed.ok) {
			this.#effects.warn(`Tutti New Issue: ignored an invalid message: ${parsed.error}`);
			await this.#fail('The form sent something the extension does not understand; check the fields and try again.');
			return;
		}
		const msg = parsed.value;
		switch (msg.type) {
			case 'ready': return this.init();
			case 'cancel': this.#port.close(); return;
			case 'addAgent':
				await this.#effects.addAgent();
				return this.init();
			case 'submit': return this.#submit(msg.values);
		}
	}

	/** Sends the choices (again: after Add Agent, or when the settings change). */
	async init(): Promise<void> {
		let agentTargets: readonly FormAgentTarget[] = [];
		try {
			agentTargets = await this.#effects.agentTargets();
		} catch (e) {
			this.#effects.warn(`Tutti New Issue: could not list the agent targets: ${e instanceof Error ? e.message : String(e)}`);
		}
		await this.#port.postMessage({ type: 'init', agentTargets: [...agentTargets], autoAcceptDefault: this.#effects.autoAcceptDefault() });
	}

	async #submit(values: NewIssueFormValues): Promise<void> {
		if (this.#busy || this.#created !== undefined) { return; }
		if (values.planner.kind === 'agent') {
			const wanted = values.planner.agentTargetId;
			const target = (await this.#effects.agentTargets().catch(() => [])).find((t) => t.id === wanted);
			if (target === undefined || !target.found || !target.canPlan) {
				await this.#fail(target === undefined
					? `There is no agent target "${wanted}" any more; choose another planner.`
					: !target.canPlan ? `Agent target "${wanted}" runs tasks; it cannot plan an issue. Choose Claude Code or Codex, your own agent in a terminal, or manual tasks.`
						: `The executable of agent target "${wanted}" was not found; fix its path in tutti.agentTargets or choose another planner.`, 'planner');
				return;
			}
		}
		this.#busy = true;
		await this.#port.postMessage({ type: 'busy' });
		try {
			const issueId = await this.#effects.create(values);
			if (issueId === undefined) {
				await this.#fail('The issue was not created (the notification says why).');
				return;
			}
			this.#created = issueId;
			this.#port.close();
		} catch (e) {
			await this.#fail(e instanceof Error ? e.message : String(e));
		} finally {
			this.#busy = false;
		}
	}

	async #fail(message: string, field?: NewIssueField): Promise<void> {
		const errors: NewIssueFieldErrors = {};
		if (field !== undefined) { errors[field] = message.slice(0, 1000); }
		await this.#port.postMessage({ type: 'failed', message: message.slice(0, 10_000), ...(field !== undefined ? { errors } : {}) });
	}
}
