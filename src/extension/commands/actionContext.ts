// What every command handler gets, and the one wrapper that turns a failure into a clear error message.
import * as vscode from 'vscode';
import type { IntegrateConflict, TaskFormState } from '../../protocol/webview.js';
import { describeError } from '../client/hostClient.js';
import type { DiffComments } from '../review/diffComments.js';
import type { ReviewDiffs } from '../review/reviewDiffContext.js';
import type { ExtensionServices } from '../services.js';
import type { TuttiTerminals } from '../terminal/tuttiTerminals.js';

/** How a panel opens: with a task selected, and/or with its task form open. */
export interface ShowPanelOptions {
	readonly selectTaskId?: string;
	readonly taskForm?: TaskFormState;
}

/** Opens the issue panel (src/extension/panels) or, until it is there, a stand-in. */
export interface IssuePanelPort {
	show(issueId: string, options?: ShowPanelOptions): Promise<void> | void;
	/** The issue panel the developer is in (the active editor), and the task selected in it; undefined when none is. */
	active?(): { readonly issueId: string; readonly selectedTaskId: string | null } | undefined;
	/** Opens the issue's panel with the conflict Integrate just met (its paths and ways forward). */
	showConflict?(issueId: string, conflict: IntegrateConflict): Promise<void> | void;
}

export interface ActionContext {
	readonly services: ExtensionServices;
	readonly terminals: TuttiTerminals;
	readonly panel: IssuePanelPort;
	/** Comments on tasks' diffs (the buttons of VS Code's comment threads). */
	readonly diffComments: Pick<DiffComments, 'addComment' | 'deleteComment'>;
	/** Tutti's task diff editors: their titles, and the task of the active one (its title bar's Accept, Request changes). */
	readonly reviewDiffs: Pick<ReviewDiffs, 'tabs' | 'active' | 'refresh'>;
}

/** Runs an action; on failure shows "Tutti: <what failed>: <reason (hint)>" and resolves undefined. */
export async function runAction<T>(ctx: ActionContext, what: string, body: () => Promise<T>): Promise<T | undefined> {
	try {
		return await body();
	} catch (error) {
		const message = `Tutti: ${what} failed: ${describeError(error)}`;
		ctx.services.log.warn(message);
		void vscode.window.showErrorMessage(message);
		return undefined;
	} finally {
		void ctx.services.refresh();
	}
}
