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
	/** Disposes `d` now and stops holding it: what ends before its owner (a closed panel) is not kept until the owner ends. */
	delete(d: Disposable): void {
		if (this.#items.delete(d)) { d.dispose(); }
	}
	/** How many disposables it holds. */
	get size(): number {
		return this.#items.size;
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

/** Holds at most one disposable: setting a new value disposes the one before, so repeats do not pile up. */
export class MutableDisposable<T extends Disposable = Disposable> implements Disposable {
	#value: T | undefined;
	#disposed = false;
	get value(): T | undefined {
		return this.#value;
	}
	set value(next: T | undefined) {
		if (next === this.#value) { return; }
		const before = this.#value;
		this.#value = this.#disposed ? undefined : next;
		before?.dispose();
		if (this.#disposed) { next?.dispose(); }
	}
	dispose(): void {
		if (this.#disposed) { return; }
		this.#disposed = true;
		const value = this.#value;
		this.#value = undefined;
		value?.dispose();
	}
}
