// vscode-free disposables, structurally compatible with vscode.Disposable.
export interface Disposable {
	dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
	let done = false;
	return { dispose: () => { if (!done) { done = true; fn(); } } };
}

export class DisposableStore implements Disposable {
	readonly #items = new Set<Disposable>();
	#disposed = false;
	add<T extends Disposable>(d: T): T {
		if (this.#disposed) { d.dispose(); } else { this.#items.add(d); }
		return d;
	}
	dispose(): void {
		if (this.#disposed) { return; }
		this.#disposed = true;
		const errors: unknown[] = [];
		for (const d of [...this.#items].reverse()) { try { d.dispose(); } catch (e) { errors.push(e); } }
		this.#items.clear();
		if (errors.length) { throw new AggregateError(errors, 'dispose failed'); }
	}
}
