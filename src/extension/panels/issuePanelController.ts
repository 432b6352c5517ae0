// The Issue panel's Host-side logic without 'vscode' (IssuePanel adapts it): the `ready` handshake, snapshots
// (coalesced, strictly increasing seq, skipped while hidden and re-sent on show; after the first complete one, only
// what changed since the one the webview drew), the UI state it echoes, and every incoming message validated and
// turned into the same palette command the board uses.
import type { Disposable } from '../../core/lifecycle.js';
import { Emitter, type Event } from '../../core/events.js';
import { type IntegrateConflict, type PanelSnapshot, type PanelViewState, parseToHost, type ToWebview } from '../../protocol/webview.js';
import { snapshotDelta } from '../../protocol/webviewDelta.js';
import { followNewAttempt } from './followAttempt.js';
import { type KnownIds, panelActionFor } from './panelActions.js';
import type { PanelHostApi } from './panelHostApi.js';
import { buildPanelSnapshot } from './panelSnapshot.js';
import { TranscriptTail } from './transcriptTail.js';
import { type CommandId, commandIds } from '../commands/ids.js';

/** The webview as the controller sees it. */
export interface PanelWebviewPort {
	readonly visible: boolean;
	postMessage(message: ToWebview): PromiseLike<boolean>;
	setTitle(title: string): void;
}

/** What the controller asks of the editor: run a palette command, copy text, log. */
export interface PanelEffects {
	executeCommand(command: string, args: readonly unknown[]): PromiseLike<unknown>;
	copyToClipboard(text: string): PromiseLike<void>;
	warn(message: string): void;
}

