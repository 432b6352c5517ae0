// The open issue panels by issue, vscode-free: one panel per issue, each held only while it is open. A panel that
// closes leaves the map and the registry's disposables at once, so closed panels are not kept until deactivation.
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';

export interface RegisteredPanel extends Disposable {
	readonly issueId: string;
	/** Fires once when the panel closes (or is disposed). */
	onDidDispose(listener: () => void): Disposable;
}

export class PanelRegistry<P extends RegisteredPanel> implements Disposable {
	readonly #store = new DisposableStore();
	readonly #panels = new Map<string, { readonly panel: P; readonly holds: Disposable }>();

	/** Holds `panel` until it closes or the registry is disposed; returns it. */
	track(panel: P): P {
		const holds = this.#store.add(new DisposableStore());
		holds.add(panel);
		this.#panels.set(panel.issueId, { panel, holds });
		holds.add(panel.onDidDispose(() => this.#release(panel)));
		return panel;
	}

	get(issueId: string): P | undefined {
		return this.#panels.get(issueId)?.panel;
	}

	/** The first held panel that `test` accepts. */
	find(test: (panel: P) => boolean): P | undefined {
		for (const { panel } of this.#panels.values()) {
			if (test(panel)) { return panel; }
		}
		return undefined;
	}

	/** The panels held (open ones only). */
	get size(): number {
		return this.#panels.size;
	}

	/** The registry's own disposables: one holder per open panel (none stays behind a closed one). */
	get heldDisposables(): number {
		return this.#store.size;
	}

	#release(panel: P): void {
		const entry = this.#panels.get(panel.issueId);
		if (entry?.panel !== panel) { return; }
		this.#panels.delete(panel.issueId);
		this.#store.delete(entry.holds);
	}

	dispose(): void {
		this.#panels.clear();
		this.#store.dispose();
	}
}
