// One Run's conversation with `codex app-server` (docs/codex-app-server.md), over a CodexAppServerClient: initialize,
// start or resume the thread, start the Turn with its prompt, steer later messages into the running turn, interrupt
// it on a Stop, and — because app-server runs no untrusted hook — play the Stop hook itself: when a turn completes,
// the hook command decides whether the agent goes on (a new turn on the same thread with the hook's reason) or
// stops. Spawn-free and file-free: the supervisor wires it to the process and the Run directory.
import * as z from 'zod/mini';
import type { CodexAppServerClient, NotificationListeners } from './codexAppServerClient.js';
import {
	askForApproval, type NotificationParams, optedOutNotifications, reasoningEffort, sandboxMode, textInputOf, type TurnStatus,
} from './codexAppServerProtocol.js';

/** What the adapter decides for a Turn (src/agents/codex.ts); the supervisor reads it back from spec.json. */
export const codexAppServerPlan = z.object({
	cwd: z.string(),
	/** Continue this thread (`thread/resume`); absent: a new thread. */
	resumeThreadId: z.optional(z.string()),
	/** Absent when the target's own args choose them (`-c approval_policy=…`, `-c sandbox_mode=…`). */
	approvalPolicy: z.optional(askForApproval),
	sandbox: z.optional(sandboxMode),
	model: z.optional(z.string()),
	effort: z.optional(reasoningEffort),
	/** The Stop hook's shell command, run by the supervisor at the end of each completed turn. */
	stopHookCommand: z.optional(z.string()),
	/** A worker Turn whose approvals and questions go to the developer (Tutti approvals of its Run); else they are declined. */
	askDeveloper: z.optional(z.boolean()),
	/** The argv (after the executable) of the same Turn as `codex exec`, for a Codex that has no `app-server`. */
	execFallbackArgs: z.array(z.string()),
});
export type CodexAppServerPlan = z.infer<typeof codexAppServerPlan>;

/** What the Stop hook command reads on stdin (the fields `codex exec` gives its hooks). */
export interface StopHookInput {
	session_id: string;
	turn_id: string;
	cwd: string;
	hook_event_name: 'Stop';
	stop_hook_active: boolean;
	last_assistant_message: string;
}

/** The hook's verdict: `block` with the reason the agent is given, or let it stop. */
export type StopHookVerdict = { block: true; reason: string } | { block: false };

export interface CodexSessionDeps {
	/** Runs the Stop hook command; absent (or no command in the plan): turns end the session. */
	runStopHook?: (command: string, input: StopHookInput) => Promise<StopHookVerdict>;
	/** A user message reached the thread: the `clientUserMessageId` it was sent with (the prompt's, or a steered one's). */
	onUserMessage?: (clientId: string) => void;
	/** The first turn ended: nothing sent from now on reaches this process. */
	onInputClosed?: () => void;
	/** How long each request waits for its answer (default 60 s). */
	requestTimeoutMs?: number;
	/** How long an interrupt waits for the turn to end after the server accepted it (default 10 s). */
	interruptWaitMs?: number;
}

/** How the session ended: the thread and its last turn (null when no turn was started). */
export interface CodexSessionEnd {
	threadId: string;
	lastTurn: { id: string; status: TurnStatus; error: string } | null;
	/** Why the session ended before a turn completed (open, turn/start or the server failed), '' otherwise. */
	failure: string;
}

/** Tutti's identity at `initialize` (recorded by Codex as the thread's originator). */
export const tuttiClientInfo = { name: 'tutti', title: 'Tutti', version: '1' } as const;

/** More blocks than Tutti's own hook budget ever gives: a hook that never releases cannot loop forever. */
export const maxStopHookBlocks = 100;

type SendResult = 'started' | 'steered' | 'refused';

export class CodexAppServerSession {
	readonly #client: CodexAppServerClient;
	readonly #plan: CodexAppServerPlan;
	readonly #d: CodexSessionDeps;
	#threadId = '';
	#activeTurn: string | null = null;
	#lastTurn: CodexSessionEnd['lastTurn'] = null;
	#lastText = '';
	#inputClosed = false;
	/** The turn/start in flight, if any. */
	#starting: Promise<boolean> | null = null;
	#blocks = 0;
	#finished = false;
	#resolveDone: (end: CodexSessionEnd) => void = () => undefined;
	readonly done: Promise<CodexSessionEnd>;
	readonly #turnEnded = new Map<string, () => void>();
	/** The changes of each file-change item (an approval request for it names only the item). */
	readonly #changes = new Map<string, unknown>();
	#notes = 0;
	readonly #over = new AbortController();

