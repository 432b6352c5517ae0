import { strict as assert } from 'node:assert';
import { DisposableStore, MutableDisposable, toDisposable } from '../../../src/core/lifecycle.js';

/** A disposable that counts its disposals. */
function counted(): { readonly d: { dispose(): void }; readonly times: () => number } {
	let n = 0;
	return { d: { dispose: () => { n++; } }, times: () => n };
}

describe('core/lifecycle', () => {
	it('DisposableStore.delete disposes what ended early and stops holding it: the store\'s own end does not touch it again', () => {
		const store = new DisposableStore();
		const early = counted();
		const late = counted();
		store.add(early.d);
		store.add(late.d);
		assert.equal(store.size, 2);
		store.delete(early.d);
		assert.deepEqual([early.times(), store.size], [1, 1]);
		store.delete(early.d);
		assert.equal(early.times(), 1, 'deleting what it no longer holds does nothing');
		store.dispose();
		assert.deepEqual([early.times(), late.times(), store.size], [1, 1, 0]);
	});

	it('MutableDisposable holds one value: a new one disposes the one before; disposing it ends the last and any later one', () => {
		const slot = new MutableDisposable();
		const first = counted();
		const second = counted();
		slot.value = first.d;
		slot.value = second.d;
		assert.deepEqual([first.times(), second.times()], [1, 0]);
		slot.value = second.d;
		assert.equal(second.times(), 0, 'setting the same value again keeps it');
		slot.dispose();
		assert.deepEqual([second.times(), slot.value], [1, undefined]);
		const after = counted();
		slot.value = after.d;
		assert.deepEqual([after.times(), slot.value], [1, undefined], 'a value set after the end is disposed at once');
		slot.dispose();
		assert.equal(second.times(), 1);
	});

	it('toDisposable runs its function once', () => {
		let n = 0;
		const d = toDisposable(() => { n++; });
		d.dispose();
		d.dispose();
		assert.equal(n, 1);
	});
});