/** The coalescing timer, injectable so tests step it by hand. */
export interface CoalesceTimer {
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

const systemTimer: CoalesceTimer = {
	setTimeout: (fn, ms) => setTimeout(fn, ms),
	clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface IssuePanelControllerOptions {
	/** Store changes arriving within this window become one snapshot (default 30 ms). */
	readonly coalesceMs?: number;
	/** How often a running Run's transcript is read again while the panel shows it (default 500 ms). */
	readonly transcriptPollMs?: number;
	/** While Runs run, how often the snapshot is rebuilt so their activity lines stay current (default 2 s). */
	readonly activityRefreshMs?: number;
	readonly timer?: CoalesceTimer;
}

/** The decisions whose result may carry a hand-back command, by the words the panel says them with. */
const decisionNames: Readonly<Partial<Record<string, string>>> = {
	[commandIds.acceptTask]: 'Accept',
	[commandIds.requestChanges]: 'Request changes',
	[commandIds.confirmGoal]: 'Confirm',
};

/** The `handBackCommand` a decision's result carries (the Host returns one when no agent was waiting to hear it). */
export function handBackOf(result: unknown): string | undefined {
	if (typeof result !== 'object' || result === null) { return undefined; }
	const command = (result as { handBackCommand?: unknown }).handBackCommand;
	return typeof command === 'string' && command !== '' ? command : undefined;
}

const noKnownIds: KnownIds = { taskIds: new Set(), runIds: new Set() };

export class IssuePanelController implements Disposable {
	readonly issueId: string;
	readonly #api: PanelHostApi;
	readonly #port: PanelWebviewPort;
	readonly #effects: PanelEffects;
	readonly #coalesceMs: number;
	readonly #timers: CoalesceTimer;
	readonly #onDidPostSnapshot = new Emitter<PanelSnapshot>();
	readonly #apiSubscription: Disposable;
	/** Fires after each snapshot is handed to the webview (tests and the handshake check use it). */
	readonly onDidPostSnapshot: Event<PanelSnapshot> = this.#onDidPostSnapshot.event;
	#view: PanelViewState;
	#seq = 0;
	#ready = false;
	#dirty = false;
	#timer: unknown;
	#known: KnownIds = noKnownIds;
	#last: PanelSnapshot | null = null;
	/** The snapshot the webview holds (deltas are computed against it); null until it has a complete one. */
	#drawn: PanelSnapshot | null = null;
	/** The hand-back command the Host returned for this panel's last decision, until the source agent is seen again. */
	#handBack: { command: string; decision: string } | null = null;
	/** The conflict the last Integrate met, and the issue's delivery state then (null: not seen yet); it goes when that changes. */
	#conflict: { readonly value: IntegrateConflict; delivery: string | null } | null = null;
	#disposed = false;
	readonly #transcriptPollMs: number;
	readonly #tail = new TranscriptTail();
	#tailTimer: unknown;
	readonly #activityRefreshMs: number;
	#activityTimer: unknown;

	constructor(issueId: string, api: PanelHostApi, port: PanelWebviewPort, effects: PanelEffects, view: PanelViewState, options: IssuePanelControllerOptions = {}) {
		this.issueId = issueId;
		this.#api = api;
		this.#port = port;
		this.#effects = effects;
		this.#view = { ...view };
		this.#coalesceMs = options.coalesceMs ?? 30;
		this.#timers = options.timer ?? systemTimer;
		this.#transcriptPollMs = options.transcriptPollMs ?? 500;
		this.#activityRefreshMs = options.activityRefreshMs ?? 2_000;
		this.#apiSubscription = api.onDidChange(() => this.refresh());
	}

	get view(): PanelViewState { return { ...this.#view }; }
	get ready(): boolean { return this.#ready; }
	get lastSnapshot(): PanelSnapshot | null { return this.#last; }

	/** Handles one raw message from the webview. Never throws. */
	async receive(raw: unknown): Promise<void> {
		if (this.#disposed) { return; }
		const parsed = parseToHost(raw);
		if (!parsed.ok) {
			this.#effects.warn(`Tutti issue panel: ignored an invalid message: ${parsed.error}`);
			await this.#postError('The panel sent a message the extension does not understand; it was ignored.');
			return;
		}
		const action = panelActionFor(this.issueId, parsed.value, this.#known);
		switch (action.kind) {
			case 'ready':
				// A new page (or one that lost track) has no snapshot: the next one is complete.
				this.#ready = true;
				this.#drawn = null;
				await this.postSnapshot();
				return;
			case 'view':
				this.#view = { ...this.#view, ...action.view };
				this.refresh();
				return;
			case 'copy':
				await this.#attempt(() => this.#effects.copyToClipboard(action.text));
				return;
			case 'reject':
				this.#effects.warn(`Tutti issue panel: ${action.message}`);
				await this.#postError(action.message);
				return;
			case 'command':
				await this.#run([action]);
				return;
			case 'commands':
				await this.#run(action.calls);
				return;
		}
	}

	/** Runs the commands in order; a decision's hand-back command is kept for the panel to show. */
	async #run(calls: readonly { readonly command: CommandId; readonly args: readonly unknown[] }[]): Promise<void> {
		for (const call of calls) {
			const result = await this.#attempt(() => this.#effects.executeCommand(call.command, call.args));
			const returned = handBackOf(result);
			if (returned !== undefined) {
				this.#handBack = { command: returned, decision: decisionNames[call.command] ?? 'decision' };
			}
			// A form that was sent and taken closes; a refused one stays open with what was typed.
			if ((call.command === commandIds.addTask || call.command === commandIds.editTask || call.command === commandIds.retryTask) && result !== undefined && this.#view.taskForm) {
				this.#view = { ...this.#view, taskForm: null };
			}
		}
		this.refresh();
	}

	/** Host-originated UI state (e.g. "open this issue at task X"): trusted, so not checked against known ids. */
	setView(view: Partial<PanelViewState>): void {
		this.#view = { ...this.#view, ...view };
		this.refresh();
	}

	/** Shows the conflict Integrate met (the Host's refusal) until the issue's delivery state changes. */
	showConflict(conflict: IntegrateConflict): void {
		this.#conflict = { value: conflict, delivery: this.#last?.issue.delivery ?? null };
		this.refresh();
	}

	/** The panel became visible or hidden: a visible, handshaken panel gets a fresh snapshot. */
	visibilityChanged(): void {
		if (this.#port.visible) { this.refresh(); }
	}

	/** Schedules one snapshot for everything that changed within the coalescing window. */
	refresh(): void {
		if (this.#disposed || this.#timer !== undefined) { return; }
		this.#timer = this.#timers.setTimeout(() => {
			this.#timer = undefined;
			void this.postSnapshot();
		}, this.#coalesceMs);
	}

	/** Builds and posts a snapshot now, unless the webview has not said `ready` or is hidden (then it is owed). */
	async postSnapshot(): Promise<void> {
		if (this.#disposed) { return; }
		if (!this.#ready || !this.#port.visible) {
			this.#dirty = true;
			return;
		}
		this.#dirty = false;
		const seq = ++this.#seq;
		let snapshot: PanelSnapshot;
		try {
			snapshot = await buildPanelSnapshot(this.#api, this.issueId, this.#view, seq, this.#handBack);
			// The source agent is in touch again (it waits in a call, works, or Tutti wakes it): the command is spent.
			const agent = snapshot.issue.attention.sourceAgent?.activity;
			if (this.#handBack !== null && (agent === 'waiting' || agent === 'working' || snapshot.issue.terminal)) {
				this.#handBack = null;
				snapshot = { ...snapshot, view: { ...snapshot.view, handBack: null } };
			}
			snapshot = this.#withConflict(snapshot);
		} catch (e) {
			await this.#postError(`Could not read issue ${this.issueId}: ${e instanceof Error ? e.message : String(e)}`);
			return;
		}
		// The task shown was superseded by a rework: its next attempt is what the developer follows.
		const followed = followNewAttempt(this.#last, snapshot);
		if (followed !== null) {
			this.#view = { ...this.#view, selectedTaskId: followed };
			snapshot = { ...snapshot, view: { ...snapshot.view, selectedTaskId: followed } };
		}
		const selected = snapshot.view.selectedTaskId;
		const reviewComments = selected !== null && this.#api.reviewComments ? this.#api.reviewComments(selected).map((c) => ({ path: c.path, line: c.line, text: c.text })) : [];
		snapshot = { ...snapshot, transcript: await this.#readTranscript(snapshot), reviewComments };
		if (this.#disposed) { return; }
		this.#known = {
			taskIds: new Set(snapshot.issue.tasks.map((t) => t.taskId)),
			runIds: new Set(snapshot.runs.map((r) => r.runId)),
			approvalIds: new Set(snapshot.runs.flatMap((r) => (r.approvals ?? []).filter((a) => a.status === 'pending').map((a) => a.approvalId))),
			conflictTree: snapshot.view.conflict?.tree ?? '',
		};
		this.#port.setTitle(`Tutti: ${snapshot.issue.title}`);
		if (await this.#postDrawn(snapshot)) { this.#scheduleActivity(snapshot); }
	}

	/** The held conflict in the snapshot's view, unless the issue's delivery state moved on since (then it is dropped). */
	#withConflict(snapshot: PanelSnapshot): PanelSnapshot {
		const held = this.#conflict;
		if (held === null) { return snapshot; }
		if (held.delivery === null) {
			held.delivery = snapshot.issue.delivery;
		} else if (held.delivery !== snapshot.issue.delivery) {
			this.#conflict = null;
			return snapshot;
		}
		return { ...snapshot, view: { ...snapshot.view, conflict: held.value } };
	}

	/**
	 * Posts a snapshot — as a delta against the one the webview drew, when it has one — and once the webview has it,
	 * it is the last one and its transcript is watched. A snapshot older than the one drawn is dropped.
	 */
	async #postDrawn(snapshot: PanelSnapshot): Promise<boolean> {
		const base = this.#drawn;
		if (base !== null && snapshot.seq <= base.seq) { return false; }
		const message = base !== null ? snapshotDelta(base, snapshot) ?? snapshot : snapshot;
		this.#drawn = snapshot;
		if (!(await this.#send(message))) {
			this.#drawn = null;
			this.#dirty = true;
			return false;
		}
		this.#last = snapshot;
		this.#onDidPostSnapshot.fire(snapshot);
		this.#scheduleTranscript(snapshot);
		return true;
	}

	/** A running Run's activity line changes without a store change: rebuild the snapshot now and then while one runs. */
	#scheduleActivity(snapshot: PanelSnapshot): void {
		if (this.#activityTimer !== undefined || !snapshot.runs.some((r) => r.status === 'running')) { return; }
		this.#activityTimer = this.#timers.setTimeout(() => {
			this.#activityTimer = undefined;
			if (this.#port.visible) { this.refresh(); }
		}, this.#activityRefreshMs);
	}

	/** The selected task's latest Run, as a transcript read from where the last read stopped; null without one. */
	async #readTranscript(snapshot: PanelSnapshot): Promise<PanelSnapshot['transcript']> {
		const taskId = snapshot.view.selectedTaskId;
		if (taskId === null || !this.#api.transcript) { return null; }
		const latest = snapshot.runs.filter((r) => r.taskId === taskId)
			.sort((a, b) => b.createdAtUnixMs - a.createdAtUnixMs || (a.runId < b.runId ? 1 : -1))[0];
		if (!latest) { return null; }
		try {
			return await this.#tail.read({ transcript: this.#api.transcript.bind(this.#api) }, latest.runId);
		} catch (e) {
			this.#effects.warn(`Tutti issue panel: could not read the transcript of ${latest.runId}: ${e instanceof Error ? e.message : String(e)}`);
			return null;
		}
	}

	/** While the shown Run still writes, its transcript is read again and re-posted with the last snapshot. */
	#scheduleTranscript(snapshot: PanelSnapshot): void {
		if (this.#tailTimer !== undefined || !snapshot.transcript || snapshot.transcript.done) { return; }
		this.#tailTimer = this.#timers.setTimeout(() => {
			this.#tailTimer = undefined;
			void this.#refreshTranscript();
		}, this.#transcriptPollMs);
	}

	async #refreshTranscript(): Promise<void> {
		const last = this.#last;
		if (this.#disposed || !last || !this.#ready || !this.#port.visible) { return; }
		const transcript = await this.#readTranscript(last);
		if (this.#disposed || this.#last !== last) { return; }
		const before = last.transcript;
		const changed = !before || !transcript || before.runId !== transcript.runId || before.done !== transcript.done
			|| before.omittedCount !== transcript.omittedCount || before.entries.length !== transcript.entries.length;
		if (!changed) {
			this.#scheduleTranscript(last);
			return;
		}
		await this.#postDrawn({ ...last, seq: ++this.#seq, transcript });
	}

	/** Whether a snapshot is owed to the webview (it was hidden or not ready when one was due). */
	get owesSnapshot(): boolean { return this.#dirty; }

	async #attempt(fn: () => PromiseLike<unknown>): Promise<unknown> {
		try {
			return await fn();
		} catch (e) {
			await this.#postError(e instanceof Error ? e.message : String(e));
			return undefined;
		}
	}

	async #postError(message: string): Promise<void> {
		if (this.#disposed || !this.#ready) { return; }
		await this.#send({ type: 'error', message: message.slice(0, 10_000) });
	}

	/** Posts one message; a webview that went away while a snapshot was built is not an error. */
	async #send(message: ToWebview): Promise<boolean> {
		try {
			return await this.#port.postMessage(message);
		} catch (e) {
			this.#effects.warn(`Tutti issue panel: could not post to the webview: ${e instanceof Error ? e.message : String(e)}`);
			return false;
		}
	}

	dispose(): void {
		if (this.#disposed) { return; }
		this.#disposed = true;
		if (this.#timer !== undefined) { this.#timers.clearTimeout(this.#timer); }
		if (this.#tailTimer !== undefined) { this.#timers.clearTimeout(this.#tailTimer); }
		if (this.#activityTimer !== undefined) { this.#timers.clearTimeout(this.#activityTimer); }
		this.#apiSubscription.dispose();
		this.#onDidPostSnapshot.dispose();
	}
}
