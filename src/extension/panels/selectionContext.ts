// Context keys for the keybindings' `when` clauses: what the Host offers on the task selected in the active issue
// panel (Accept, Request changes). One owner for all panels: the active one sets them, and they go when no panel is
// active, so a binding never fires on a panel behind another editor.
import * as vscode from 'vscode';
import type { TaskControlsDto } from '../../protocol/dto.js';

export const selectionContextKeys = {
	/** The active issue panel's selected task can be accepted. */
	canAccept: 'tutti:panelSelectionCanAccept',
	/** Changes can be requested on it. */
	canRequestChanges: 'tutti:panelSelectionCanRequestChanges',
} as const;

export class SelectionContext implements vscode.Disposable {
	#owner: object | null = null;
	#last = '';

	/** `owner` (a panel) is active with `controls` on its selection (undefined: nothing selected or offered). */
	set(owner: object, controls: Pick<TaskControlsDto, 'accept' | 'requestChanges'> | undefined): void {
		this.#owner = owner;
		this.#apply(controls?.accept === true, controls?.requestChanges === true);
	}

	/** `owner` is no longer active (or closed): its keys go, unless another panel took them over. */
	release(owner: object): void {
		if (this.#owner !== owner) { return; }
		this.#owner = null;
		this.#apply(false, false);
	}

	#apply(accept: boolean, requestChanges: boolean): void {
		const key = `${accept}:${requestChanges}`;
		if (key === this.#last) { return; }
		this.#last = key;
		void vscode.commands.executeCommand('setContext', selectionContextKeys.canAccept, accept);
		void vscode.commands.executeCommand('setContext', selectionContextKeys.canRequestChanges, requestChanges);
	}

	dispose(): void {
		if (this.#owner !== null) { this.#apply(false, false); }
		this.#owner = null;
	}
}