	/** `connect` builds the client over the server's streams with the session's notification listeners. */
	constructor(connect: (notifications: NotificationListeners) => CodexAppServerClient, plan: CodexAppServerPlan, deps: CodexSessionDeps = {}) {
		this.#plan = plan;
		this.#d = deps;
		this.done = new Promise((resolve) => { this.#resolveDone = resolve; });
		this.#client = connect({
			'turn/completed': (p) => this.#onTurnCompleted(p),
			'item/started': (p) => this.#onItem(p, false),
			'item/completed': (p) => this.#onItem(p, true),
		});
		void this.#client.ended.then(() => this.#finish(this.#lastTurn === null || this.#activeTurn !== null ? 'the codex app-server process ended before its turn completed' : ''));
	}

	get threadId(): string {
		return this.#threadId;
	}

	/** Aborted when the session is over (whatever still waits on the developer's answer for it can stop). */
	get over(): AbortSignal {
		return this.#over.signal;
	}

	/** The changes of a file-change item of this session, as its `item/started` gave them. */
	fileChanges(itemId: string): unknown {
		return this.#changes.get(itemId);
	}

	/** Steers Tutti's own note into the running turn (e.g. the message of a denial); false when no turn takes it. */
	async note(text: string): Promise<boolean> {
		if (this.#activeTurn === null) { return false; }
		this.#notes += 1;
		try {
			await this.#client.request('turn/steer', { threadId: this.#threadId, expectedTurnId: this.#activeTurn, input: [textInputOf(text)], clientUserMessageId: `tutti-note-${this.#notes}` }, this.#d.requestTimeoutMs);
			return true;
		} catch {
			return false;
		}
	}

	/** Initializes the connection and starts or resumes the thread. Rejects (and ends the session) when either fails. */
	async open(): Promise<string> {
		try {
			const timeout = this.#d.requestTimeoutMs;
			await this.#client.request('initialize', {
				clientInfo: { ...tuttiClientInfo },
				capabilities: { experimentalApi: false, requestAttestation: false, optOutNotificationMethods: [...optedOutNotifications] },
			}, timeout);
			this.#client.notify('initialized');
			const common = {
				cwd: this.#plan.cwd,
				...(this.#plan.approvalPolicy !== undefined ? { approvalPolicy: this.#plan.approvalPolicy } : {}),
				...(this.#plan.sandbox !== undefined ? { sandbox: this.#plan.sandbox } : {}),
				...(this.#plan.model !== undefined ? { model: this.#plan.model } : {}),
			};
			const opened = this.#plan.resumeThreadId !== undefined
				? await this.#client.request('thread/resume', { ...common, threadId: this.#plan.resumeThreadId, excludeTurns: true }, timeout)
				: await this.#client.request('thread/start', common, timeout);
			this.#threadId = opened.thread.id;
			return this.#threadId;
		} catch (e) {
			this.#finish(`could not open the Codex thread: ${(e as Error).message}`);
			throw e;
		}
	}

	/**
	 * The Turn's first message starts the turn (`turn/start`); a later one is steered into it (`turn/steer`) while it runs.
	 * `refused`: the turn has ended (or never opened), so the message must wait for the next Turn.
	 */
	async send(text: string, clientId: string): Promise<SendResult> {
		if (this.#finished || this.#threadId === '' || this.#inputClosed) { return 'refused'; }
		if (this.#activeTurn === null && this.#lastTurn === null && this.#starting === null) {
			return await this.#startTurn(text, clientId) ? 'started' : 'refused';
		}
		// A message right behind the prompt waits for its turn to start, then steers into it.
		if (this.#starting !== null) { await this.#starting; }
		const turnId = this.#activeTurn;
		if (turnId === null) { return 'refused'; }
		try {
			await this.#client.request('turn/steer', { threadId: this.#threadId, expectedTurnId: turnId, input: [textInputOf(text)], clientUserMessageId: clientId }, this.#d.requestTimeoutMs);
			return 'steered';
		} catch {
			return 'refused'; // the turn ended between the check and the steer ("no active turn to steer")
		}
	}

	/** A person's Stop: interrupts the running turn. True once the server reported the turn ended. */
	async interrupt(): Promise<boolean> {
		this.#closeInput();
		const turnId = this.#activeTurn;
		if (turnId === null) { return false; }
		const ended = new Promise<void>((resolve) => { this.#turnEnded.set(turnId, resolve); });
		try {
			await this.#client.request('turn/interrupt', { threadId: this.#threadId, turnId }, this.#d.interruptWaitMs ?? 10_000);
		} catch {
			if (this.#activeTurn !== turnId) { return true; } // it ended on its own meanwhile
			return false;
		}
		const waitMs = this.#d.interruptWaitMs ?? 10_000;
		return await Promise.race([ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs).unref())]);
	}

	/** Ends the session now (the process is going away). */
	close(reason: string): void {
		this.#finish(reason);
	}

	#onItem(p: NotificationParams<'item/started'>, completed: boolean): void {
		if (p.threadId !== this.#threadId) { return; }
		const item = p.item as Record<string, unknown>;
		if (item.type === 'userMessage' && typeof item.clientId === 'string' && !completed) { this.#d.onUserMessage?.(item.clientId); }
		if (item.type === 'agentMessage' && completed && typeof item.text === 'string' && item.text !== '') { this.#lastText = item.text; }
		if (item.type === 'fileChange' && typeof item.id === 'string') { this.#changes.set(item.id, item.changes); }
	}

	#onTurnCompleted(p: NotificationParams<'turn/completed'>): void {
		if (p.threadId !== this.#threadId || p.turn.id !== this.#activeTurn) { return; }
		this.#activeTurn = null;
		this.#lastTurn = { id: p.turn.id, status: p.turn.status, error: p.turn.error?.message ?? '' };
		this.#turnEnded.get(p.turn.id)?.();
		this.#turnEnded.delete(p.turn.id);
		this.#closeInput();
		if (p.turn.status === 'completed') { void this.#afterCompletedTurn(p.turn.id); } else { this.#finish(''); }
	}

	#startTurn(text: string, clientId: string | undefined): Promise<boolean> {
		this.#starting = this.#requestTurn(text, clientId).finally(() => { this.#starting = null; });
		return this.#starting;
	}

	async #requestTurn(text: string, clientId: string | undefined): Promise<boolean> {
		try {
			const started = await this.#client.request('turn/start', {
				threadId: this.#threadId, input: [textInputOf(text)],
				...(clientId !== undefined ? { clientUserMessageId: clientId } : {}),
				...(this.#plan.effort !== undefined ? { effort: this.#plan.effort } : {}),
			}, this.#d.requestTimeoutMs);
			this.#activeTurn = started.turn.id;
			this.#lastText = '';
			return true;
		} catch (e) {
			this.#finish(`could not start the Codex turn: ${(e as Error).message}`);
			return false;
		}
	}

	/** The Stop hook decides whether the agent stops here or goes on in a new turn. */
	async #afterCompletedTurn(turnId: string): Promise<void> {
		const command = this.#plan.stopHookCommand;
		const run = this.#d.runStopHook;
		if (command === undefined || run === undefined || this.#blocks >= maxStopHookBlocks || this.#finished) { this.#finish(''); return; }
		let verdict: StopHookVerdict;
		try {
			verdict = await run(command, {
				session_id: this.#threadId, turn_id: turnId, cwd: this.#plan.cwd, hook_event_name: 'Stop',
				stop_hook_active: this.#blocks > 0, last_assistant_message: this.#lastText,
			});
		} catch {
			verdict = { block: false }; // a hook that fails lets the agent stop, as Codex does
		}
		if (!verdict.block || this.#finished) { this.#finish(''); return; }
		this.#blocks += 1;
		await this.#startTurn(verdict.reason, undefined);
	}

	#closeInput(): void {
		if (this.#inputClosed) { return; }
		this.#inputClosed = true;
		this.#d.onInputClosed?.();
	}

	#finish(failure: string): void {
		if (this.#finished) { return; }
		this.#finished = true;
		this.#over.abort();
		this.#closeInput();
		for (const resolve of this.#turnEnded.values()) { resolve(); }
		this.#turnEnded.clear();
		this.#resolveDone({ threadId: this.#threadId, lastTurn: this.#lastTurn, failure });
	}
}
