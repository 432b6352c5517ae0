// The terminals Tutti opens. Agent terminals: the environment carries a source session's token, so the developer's
// own agent (Claude Code, Codex, …) started in it drives a plan with `tutti plan issue …`; per-session values go
// only into that terminal's env, never into the global collection (and never strictEnv, which would drop the
// collection). Run output: a read-only view of a Run's live output (runOutputTerminal.ts).
import * as vscode from 'vscode';
import { DisposableStore, type Disposable, toDisposable } from '../../core/lifecycle.js';
import type { ExtensionServices } from '../services.js';
import { RunOutputPty } from './runOutputTerminal.js';

export interface AgentSessionRef {
	readonly sessionId: string;
	readonly token: string;
	readonly issueId?: string;
}

export interface AgentTerminalOptions {
	/** An existing session (e.g. the source session of a managed issue just created); default a fresh one. */
	readonly session?: AgentSessionRef;
	readonly agentTargetId?: string;
	readonly issueId?: string;
	/** What the terminal is named after (the issue's title); default the issue id. */
	readonly label?: string;
}

export function agentTerminalEnv(session: AgentSessionRef): Record<string, string> {
	const env: Record<string, string> = { TUTTI_SESSION_TOKEN: session.token, TUTTI_SESSION_ID: session.sessionId };
	if (session.issueId) {
		env['TUTTI_ISSUE_ID'] = session.issueId;
	}
	return env;
}

export class TuttiTerminals implements Disposable {
	readonly #store = new DisposableStore();
	/** Open terminals this class created; disposed with it, forgotten when the user closes them. */
	readonly #open = new Set<vscode.Terminal>();

	constructor(private readonly services: ExtensionServices) {
		this.#store.add(vscode.window.onDidCloseTerminal((t) => this.#open.delete(t)));
		this.#store.add(toDisposable(() => {
			for (const t of this.#open) {
				t.dispose();
			}
			this.#open.clear();
		}));
	}

	/** Opens a terminal as a source session (a fresh one from the Host unless given) and shows it. */
	async open(options: AgentTerminalOptions = {}): Promise<vscode.Terminal> {
		const session = options.session ?? await this.#openSession(options);
		const terminal = track(this.#open, vscode.window.createTerminal({
			name: `Tutti agent${options.label ? ` · ${options.label}` : session.issueId ? ` · ${session.issueId}` : ''}`,
			cwd: this.services.workspace,
			env: agentTerminalEnv(session),
			iconPath: new vscode.ThemeIcon('hubot'),
		}));
		terminal.show();
		this.services.log.info(`agent terminal opened for source session ${session.sessionId}`);
		return terminal;
	}

	/** The agent terminal opened for the issue's source session, if it is still open (this window's). */
	agentTerminalOf(issueId: string): vscode.Terminal | undefined {
		const name = `Tutti agent · ${issueId}`;
		return [...this.#open].find((t) => t.name === name && t.exitStatus === undefined)
			?? vscode.window.terminals.find((t) => t.name === name && t.exitStatus === undefined);
	}

	async #openSession(options: AgentTerminalOptions): Promise<AgentSessionRef> {
		const opened = await this.services.client().call('session/open', {
			role: 'source',
			...(options.agentTargetId ? { agentTargetId: options.agentTargetId } : {}),
			...(options.issueId ? { issueId: options.issueId } : {}),
		});
		return { sessionId: opened.sessionId, token: opened.token, ...(options.issueId ? { issueId: options.issueId } : {}) };
	}

	/** A read-only terminal showing the Run's output as it arrives. */
	openRunOutput(runId: string, label: string): vscode.Terminal {
		const pty = new RunOutputPty(() => this.services.client(), runId);
		const terminal = track(this.#open, vscode.window.createTerminal({ name: `Run · ${label}`, pty, iconPath: new vscode.ThemeIcon('output') }));
		terminal.show();
		return terminal;
	}

	dispose(): void {
		this.#store.dispose();
	}
}

/** Adds a terminal to the set that owns it (disposed with the set's owner) and returns it. */
export function track(open: Set<vscode.Terminal>, terminal: vscode.Terminal): vscode.Terminal {
	open.add(terminal);
	return terminal;
}
