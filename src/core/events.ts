// A tiny typed emitter; adapted to vscode.EventEmitter only at the extension edge.
import { type Disposable, toDisposable } from './lifecycle.js';

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
	readonly #listeners = new Set<(e: T) => void>();
	readonly event: Event<T> = (listener) => {
		this.#listeners.add(listener);
		return toDisposable(() => this.#listeners.delete(listener));
	};
	fire(e: T): void {
		for (const l of [...this.#listeners]) {
			try { l(e); } catch { /* a listener's failure never breaks the emitter */ }
		}
	}
	dispose(): void { this.#listeners.clear(); }
}
